// The contract's own judgement of a request: ajv over the contract's schemas, converted
// to JSON Schema by the code generator's converter (the meaning the generated validators
// give OpenAPI 3.0), with three readings of how the release's models validate:
//
// - a numeric `exclusiveMinimum`/`exclusiveMaximum` (JSON Schema's spelling, which the
//   release writes beside `minimum`) is a bound, like OpenAPI 3.0's boolean one;
// - `oneOf` without a discriminator holds when any alternative holds (the models'
//   unions take the first alternative that validates, they do not require exactly one);
// - a discriminator without a mapping names no values of its own: the alternatives'
//   own enums decide.
//
// Used by the instrument's tests (valid requests pass, faulted ones fail at their
// fault) and by each run, which counts drawn valid requests the contract refuses.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { toJsonSchema } from "../../../codegen/src/ir/json-schema.js";
import { type Contract, isObject, type Schema } from "../../../packages/msw/src/verify/random/contract.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const CONTRACT_ID = "random-contract";

/** The document with the three readings above applied (a copy; the contract is not changed). */
function normalise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalise);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = normalise(value);
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    const limit = out[exclusive];
    if (typeof limit !== "number") continue;
    const current = out[bound];
    const tighter = typeof current !== "number" || (bound === "minimum" ? limit >= current : limit <= current);
    if (tighter) {
      out[bound] = limit;
      out[exclusive] = true;
    } else delete out[exclusive];
  }
  const discriminator = out.discriminator;
  const mapped = isObject(discriminator) && isObject(discriminator.mapping);
  if (Array.isArray(out.oneOf) && !mapped) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (!mapped) delete out.discriminator;
  return out;
}

/** A validator of whole requests (parameters by name, and the body) against a contract. */
export class RequestValidator {
  readonly #ajv = new Ajv({ strict: false, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #document: Schema;

  constructor(private readonly contract: Contract) {
    this.#document = normalise(contract.document) as Schema;
    addFormats(this.#ajv);
    const schemas = isObject(this.#document.components) ? this.#document.components.schemas : {};
    const definitions = Object.fromEntries(
      Object.entries(isObject(schemas) ? schemas : {}).map(([name, schema]) => [name, this.convert(schema)]),
    );
    this.#ajv.addSchema({ $id: CONTRACT_ID, definitions });
  }

  private convert(schema: unknown): unknown {
    const lookup = (ref: string) => {
      let node: unknown = this.#document;
      for (const raw of ref.slice(2).split("/"))
        node = isObject(node) ? node[raw.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      return node;
    };
    return toJsonSchema(schema, "request", (name) => `${CONTRACT_ID}#/definitions/${name}`, lookup);
  }

  private compiled(operationId: string): ValidateFunction {
    const found = this.#compiled.get(operationId);
    if (found) return found;
    const operation = this.contract.operations.find((o) => o.operationId === operationId);
    if (operation === undefined) throw new Error(`no operation ${operationId} in the contract`);
    const params = {
      type: "object",
      properties: Object.fromEntries(operation.parameters.map((p) => [p.name, this.convert(normalise(p.schema))])),
      required: operation.parameters.filter((p) => p.required).map((p) => p.name),
    };
    const schema = {
      type: "object",
      properties: {
        params,
        ...(operation.body === null ? {} : { body: this.convert(normalise(operation.body)) }),
      },
      required: operation.body === null ? ["params"] : ["params", "body"],
    };
    const validate = this.#ajv.compile(schema);
    this.#compiled.set(operationId, validate);
    return validate;
  }

  /**
   * The contract's objections to a request whose ids are resolved, with instance paths
   * starting `/params/<name>` or `/body`. Empty when the contract accepts it.
   *
   * @throws {Error} for an operation the contract does not have
   */
  errors(operationId: string, params: Record<string, unknown>, body: unknown): ErrorObject[] {
    const validate = this.compiled(operationId);
    const input = body === undefined ? { params } : { params, body };
    return validate(input) ? [] : [...(validate.errors ?? [])];
  }
}
