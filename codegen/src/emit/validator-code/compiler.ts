import { patternFlags, type Json } from "../../ir/domain.js";
import { arrayChecks, fail, numberChecks, stringChecks, typeCondition, type CheckContext } from "./keywords.js";
import { objectChecks } from "./object-checks.js";
import { RUNTIME_HELPERS } from "./runtime.js";

/** Keywords ajv would enforce that this compiler does not implement: refusing beats ignoring. */
const UNSUPPORTED = ["contains", "additionalItems", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "$data"];
const STRING_KEYS = ["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const OBJECT_KEYS = ["required", "properties", "additionalProperties", "minProperties", "maxProperties", "patternProperties", "propertyNames", "dependencies"];
const ARRAY_KEYS = ["items", "minItems", "maxItems", "uniqueItems"];

/**
 * Compiles draft-07 JSON Schemas (as produced by `ir/json-schema.ts`) into one
 * JavaScript module of straight-line checks.
 *
 * Every definition becomes a function `(d, p) => boolean` (value, JSON pointer of
 * the value); a `$ref` to a definition is a call, so recursive schemas work and a
 * shared schema is emitted once. Branches of `anyOf`/`oneOf`/`not`/`if` that are not
 * a plain reference become functions of their own. Only definitions reachable from
 * an export are emitted. The semantics follow ajv (`strictNumbers`, code-point
 * string lengths, `u` regular expressions); a differential test holds them equal.
 */
export class ValidatorCompiler implements CheckContext {
  private readonly constants: string[] = [];
  private readonly patterns = new Map<string, string>();
  private readonly formatNames = new Map<string, string | null>();
  private readonly functionOf = new Map<string, string>();
  private readonly queue: string[] = [];
  private readonly functions: string[] = [];
  private locals = 0;
  private branches = 0;

  /**
   * @param definition - the schema of a key (undefined when unknown); `$ref` values have the form `#/definitions/<key>`
   * @param formats - regular expression per format name; `true` (or absent) means annotation only
   */
  constructor(
    private readonly definition: (key: string) => Json | boolean | undefined,
    private readonly formats: Readonly<Record<string, RegExp | true>>,
  ) {}

  /**
   * The module text: helpers, constants, check functions, then one
   * `export const <name> = wrap(...)`, marked pure, per entry of `exports` (export name -> definition key).
   */
  module(exports: ReadonlyMap<string, string>): string {
    // Marked pure, so that a bundler drops every validator an application does not name.
    const lines = [...exports].map(([name, key]) => `export const ${name} = /* @__PURE__ */ wrap(${this.reference(key)});\n`);
    for (let key = this.queue.shift(); key !== undefined; key = this.queue.shift()) {
      this.emitFunction(this.functionOf.get(key) as string, this.definition(key) as Json | boolean);
    }
    return `${RUNTIME_HELPERS}\n${this.constants.join("")}\n${this.functions.join("\n")}\n${lines.join("")}`;
  }

  local(prefix: string): string {
    this.locals += 1;
    return `${prefix}${this.locals}`;
  }

  pattern(source: string, flags?: string): string {
    const chosen = flags ?? patternFlags(source);
    // The loader refuses such a pattern with its pointer; reaching here is a bug.
    if (chosen === null) throw new Error(`validator emitter: invalid pattern ${JSON.stringify(source)}`);
    const id = `${chosen}/${source}`;
    let name = this.patterns.get(id);
    if (name === undefined) {
      name = this.declare(`new RegExp(${JSON.stringify(source)}, ${JSON.stringify(chosen)})`, "re");
      this.patterns.set(id, name);
    }
    return name;
  }

  format(name: string): string | null {
    if (!this.formatNames.has(name)) {
      const regex = this.formats[name];
      this.formatNames.set(name, regex instanceof RegExp ? this.pattern(regex.source, regex.flags) : null);
    }
    return this.formatNames.get(name) ?? null;
  }

  /** A module-level constant with the given initialiser; returns its name. */
  declare(expression: string, prefix = "c"): string {
    const name = `${prefix}${this.constants.length}`;
    this.constants.push(`const ${name} = ${expression};\n`);
    return name;
  }

  node(schema: unknown, v: string, path: string): string {
    if (schema === true) return "";
    if (schema === false || schema === null || typeof schema !== "object") return `${fail(path, "false schema", "boolean schema is false")}\n`;
    const s = schema as Json;
    for (const keyword of UNSUPPORTED) if (s[keyword] !== undefined) throw new Error(`validator emitter: "${keyword}" is not supported`);
    let out = "";
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (types.length > 0) {
      out += `if (!(${types.map((t) => typeCondition(t, v, path)).join(" || ")})) return type(${path}, ${JSON.stringify(types.join(","))});\n`;
    }
    const only = (...names: string[]) => types.length > 0 && types.every((t) => names.includes(t));
    const group = (keys: string[], guard: string, exact: boolean, body: () => string) => {
      if (!keys.some((key) => s[key] !== undefined)) return;
      const code = body();
      if (code !== "") out += exact ? code : `if (${guard}) {\n${code}}\n`;
    };
    group(STRING_KEYS, `typeof ${v} === "string"`, only("string"), () => stringChecks(s, v, path, this));
    group(NUMBER_KEYS, `typeof ${v} === "number"`, only("number", "integer"), () => numberChecks(s, v, path, this));
    group(OBJECT_KEYS, typeCondition("object", v, path), only("object"), () => objectChecks(s, v, path, this, (e) => this.declare(e)));
    group(ARRAY_KEYS, `Array.isArray(${v})`, only("array"), () => arrayChecks(s, v, path, this));
    return out + this.generic(s, v, path);
  }

  /** Keywords that apply to any type: enum, const, $ref, allOf, anyOf, oneOf, not, if/then/else. */
  private generic(s: Json, v: string, path: string): string {
    let out = "";
    if (Array.isArray(s.enum)) {
      const test = s.enum.map((value) => equals(v, value)).join(" || ") || "false";
      out += `if (!(${test})) return notIn(${path}, ${jsonLiteral(s.enum)});\n`;
    }
    if (s.const !== undefined) out += `if (!(${equals(v, s.const)})) ${fail(path, "const", "must be equal to constant", `{ allowedValue: ${jsonLiteral(s.const)} }`)}\n`;
    if (typeof s.$ref === "string") out += `if (!${this.reference(refKey(s.$ref))}(${v}, ${path})) return false;\n`;
    for (const sub of (s.allOf ?? []) as unknown[]) out += this.node(sub, v, path);
    if (Array.isArray(s.anyOf)) {
      const test = s.anyOf.map((sub) => this.predicate(sub, v, path)).join(" || ");
      out += `if (!(${test})) ${fail(path, "anyOf", "must match a schema in anyOf")}\n`;
    }
    if (Array.isArray(s.oneOf)) {
      const count = this.local("n");
      out += `let ${count} = 0;\n${s.oneOf.map((sub) => `if (${this.predicate(sub, v, path)}) ${count}++;\n`).join("")}`;
      out += `if (${count} !== 1) ${fail(path, "oneOf", "must match exactly one schema in oneOf", `{ passingSchemas: null }`)}\n`;
    }
    if (s.not !== undefined) out += `if (${this.predicate(s.not, v, path)}) ${fail(path, "not", "must NOT be valid")}\n`;
    if (s.if !== undefined && (s.then !== undefined || s.else !== undefined)) {
      // A failing then/else keeps the inner issue, which names the offending value.
      const then = s.then === undefined ? "" : `if (!${this.predicate(s.then, v, path)}) return false;\n`;
      const otherwise = s.else === undefined ? "" : ` else if (!${this.predicate(s.else, v, path)}) return false;\n`;
      out += `if (${this.predicate(s.if, v, path)}) {\n${then}}${otherwise === "" ? "\n" : otherwise}`;
    }
    return out;
  }

  /** A boolean expression "`v` matches `schema`", via a branch function unless the schema is trivial. */
  private predicate(schema: unknown, v: string, path: string): string {
    if (schema === true) return "true";
    const s = schema as Json;
    if (s !== null && typeof s === "object" && Object.keys(s).length === 1) {
      if (typeof s.$ref === "string") return `${this.reference(refKey(s.$ref))}(${v}, ${path})`;
      if (s.type === "null") return `(${v} === null)`;
    }
    this.branches += 1;
    const name = `b${this.branches}`;
    this.emitFunction(name, schema as Json | boolean);
    return `${name}(${v}, ${path})`;
  }

  /** The function name of a definition, queuing it for emission on first use. */
  private reference(key: string): string {
    let name = this.functionOf.get(key);
    if (name === undefined) {
      if (this.definition(key) === undefined) throw new Error(`validator emitter: no definition "${key}"`);
      name = `check_${key}`;
      this.functionOf.set(key, name);
      this.queue.push(key);
    }
    return name;
  }

  private emitFunction(name: string, schema: Json | boolean): void {
    this.functions.push(`function ${name}(d, p) {\n${this.node(schema, "d", "p")}return true;\n}\n`);
  }
}

function refKey(ref: string): string {
  const prefix = "#/definitions/";
  if (!ref.startsWith(prefix)) throw new Error(`validator emitter: unsupported $ref "${ref}"`);
  return ref.slice(prefix.length);
}

/** `v` equals a JSON value: `===` for scalars, structural equality otherwise. */
function equals(v: string, value: unknown): string {
  return value !== null && typeof value === "object" ? `eq(${v}, ${jsonLiteral(value)})` : `${v} === ${JSON.stringify(value)}`;
}

/**
 * A JSON value as a JavaScript expression that evaluates to it. JSON text is a
 * JavaScript literal except for a member named `__proto__`, which in an object
 * literal sets the prototype instead; a value holding one is parsed at load time.
 */
function jsonLiteral(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('"__proto__"') ? `JSON.parse(${JSON.stringify(json)})` : json;
}
