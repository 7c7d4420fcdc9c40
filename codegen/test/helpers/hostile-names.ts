import { Random } from "./schema-samples.js";
import { minimalSpec, type Json } from "./minimal-spec.js";

/** What a payload does when it runs: JavaScript sets `globalThis.PWNED`, Python `builtins.PWNED`. */
export const JS_RUN = "globalThis.PWNED=1";
export const PY_RUN = "__import__('builtins').__setattr__('PWNED',1)";

/**
 * Pieces of text that end, or step out of, a string literal, a comment or a
 * docstring in TypeScript, JavaScript or Python, each followed by code that
 * would run if it did.
 */
export const FRAGMENTS: readonly string[] = [
  `*/${JS_RUN};/*`,
  `*/\n${JS_RUN};\n/*`,
  `"+(${JS_RUN})+"`,
  `'+(${JS_RUN})+'`,
  `\`+(${JS_RUN})+\``,
  "\\",
  '\\"',
  `\n${JS_RUN};//`,
  `\r${JS_RUN};//`,
  `\u2028${JS_RUN};//`,
  `\u2029${JS_RUN};//`,
  `"""\n${PY_RUN}\n"""`,
  `'''\n${PY_RUN}\n'''`,
  `\n${PY_RUN}\n#`,
  `\\\n${PY_RUN}`,
  "</script>",
  "\u202e\u2066",
  "\u0000\u001b[2J",
  "__proto__",
  "constructor",
  "then",
];

/** Names that are words of the output languages (keywords, builtins, object members) yet match the strict name pattern. */
export const WORD_IDS: readonly string[] = [
  "class",
  "import",
  "None",
  "True",
  "__init__",
  "delete",
  "yield",
  "eval",
  "exec",
  "default",
  "static",
  "get",
  "async",
  "await",
  "prototype",
  "print",
  "globals",
];

/**
 * NFKC look-alikes: Python reads `𝑒𝑥𝑒𝑐` (mathematical italic) and `ｅｖａｌ` (full
 * width) as `exec` and `eval`, and `ﬁ` as `fi`. None matches the strict pattern.
 */
export const LOOK_ALIKES: readonly string[] = [
  'x=\u{1d452}\u{1d465}\u{1d452}\u{1d450}("1");y',
  "\uff45\uff56\uff41\uff4c",
  "\u{1d5e3}\u{1d5e5}\u{1d5ea}\u{1d5fb}\u{1d5f2}",
  "\ufb01le",
  "None\u00a0",
  "K\u212a",
];

/** A string of one to three fragments around a word, chosen by `random`. */
export function hostileText(random: Random, word = "x"): string {
  const count = 1 + random.int(3);
  return Array.from({ length: count }, () => random.pick(FRAGMENTS)).join(word);
}

/** Sets an own member, also one named `__proto__` (an assignment would set the prototype instead). */
function put(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `text` with the characters an OpenAPI path template gives meaning to (`{`, `}`, `/`) and URL escapes replaced. */
function pathSafe(text: string): string {
  return text.replace(/[{}/%?#]/g, "_");
}

/**
 * A spec that passes the strict profile with hostile text in every place a
 * string from the spec reaches the output: titles, descriptions, summaries,
 * tags, paths, parameter and property names, enum values, defaults,
 * examples, error codes and their details, access rules, pagination fields,
 * response headers, schema names that are words of the output languages, and
 * operationIds that are such words (the strict name pattern admits them).
 */
export function hostileSpec(seed: number): Json {
  const random = new Random(seed);
  const text = (word = "x") => hostileText(random, word);
  const spec = minimalSpec();
  spec.info = { title: text(), description: text(), version: text() };
  const op = spec.paths["/v1/things"].post as Json;
  const itemsField = `items${text()}`;
  const nextField = `next${text()}`;
  const cursor = `cursor${text()}`;
  const code = `code${text()}`;
  const detail = `detail${text()}`;
  Object.assign(op, {
    summary: text(),
    description: text(),
    tags: [text(), text()],
    parameters: [
      { name: `q${text()}`, in: "query", description: text(), schema: { type: "string", enum: [text(), text()] } },
      { name: cursor, in: "query", schema: { type: "string" } },
      { name: `c${text()}`, in: "cookie", schema: { type: "integer" } },
    ],
    "x-powercontext-access": { action: text(), resource: { type: "scope", "scope-id-from": text() } },
    "x-powercontext-pagination": { cursor_parameter: cursor, next_cursor_field: nextField, items_field: itemsField },
    "x-powercontext-errors": { "409": [code] },
  });
  const header = { "X-PowerContext-Request-ID": { schema: { type: "string" } } };
  op.responses["200"].description = text();
  op.responses["409"] = {
    description: text(),
    headers: header,
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
  };
  spec["x-powercontext-error-codes"] = {
    [code]: {
      status: 409,
      transient: false,
      class: "HostileConflictError",
      details: { [detail]: { type: "string", enum: [text(), text()] }, other: { type: "integer" } },
    },
  };
  const wordSchemas = ["class", "None", "__proto__", "constructor", "then", "__init__", "toString", "def"];
  spec.components.schemas.Thing = {
    type: "object",
    title: text(),
    description: text(),
    properties: {
      scope_id: { type: "string", description: text() },
      [itemsField]: { type: "array", items: { $ref: "#/components/schemas/class" } },
      [nextField]: { type: "string", nullable: true, example: text() },
      [text("p")]: { type: "string", enum: [text(), text()], description: text(), default: text() },
      [text("q")]: { type: "object", additionalProperties: { type: "string", description: text() } },
      __proto__words: {
        type: "object",
        properties: Object.fromEntries(wordSchemas.map((name) => [name, { $ref: `#/components/schemas/${name}` }])),
      },
    },
    example: { scope_id: text() },
  };
  for (const name of wordSchemas) {
    put(spec.components.schemas, name, {
      type: "object",
      description: text(),
      properties: { [text("m")]: { type: "string", enum: [text()] } },
    });
  }
  for (const [index, id] of WORD_IDS.entries()) {
    spec.paths[`/v1/words/${index}/${pathSafe(text())}`] = {
      get: {
        operationId: id,
        summary: text(),
        description: text(),
        "x-powercontext-retry-class": "safe",
        responses: {
          "200": { description: text(), headers: header, content: { "text/plain": { schema: { type: "string" } } } },
        },
      },
    };
  }
  return spec;
}
