import type { Json } from "../../domain/types.js";
import type { ApiIr, ErrorCodeIr, ErrorDetailIr } from "../../ir/model.js";
import { docComment, docLine, propertyKey, tsString } from "../../emit/ts/syntax.js";
import { retryStopCodes } from "../../ir/error-codes.js";
import { banner } from "../../emit/banner.js";

/**
 * Emits `error-codes.ts`: the spec's `x-powercontext-error-codes` as the
 * `errorCodes` table (code -> status, transient); `retryStopCodes`, the rows of
 * it that stop a retry, which every descriptor points at (so a bundle carries
 * those few rows once, and the whole table only when the app reads it); the `ErrorCode` union; `ErrorDetails`, the
 * typed `error.details` of each code; `DeclaredErrorCodes` and `DeclaredErrorOf`,
 * the codes each operation declares (`x-powercontext-errors`) as types and as
 * data (`declaredErrorCodes`); and `hasErrorCode`, the type guard that narrows
 * a `ServerResponseError` to one code with its details (the runtime's
 * `hasServerErrorCode` does the checking).
 */
export function emitErrorCodes(ir: ApiIr): string {
  const runtime = tsString(ir.names.runtimePackage);
  let out = banner(ir);
  out += `import { hasServerErrorCode, type ErrorCodeInfo, type ErrorCodeTable, type ServerResponseError } from ${runtime};\n\n`;
  out += `/** An error code of the spec. */\nexport type ErrorCode =${ir.errorCodes.map((row) => `\n  | ${tsString(row.code)}`).join("")};\n\n`;
  const row = (entry: ErrorCodeIr) =>
    `  ${propertyKey(entry.code)}: { status: ${entry.status}, transient: ${entry.transient} },\n`;
  out += `/**\n * Every error code of the spec (\`x-powercontext-error-codes\`) with the status it\n * arrives with and whether a wait can cure it.\n */\n`;
  out += `export const errorCodes: { readonly [C in ErrorCode]: ErrorCodeInfo } = {\n${ir.errorCodes.map(row).join("")}};\n\n`;
  out += `/**\n * The codes that stop a retry: not transient, and of a status a client may retry\n * (429 or 5xx). The retry policy never re-sends an answer with one of them; every\n * descriptor points at this table.\n */\n`;
  out += `export const retryStopCodes: ErrorCodeTable = {\n${retryStopCodes(ir.errorCodes).map(row).join("")}};\n\n`;
  out += `/**\n * \`error.details\` per error code, with the members the spec declares for it\n * (as the server sends them: the envelope does not check them).\n */\nexport interface ErrorDetails {\n`;
  for (const row of ir.errorCodes)
    out += `${docLine(`Details of \`${row.status} ${row.code}\`.`, "  ")}  ${propertyKey(row.code)}: ${detailsType(row)};\n`;
  out += `}\n\n`;
  out += `/**\n * A server error narrowed to one error code (a union of codes gives a union of errors): a code of\n * the spec with its typed \`details\`, any other code with \`details\` of unknown shape.\n */\nexport type CodedServerError<C extends string> = C extends ErrorCode\n  ? Omit<ServerResponseError, "code" | "details"> & {\n      /** The envelope's code. */\n      readonly code: C;\n      /** The envelope's details, typed for the code. */\n      readonly details: ErrorDetails[C] | null;\n    }\n  : Omit<ServerResponseError, "code" | "details"> & {\n      /** The envelope's code. */\n      readonly code: C;\n      /** The envelope's details: the spec does not know this code. */\n      readonly details: unknown;\n    };\n\n`;
  const declaring = ir.operations.filter((op) => op.errorCodes.length > 0);
  out += `/** The error codes each operation declares, by status (\`x-powercontext-errors\`); operations that declare none are absent. */\nexport interface DeclaredErrorCodes {\n`;
  for (const op of declaring) {
    out += `${docLine(`Codes \`${op.operationId}\` is known to answer.`, "  ")}  ${propertyKey(op.operationId)}: {\n${op.errorCodes.map((entry) => `    /** Codes of a ${entry.status} answer. */\n    readonly ${entry.status}: ${entry.codes.map(tsString).join(" | ")};\n`).join("")}  };\n`;
  }
  out += `}\n\n`;
  out += `/** {@link DeclaredErrorCodes} as data, for the SDK's \`isErrorOf\`. */\nexport const declaredErrorCodes: { readonly [K in keyof DeclaredErrorCodes]: { readonly [S in keyof DeclaredErrorCodes[K]]: readonly DeclaredErrorCodes[K][S][] } } = {\n`;
  for (const op of declaring)
    out += `  ${propertyKey(op.operationId)}: { ${op.errorCodes.map((entry) => `${entry.status}: [${entry.codes.map(tsString).join(", ")}]`).join(", ")} },\n`;
  out += `};\n\n`;
  out += `/** The declared contract errors of operation \`K\`: one {@link CodedServerError} per declared code, with its status. */\nexport type DeclaredErrorOf<K extends keyof DeclaredErrorCodes> = {\n  [S in keyof DeclaredErrorCodes[K]]: CodedServerError<DeclaredErrorCodes[K][S] & ErrorCode> & {\n    /** The status the code arrives with. */\n    readonly statusCode: S;\n  };\n}[keyof DeclaredErrorCodes[K]];\n\n`;
  out += docComment([
    "True when `error` is a server error with envelope code `code`: a code of the spec arriving with the status",
    "the spec gives it (narrowing `details` to that code's members), or any other code at any status (its",
    "`details` then of unknown shape, as for a code a newer server sends).",
    "",
    "```ts",
    `if (hasErrorCode(error, ${tsString(ir.errorCodes.find((row) => row.details.length > 0)?.code ?? ir.errorCodes[0]?.code ?? "code")})) console.log(error.details);`,
    "```",
  ]);
  out += `export function hasErrorCode<C extends ErrorCode | (string & {})>(error: unknown, code: C): error is CodedServerError<C> {\n  return hasServerErrorCode(error, code, errorCodes);\n}\n`;
  return out;
}

/** The TypeScript type of `details` for one code: its declared members, optional, plus any other member. */
function detailsType(row: ErrorCodeIr): string {
  if (row.details.length === 0) return "{ readonly [member: string]: unknown }";
  const members = row.details
    .map(
      (member) =>
        `${docLine(`\`details.${member.name}\`.`, "    ")}    readonly ${propertyKey(member.name)}?: ${memberType(member)};\n`,
    )
    .join("");
  return `{\n${members}    readonly [member: string]: unknown;\n  }`;
}

/** A detail member's type from its schema: string, number, boolean (enums as literal unions), else unknown. */
export function memberType(member: ErrorDetailIr): string {
  const schema = member.schema;
  if (schema === null) return "unknown";
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string"))
    return (schema.enum as string[]).map(tsString).join(" | ");
  return JSON_TYPES[String((schema as Json).type)] ?? "unknown";
}

const JSON_TYPES: Record<string, string> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
};
