import { SpecError, pointerSegment } from "../errors.js";
import type { LintProfile } from "./lint.js";
import { refPointer, walkSchemas, type SchemaNode } from "./schema-walk.js";

/**
 * The flags the emitted validators compile a `pattern` with: `u` when the
 * pattern is a valid Unicode regular expression (what ajv does by default),
 * otherwise none; `null` when it is not a valid ECMAScript regular expression at all.
 */
export function patternFlags(source: string): "u" | "" | null {
  for (const flags of ["u", ""] as const) {
    try {
      new RegExp(source, flags);
      return flags;
    } catch {
      // try the next flag set
    }
  }
  return null;
}

/** Keywords that apply their sub-schemas to the same value (no step into the data). */
const IN_PLACE_ONE = ["not", "if", "then", "else"];
const IN_PLACE_LIST = ["allOf", "anyOf", "oneOf"];

/**
 * Checks every Schema Object (see `walkSchemas`) for what would make the emitted
 * validators fail at run time:
 *
 * - `pattern` (and `patternProperties` names) must be valid ECMAScript regular
 *   expressions; one that is valid only without the `u` flag is an error under
 *   `strict` and a warning under `upstream` (the validators then compile it
 *   without `u`, unlike ajv);
 * - a schema must not reach itself through keywords that apply to the same value
 *   (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, discriminator
 *   mappings): such a validator calls itself without consuming input and never
 *   ends. Recursion through `properties`, `items` and the like is fine.
 *
 * @returns errors (stop generation) and warnings, each naming the offending pointer
 */
export function checkSchemas(document: unknown, profile: LintProfile): { errors: SpecError[]; warnings: SpecError[] } {
  const errors: SpecError[] = [];
  const warnings: SpecError[] = [];
  const nodes = walkSchemas(document);
  for (const { schema, at } of nodes) {
    if (typeof schema.pattern === "string") checkPattern(schema.pattern, `${at}/pattern`, profile, errors, warnings);
    const patternProperties = schema.patternProperties;
    if (patternProperties !== null && typeof patternProperties === "object") {
      for (const name of Object.keys(patternProperties)) checkPattern(name, `${at}/patternProperties/${pointerSegment(name)}`, profile, errors, warnings);
    }
  }
  errors.push(...inPlaceCycles(nodes));
  return { errors, warnings };
}

function checkPattern(source: string, at: string, profile: LintProfile, errors: SpecError[], warnings: SpecError[]): void {
  const flags = patternFlags(source);
  if (flags === "u") return;
  if (flags === null) {
    errors.push(new SpecError("invalid_pattern", { pointer: at }, `${JSON.stringify(source)} is not a valid ECMAScript regular expression: ${regexMessage(source)}`));
    return;
  }
  const target = profile === "strict" ? errors : warnings;
  target.push(new SpecError("invalid_pattern", { pointer: at }, `${JSON.stringify(source)} is not a valid regular expression with the u flag (${regexMessage(source, "u")}); the validators would compile it without u, with other semantics than ajv's`));
}

function regexMessage(source: string, flags = ""): string {
  try {
    new RegExp(source, flags);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

/** Edges "validating this schema validates that one on the same value", with the pointer that makes each. */
function inPlaceEdges(node: SchemaNode): { to: string; at: string }[] {
  const { schema, at } = node;
  const edges: { to: string; at: string }[] = [];
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#")) edges.push({ to: refPointer(schema.$ref), at: `${at}/$ref` });
  for (const key of IN_PLACE_ONE) if (isObject(schema[key])) edges.push({ to: `${at}/${key}`, at: `${at}/${key}` });
  for (const key of IN_PLACE_LIST) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((_, index) => edges.push({ to: `${at}/${key}/${index}`, at: `${at}/${key}/${index}` }));
  }
  const discriminator = schema.discriminator;
  if (isObject(discriminator) && isObject(discriminator.mapping) && (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf))) {
    for (const [name, target] of Object.entries(discriminator.mapping)) {
      if (typeof target !== "string") continue;
      const to = target.startsWith("#") ? refPointer(target) : `/components/schemas/${pointerSegment(target)}`;
      edges.push({ to, at: `${at}/discriminator/mapping/${pointerSegment(name)}` });
    }
  }
  return edges;
}

/** One error per cycle of in-place edges (iterative depth-first search), at the edge that closes it. */
function inPlaceCycles(nodes: readonly SchemaNode[]): SpecError[] {
  const byPointer = new Map(nodes.map((node) => [node.at, node]));
  const state = new Map<string, "open" | "done">();
  const errors: SpecError[] = [];
  for (const start of nodes) {
    if (state.has(start.at)) continue;
    const stack: { at: string; edges: { to: string; at: string }[]; next: number }[] = [{ at: start.at, edges: inPlaceEdges(start), next: 0 }];
    state.set(start.at, "open");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as (typeof stack)[number];
      const edge = frame.edges[frame.next];
      if (edge === undefined) {
        state.set(frame.at, "done");
        stack.pop();
        continue;
      }
      frame.next += 1;
      const target = byPointer.get(edge.to);
      if (target === undefined) continue;
      const seen = state.get(edge.to);
      if (seen === "open") {
        const path = [...stack.slice(stack.findIndex((f) => f.at === edge.to)).map((f) => f.at), edge.to];
        errors.push(new SpecError("circular_ref", { pointer: edge.at }, `schema reaches itself without consuming any input (${path.map((p) => `#${p}`).join(" -> ")}); its validator would never end. Recurse through properties or items instead`));
      } else if (seen === undefined) {
        state.set(edge.to, "open");
        stack.push({ at: edge.to, edges: inPlaceEdges(target), next: 0 });
      }
    }
  }
  return errors;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
