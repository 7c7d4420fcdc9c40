import { LintError, SpecError, pointer } from "../../errors.js";
import type { ApiIr, OperationIr } from "../../ir/model.js";
import { isNameSource, quoted } from "../../ir/name-sources.js";

/**
 * The one way spec names become Python identifiers. Python reads identifiers
 * after NFKC normalisation (so `𝑒𝑥𝑒𝑐` is `exec`), which is why only names of
 * the strict ASCII pattern (`ir/name-sources.ts`) become identifiers, and why
 * a name that cannot become one is refused, never rewritten.
 */

/** Python's keywords: never an identifier. */
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/**
 * Names an imported model may not take in the generated modules, so it is
 * imported as `<Name>Model` (the class keeps its name): what the modules
 * define or import themselves, and the builtins they use.
 */
const MODULE_NAMES = new Set([
  "Operation",
  "AccessRequirement",
  "BaseModel",
  "JsonValue",
  "Generic",
  "Literal",
  "TypeVar",
  "RequestT",
  "ResponseT",
  "Any",
  "annotations",
  "AsyncExtension",
  "ReconcileExtension",
  "PaginationExtension",
  "OperationExtensions",
  "EXTENSIONS",
  "OPENAPI_VERSION",
  "API_TITLE",
  "API_DESCRIPTION",
  "API_VERSION",
  "FEATURE_CONTRACTS",
  "bool",
  "bytes",
  "dict",
  "float",
  "int",
  "list",
  "object",
  "str",
  "tuple",
  "type",
  "set",
  "frozenset",
]);

/**
 * The builtins `models.py` writes annotations with (`list[Item]`, `dict[str, Any]`, ...):
 * a model class of that name would replace them there.
 */
const ANNOTATION_BUILTINS = new Set([
  "bool",
  "bytes",
  "dict",
  "float",
  "int",
  "list",
  "object",
  "str",
  "tuple",
  "type",
  "set",
  "frozenset",
]);

/**
 * The one rule for the class name of a component schema's model: the schema name
 * itself (`keyof`, `match`, `Thing`), which the layer imports, when it is a
 * {@link isPlainIdentifier plain identifier} and no builtin `models.py` annotates
 * with. The model generator is told to keep these names (`pyClassNames`); a model
 * the layer imports under any other name is refused (`checkPythonNames`).
 */
export function keepsClassName(schemaName: string): boolean {
  return isPlainIdentifier(schemaName) && !ANNOTATION_BUILTINS.has(schemaName);
}

/** The component schemas whose model classes are named by their schema names ({@link keepsClassName}). */
export function pyClassNames(ir: ApiIr): string[] {
  return ir.schemas.map((schema) => schema.name).filter(keepsClassName);
}

/** `name` as a plain Python identifier: ASCII, not a keyword, not a dunder name. */
export function isPlainIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name) && !/^__.*__$/.test(name);
}

/**
 * The module constant of an operation in `operations.py`: the operationId
 * upper-cased with its words kept apart (the Python Client SDK's naming for its
 * snake_case ids: `flush_memory` -> `FLUSH_MEMORY`; `listPets` -> `LIST_PETS`,
 * `getHTTPStatus` -> `GET_HTTP_STATUS`), with `-` and `.` as `_`.
 */
export function pyConstantName(op: OperationIr): string {
  return op.operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[.-]/g, "_")
    .toUpperCase();
}

/** The local name of an imported model: its own, or `<Name>Model` where the module's own names would clash. */
export function pyModelName(schemaName: string): string {
  return MODULE_NAMES.has(schemaName) ? `${schemaName}Model` : schemaName;
}

/**
 * Refuses what cannot become a Python identifier of the generated layer, each
 * at its pointer: an operationId outside the strict pattern, two operationIds
 * with one constant, a constant that is a name of the module, and a model the
 * layer imports whose schema name is not a plain identifier (a keyword, a
 * dunder name, `.` or `-`).
 *
 * @param models - the schema names the layer imports
 * @throws {LintError} `invalid_name` or `name_collision`, one finding per name
 */
export function checkPythonNames(ir: ApiIr, models: ReadonlySet<string>): void {
  const errors: SpecError[] = [];
  const constants = new Map<string, OperationIr>();
  for (const op of ir.operations) {
    const at = { pointer: `${op.pointer}/operationId` };
    if (!isNameSource(op.operationId)) {
      errors.push(
        new SpecError("invalid_name", at, `operationId ${quoted(op.operationId)} cannot become a Python identifier`),
      );
      continue;
    }
    const constant = pyConstantName(op);
    const other = constants.get(constant);
    if (other !== undefined)
      errors.push(
        new SpecError(
          "name_collision",
          at,
          `operationIds "${other.operationId}" and "${op.operationId}" both become the Python constant ${constant}`,
        ),
      );
    else if (MODULE_NAMES.has(constant) || models.has(constant))
      errors.push(
        new SpecError(
          "name_collision",
          at,
          `operationId "${op.operationId}" becomes the Python constant ${constant}, a name operations.py already defines or imports`,
        ),
      );
    constants.set(constant, op);
  }
  for (const name of [...models].sort()) {
    if (!isPlainIdentifier(name)) {
      errors.push(
        new SpecError(
          "invalid_name",
          { pointer: pointer("components", "schemas", name) },
          `schema name ${quoted(name)} is imported by the Python layer and cannot become a Python identifier (a keyword, a dunder name, or not ASCII letters, digits and "_")`,
        ),
      );
    } else if (!keepsClassName(name)) {
      errors.push(
        new SpecError(
          "invalid_name",
          { pointer: pointer("components", "schemas", name) },
          `schema name ${quoted(name)} is imported by the Python layer and cannot name a model class: models.py annotates with the builtin ${name}`,
        ),
      );
    }
  }
  if (errors.length > 0) throw new LintError(errors);
}
