import { SpecError } from "../../errors.js";
import type { ApiIr, ErrorCodeIr, ErrorDetailIr } from "../../ir/model.js";
import { camelCase } from "../../ir/naming.js";
import { docComment, docLine, propertyKey, tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";
import { memberType } from "./error-codes.js";

/**
 * The runtime's class for each status, as its `serverErrorsByStatus` picks it
 * (any other 5xx is `InternalServerError`, any other status `ServerResponseError`);
 * a generated contract class extends the class its status would get, so that
 * `instanceof ConflictError` keeps holding for a `409` with a contract code.
 */
const STATUS_CLASSES: Record<number, string> = {
  401: "AuthenticationError",
  403: "PermissionDeniedError",
  404: "NotFoundError",
  409: "ConflictError",
  422: "UnprocessableEntityError",
  429: "RateLimitError",
  503: "ServiceUnavailableError",
};

/** The runtime class a generated conflict class of a reconcile conflict code extends. */
const GUARDED_BASE = "GuardedConflictError";

/** Members of `ServerResponseError` (and its bases) that a detail accessor must not shadow. */
const TAKEN = new Set([
  "name",
  "message",
  "stack",
  "cause",
  "code",
  "requestId",
  "retryBudgetExhausted",
  "statusCode",
  "serverMessage",
  "details",
  "retryAfterMs",
  "body",
  "current",
  "outcomeUnknown",
  "withUnknownOutcome",
  "constructor",
]);

/** The base class of a contract class: the guarded-conflict class for a reconcile conflict code, else the status class. */
export function baseClassOf(row: ErrorCodeIr, conflictCodes: ReadonlySet<string>): string {
  if (conflictCodes.has(row.code)) {
    if (row.status !== 409)
      throw new SpecError(
        "invalid_extension",
        { pointer: `${row.pointer}/status` },
        `error code "${row.code}" is a reconcile conflict code, so its status must be 409`,
      );
    return GUARDED_BASE;
  }
  return STATUS_CLASSES[row.status] ?? (row.status >= 500 ? "InternalServerError" : "ServerResponseError");
}

/**
 * Emits `contract-errors.ts`: one error class per registry code that names a
 * `class` (docs/adr/0014-generated-contract-errors.md), each branded like the
 * runtime's classes so `instanceof` works across installed copies, with
 * `details` typed for its code and one checked camelCase member per declared
 * detail (null when absent or of another type); `contractErrorsByCode`, the
 * table the runtime raises them from; and `createServerResponseError`.
 *
 * @throws {SpecError} `name_collision` when a detail member's camelCase name is a member every server error has;
 *   `invalid_extension` when a reconcile conflict code has no class, or is not a 409
 */
export function emitContractErrors(ir: ApiIr): string {
  const conflictCodes = new Set(
    ir.operations.flatMap((op) => (op.reconcile === null ? [] : [op.reconcile.conflictCode])),
  );
  for (const op of ir.operations) {
    const code = op.reconcile?.conflictCode;
    if (code === undefined) continue;
    if (!ir.errorCodes.some((row) => row.code === code && row.className !== null)) {
      throw new SpecError(
        "invalid_extension",
        { pointer: `${op.pointer}/x-powercontext-reconcile` },
        `conflict code "${code}" needs a row with a class in x-powercontext-error-codes, or the conflict could never be reconciled`,
      );
    }
  }
  const rows = ir.errorCodes.filter((row) => row.className !== null);
  const bases = [...new Set(rows.map((row) => baseClassOf(row, conflictCodes)))].sort();
  const runtime = tsString(ir.names.runtimePackage);
  let out = banner(ir);
  const helpers = rows.some((row) => row.details.length > 0) ? ["detailMember"] : [];
  out += `import { ${[...bases, ...helpers, "errorBrand", "serverResponseError"].join(", ")}, type ContractErrorTable, type ServerErrorInit, type ServerResponseError } from ${runtime};\n`;
  if (rows.length > 0) out += `import type { ErrorDetails } from "./error-codes.js";\n`;
  out += `\n`;
  for (const row of rows) out += contractClass(row, baseClassOf(row, conflictCodes));
  out += `/** The contract error classes by envelope code, each with the status it must arrive with (pass it to \`createCaller\`'s \`contractErrors\`). */\n`;
  out += `export const contractErrorsByCode: ContractErrorTable = {\n${rows.map((row) => `  ${propertyKey(row.code)}: { status: ${row.status}, errorClass: ${row.className} },\n`).join("")}};\n\n`;
  out += docComment([
    "The error for a non-success response with this spec's contract error classes:",
    "the contract class when the envelope code and its status match, else the status class.",
  ]);
  out += `export function createServerResponseError(init: ServerErrorInit): ServerResponseError {\n  return serverResponseError(init, contractErrorsByCode);\n}\n`;
  return out;
}

function contractClass(row: ErrorCodeIr, base: string): string {
  const name = row.className as string;
  const code = tsString(row.code);
  const lines = [
    `\`${row.status} ${row.code}\` (${row.transient ? "transient" : "not transient"}), a contract error code of the spec.`,
    ...(row.details.length > 0
      ? [`Its \`details\` may carry ${row.details.map((d) => `\`${d.name}\``).join(", ")}.`]
      : []),
  ];
  let out = docComment(lines);
  out += `export class ${name} extends ${base} {\n`;
  out += `  static override get brand(): symbol {\n    return errorBrand(${tsString(name)});\n  }\n`;
  out += `  override name = ${tsString(name)};\n`;
  out += `${docLine(`The envelope code: always ${code}.`, "  ")}  declare readonly code: ${code};\n`;
  out += `${docLine(`\`error.details\` as the server sent it, typed for ${code}.`, "  ")}  declare readonly details: ErrorDetails[${code}] | null;\n`;
  const accessors = row.details.map((detail) => accessor(row, detail));
  for (const a of accessors)
    out += `${docLine(`\`details.${a.detail.name}\` when it is ${a.jsonType === null ? "present" : `a${/^[aeiou]/.test(a.jsonType) ? "n" : ""} ${a.jsonType}`}, else null.`, "  ")}  declare readonly ${a.property}: ${a.type} | null;\n`;
  if (accessors.length > 0) {
    out += `  constructor(init: ServerErrorInit) {\n    super(init);\n`;
    for (const a of accessors) {
      out +=
        a.jsonType === null
          ? `    this.${a.property} = init.details?.[${tsString(a.detail.name)}] ?? null;\n`
          : `    this.${a.property} = detailMember<${a.type}>(init.details, ${tsString(a.detail.name)}, ${tsString(a.jsonType)});\n`;
    }
    out += `  }\n`;
  }
  out += `}\n\n`;
  return out;
}

interface Accessor {
  readonly detail: ErrorDetailIr;
  readonly property: string;
  readonly type: string;
  readonly jsonType: "string" | "integer" | "number" | "boolean" | null;
}

function accessor(row: ErrorCodeIr, detail: ErrorDetailIr): Accessor {
  const property = camelCase(detail.name);
  if (TAKEN.has(property)) {
    throw new SpecError(
      "name_collision",
      { pointer: `${row.pointer}/details` },
      `detail "${detail.name}" of error code "${row.code}" becomes member ${property}, which every server error already has`,
    );
  }
  const declared = detail.schema?.type;
  const jsonType =
    declared === "string" || declared === "integer" || declared === "number" || declared === "boolean"
      ? declared
      : null;
  return { detail, property, type: memberType(detail), jsonType };
}
