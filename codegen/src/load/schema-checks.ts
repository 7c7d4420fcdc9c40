import { patternFlags, type LintProfile } from "../domain/types.js";
import { SpecError } from "../errors.js";
import { mappingRef, resolvePointer } from "./ref-policy.js";
import { walkSchemas, type SchemaNode } from "./schema-walk.js";
import { step, trailPointer, type Trail } from "./trail.js";

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
  const targets = new Map<string, unknown>();
  const resolve = (ref: string): unknown => {
    if (!targets.has(ref)) targets.set(ref, resolvePointer(document, ref).value);
    return targets.get(ref);
  };
  const nodes = walkSchemas(document, resolve);
  const verdicts = new Map<string, "u" | "" | null>();
  const check = (source: string, trail: Trail) => {
    let flags = verdicts.get(source);
    if (flags === undefined) {
      flags = patternFlags(source);
      verdicts.set(source, flags);
    }
    if (flags !== "u") patternProblem(source, flags, trailPointer(trail), profile, errors, warnings);
  };
  for (const { schema, trail } of nodes) {
    if (typeof schema.pattern === "string") check(schema.pattern, step(trail, "pattern"));
    const patternProperties = schema.patternProperties;
    if (patternProperties !== null && typeof patternProperties === "object") {
      for (const name of Object.keys(patternProperties)) check(name, step(step(trail, "patternProperties"), name));
    }
  }
  errors.push(...inPlaceCycles(nodes, resolve));
  return { errors, warnings };
}

function patternProblem(
  source: string,
  flags: "" | null,
  at: string,
  profile: LintProfile,
  errors: SpecError[],
  warnings: SpecError[],
): void {
  if (flags === null) {
    errors.push(
      new SpecError(
        "invalid_pattern",
        { pointer: at },
        `${JSON.stringify(source)} is not a valid ECMAScript regular expression: ${regexMessage(source)}`,
      ),
    );
    return;
  }
  const target = profile === "strict" ? errors : warnings;
  target.push(
    new SpecError(
      "invalid_pattern",
      { pointer: at },
      `${JSON.stringify(source)} is not a valid regular expression with the u flag (${regexMessage(source, "u")}); the validators would compile it without u, with other semantics than ajv's`,
    ),
  );
}

function regexMessage(source: string, flags = ""): string {
  try {
    new RegExp(source, flags);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

interface Edge {
  readonly to: unknown;
  /** Where the edge is written: the `$ref` member, the mapping entry, or the sub-schema. */
  readonly trail: Trail;
}

/** Edges "validating this schema validates that one on the same value". */
function inPlaceEdges(node: SchemaNode, resolve: (ref: string) => unknown): Edge[] {
  const { schema, trail } = node;
  const edges: Edge[] = [];
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#"))
    edges.push({ to: resolve(schema.$ref), trail: step(trail, "$ref") });
  for (const key of IN_PLACE_ONE) if (isObject(schema[key])) edges.push({ to: schema[key], trail: step(trail, key) });
  for (const key of IN_PLACE_LIST) {
    const list = schema[key];
    if (Array.isArray(list)) {
      list.forEach((item, index) => {
        edges.push({ to: item, trail: step(step(trail, key), index) });
      });
    }
  }
  const discriminator = schema.discriminator;
  if (
    isObject(discriminator) &&
    isObject(discriminator.mapping) &&
    (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf))
  ) {
    const at = step(step(trail, "discriminator"), "mapping");
    for (const [name, target] of Object.entries(discriminator.mapping)) {
      if (typeof target !== "string") continue;
      edges.push({ to: resolve(mappingRef(target)), trail: step(at, name) });
    }
  }
  return edges;
}

/** One error per cycle of in-place edges (iterative depth-first search), at the edge that closes it. */
function inPlaceCycles(nodes: readonly SchemaNode[], resolve: (ref: string) => unknown): SpecError[] {
  const byObject = new Map<unknown, SchemaNode>(nodes.map((node) => [node.schema, node]));
  const state = new Map<unknown, "open" | "done">();
  const errors: SpecError[] = [];
  for (const start of nodes) {
    if (state.has(start.schema)) continue;
    const stack: { node: SchemaNode; edges: Edge[]; next: number }[] = [
      { node: start, edges: inPlaceEdges(start, resolve), next: 0 },
    ];
    state.set(start.schema, "open");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as (typeof stack)[number];
      const edge = frame.edges[frame.next];
      if (edge === undefined) {
        state.set(frame.node.schema, "done");
        stack.pop();
        continue;
      }
      frame.next += 1;
      const target = byObject.get(edge.to);
      if (target === undefined) continue;
      const seen = state.get(edge.to);
      if (seen === "open") {
        const loop = [...stack.slice(stack.findIndex((f) => f.node === target)).map((f) => f.node), target];
        errors.push(
          new SpecError(
            "circular_ref",
            { pointer: trailPointer(edge.trail) },
            `schema reaches itself without consuming any input (${loop.map((n) => `#${trailPointer(n.trail)}`).join(" -> ")}); its validator would never end. Recurse through properties or items instead`,
          ),
        );
      } else if (seen === undefined) {
        state.set(edge.to, "open");
        stack.push({ node: target, edges: inPlaceEdges(target, resolve), next: 0 });
      }
    }
  }
  return errors;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
