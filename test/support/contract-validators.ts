// Response-body validators for our contract (openapi.yaml), shared by the mock
// simulator's contract checks and the checks against the released server.
//
// The spec is loaded, checked and reference-resolved by the code generator, and every
// schema goes through the generator's OpenAPI 3.0 -> JSON Schema conversion, so
// `nullable` and the other OpenAPI-only keywords mean here what they mean in the
// generated validators.
import type { Json, RefLookup } from "../../codegen/src/domain/types.js";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { pointer } from "../../codegen/src/errors.js";
import { toJsonSchema } from "../../codegen/src/ir/json-schema.js";
import { loadSpec } from "../../codegen/src/load/load-spec.js";
import { deref, walkOperations, type RawOperation } from "../../codegen/src/load/walk-operations.js";

/** The repository's contract. */
export const CONTRACT_PATH = fileURLToPath(new URL("../../openapi.yaml", import.meta.url));

/** An operation named by its `operationId`, or by its path template and HTTP method (any case). */
export type OperationKey = string | { readonly path: string; readonly method: string };

/** One response an operation declares. */
export interface DeclaredResponse {
  /** The Response Object, `$ref` followed. */
  readonly object: Json;
  /** Validates the `application/json` body; null when the response declares no JSON body. */
  readonly validate: ValidateFunction | null;
}

/** The loaded contract with lazily compiled validators. */
export interface ContractValidators {
  /** The parsed document, references kept. */
  readonly document: Json;
  /** Target of any local `$ref` of the document. */
  readonly lookup: RefLookup;
  /** The ajv instance the validators belong to (for `errorsText`). */
  readonly ajv: Ajv;
  /** The operation, or undefined when the document has none under `key`. */
  operation(key: OperationKey): RawOperation | undefined;
  /**
   * The response the operation declares for `status`; undefined when the operation
   * is unknown or does not declare that status.
   */
  response(key: OperationKey, status: number): DeclaredResponse | undefined;
  /**
   * Validator of the component schema `name` (`#/components/schemas/<name>`), as a response body.
   * @throws {Error} when the document has no such component
   */
  schema(name: string): ValidateFunction;
}

/** The id under which the converted component schemas are registered with ajv. */
const CONTRACT_ID = "contract";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Loads an OpenAPI 3.0 document with the generator's loader and prepares ajv
 * validators for its response bodies: the component schemas are converted once (as
 * response schemas, `nullable` and the other OpenAPI-only keywords turned into JSON
 * Schema by `toJsonSchema`), and each (operation, status) body schema is compiled on
 * first use.
 *
 * @param specPath - the document to load; the repository's openapi.yaml by default
 * @throws when the document fails the generator's checks (see `loadSpec`)
 */
export async function loadContractValidators(specPath: string = CONTRACT_PATH): Promise<ContractValidators> {
  const { document, lookup } = await loadSpec(specPath);
  const refTo = (name: string) => `${CONTRACT_ID}#${pointer("definitions", name)}`;
  const convert = (schema: unknown) => toJsonSchema(schema, "response", refTo, lookup);

  const components = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  const definitions = Object.fromEntries(Object.entries(components).map(([name, schema]) => [name, convert(schema)]));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: CONTRACT_ID, definitions });

  const byId = new Map<string, RawOperation>();
  const byRoute = new Map<string, RawOperation>();
  for (const found of walkOperations(document, lookup)) {
    byRoute.set(routeKey(found.path, found.method), found);
    if (typeof found.operation.operationId === "string") byId.set(found.operation.operationId, found);
  }
  const operation = (key: OperationKey) =>
    typeof key === "string" ? byId.get(key) : byRoute.get(routeKey(key.path, key.method));

  const responses = new Map<string, DeclaredResponse | undefined>();
  const response = (key: OperationKey, status: number): DeclaredResponse | undefined => {
    const found = operation(key);
    if (found === undefined) return undefined;
    const cacheKey = `${found.pointer} ${status}`;
    if (!responses.has(cacheKey)) {
      const declared = (found.operation.responses as Json | undefined)?.[String(status)];
      const object = declared === undefined ? undefined : (deref(declared, lookup) as Json);
      const schema = ((object?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema;
      responses.set(
        cacheKey,
        object && { object, validate: schema === undefined ? null : ajv.compile(convert(schema)) },
      );
    }
    return responses.get(cacheKey);
  };

  const schema = (name: string): ValidateFunction => {
    if (!(name in definitions)) throw new Error(`no component schema ${name}`);
    return ajv.getSchema(refTo(name)) as ValidateFunction;
  };

  return { document, lookup, ajv, operation, response, schema };
}

function routeKey(path: string, method: string): string {
  return `${method.toUpperCase()} ${path}`;
}
