// Reading the contract recipes: files, templates and captures (TypeScript side). The
// Python side (recipe_format.py) implements the same rules; README.md is the reference.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import yaml from "js-yaml";
import { pointerGet } from "../../../packages/msw/src/verify/random/contract.js";

export const recipesDir = fileURLToPath(new URL(".", import.meta.url));

/** One step of a recipe file, with its id filled in. */
export interface RecipeStep {
  readonly id: string;
  readonly file: string;
  readonly operation: string;
  readonly setup?: boolean;
  /** `admin` (default), `none`, or a template for another bearer credential */
  readonly auth?: string;
  readonly request?: Record<string, unknown>;
  readonly headers?: Record<string, unknown>;
  readonly capture?: Record<string, string>;
  readonly capture_headers?: Record<string, string>;
  readonly expect?: { readonly status: number; readonly code: string | null };
  readonly why?: string;
}

const STEP_KEYS = new Set([
  "id",
  "operation",
  "request",
  "headers",
  "auth",
  "capture",
  "capture_headers",
  "expect",
  "why",
  "setup",
]);
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\|([^}]*))?\}$/;
const PART = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\|([^}]*))?\}/g;

/** A template names a value no earlier step captured, and has no fallback. */
export class MissingValue extends Error {
  constructor(readonly valueName: string) {
    super(`needs ${valueName}`);
    this.name = "MissingValue";
  }
}

/**
 * Every step of `dir/*.yaml` except `server.yaml`, in file-name order.
 *
 * @throws {Error} naming the file and step for an unknown member, a missing operation,
 *   an `expect` without `why`, or an id used twice
 */
export function loadRecipes(dir: string = recipesDir): RecipeStep[] {
  const steps: RecipeStep[] = [];
  const seen = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".yaml") && f !== "server.yaml")
    .sort()) {
    const document = (yaml.load(readFileSync(join(dir, file), "utf8")) ?? {}) as { steps?: Record<string, unknown>[] };
    (document.steps ?? []).forEach((raw, index) => {
      const where = `${file} step ${index + 1}`;
      const unknown = Object.keys(raw).filter((k) => !STEP_KEYS.has(k));
      if (unknown.length > 0 || typeof raw.operation !== "string")
        throw new Error(`${where}: needs operation; unknown members ${JSON.stringify(unknown)}`);
      if (raw.expect !== undefined && !raw.why) throw new Error(`${where}: a step with expect needs why`);
      const id = typeof raw.id === "string" ? raw.id : raw.operation;
      if (seen.has(id)) throw new Error(`${where}: id ${id} is used twice; give the step an id`);
      seen.add(id);
      steps.push({ ...(raw as object), id, file } as RecipeStep);
    });
  }
  return steps;
}

/** The `env` of `server.yaml`: settings the server needs for the run. */
export function serverSettings(dir: string = recipesDir): Record<string, string> {
  const document = (yaml.load(readFileSync(join(dir, "server.yaml"), "utf8")) ?? {}) as {
    env?: Record<string, unknown>;
  };
  return Object.fromEntries(Object.entries(document.env ?? {}).map(([k, v]) => [k, String(v)]));
}

function lookup(name: string, fallback: string | undefined, values: ReadonlyMap<string, unknown>): unknown {
  if (values.has(name)) return values.get(name);
  if (fallback !== undefined) return fallback;
  throw new MissingValue(name);
}

/**
 * Replaces `${name}` and `${name|fallback}`: a string that is one template becomes the
 * captured value with its JSON type; templates inside a longer string are replaced by text
 * (a string as it is, anything else as compact JSON).
 *
 * @throws {MissingValue} for a template without a value or fallback
 */
export function substitute(node: unknown, values: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => substitute(item, values));
  if (node !== null && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, values)]));
  }
  if (typeof node !== "string") return node;
  const whole = WHOLE.exec(node);
  if (whole) return lookup(whole[1]!, whole[2], values);
  return node.replace(PART, (_match, name: string, fallback: string | undefined) => {
    const value = lookup(name, fallback, values);
    return typeof value === "string" ? value : JSON.stringify(value);
  });
}

/** The value at an RFC 6901 pointer, or undefined (the random run's, shipped with @powercontext/msw). */
export { pointerGet };

/** What a successful step captures: pointers into the raw JSON body, headers by name (any case). */
export function capture(step: RecipeStep, body: unknown, headers: Headers): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [name, pointer] of Object.entries(step.capture ?? {})) {
    const value = pointerGet(body, pointer);
    if (value !== undefined) found.set(name, value);
  }
  for (const [name, header] of Object.entries(step.capture_headers ?? {})) {
    const value = headers.get(header);
    if (value !== null) found.set(name, value);
  }
  return found;
}
