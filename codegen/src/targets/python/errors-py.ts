import type { ApiIr, ErrorCodeIr, ErrorDetailIr } from "../../ir/model.js";
import { pyBanner } from "./banner-py.js";
import { pyString } from "./literal.js";
import { isPlainIdentifier } from "./names-py.js";

/** The runtime's class an error status gets (powercontext_runtime.errors), which a contract class extends. */
export function pythonStatusClass(status: number): string {
  const named: Record<number, string> = {
    401: "UnauthorizedResponseError",
    403: "ForbiddenResponseError",
    404: "NotFoundError",
    409: "ConflictError",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
    503: "UnavailableResponseError",
  };
  return named[status] ?? (status >= 500 ? "InternalServerError" : "ServerResponseError");
}

/**
 * Members every error already has (the runtime's `ServerResponseError` and
 * `GuardedConflictError`): a detail of that name keeps only its place in `details`.
 */
const ERROR_MEMBERS = new Set([
  "code",
  "details",
  "request_id",
  "status_code",
  "server_message",
  "retry_after",
  "body",
  "args",
  "current",
  "outcome_unknown",
  "retry_budget_exhausted",
]);

/** A detail that becomes a read-only member: a plain lower-case Python identifier the error does not have already. */
function detailAttribute(name: string): boolean {
  return isPlainIdentifier(name) && /^[a-z]/.test(name) && !ERROR_MEMBERS.has(name);
}

function pythonType(detail: ErrorDetailIr): { annotation: string; check: string } {
  const type = detail.schema?.type;
  if (type === "integer")
    return { annotation: "int | None", check: "isinstance(value, int) and not isinstance(value, bool)" };
  if (type === "number")
    return { annotation: "float | None", check: "isinstance(value, int | float) and not isinstance(value, bool)" };
  if (type === "boolean") return { annotation: "bool | None", check: "isinstance(value, bool)" };
  if (type === "string") return { annotation: "str | None", check: "isinstance(value, str)" };
  return { annotation: "object | None", check: "value is not None" };
}

function detailProperty(detail: ErrorDetailIr): string {
  if (!detailAttribute(detail.name)) return "";
  const { annotation, check } = pythonType(detail);
  return `
    @property
    def ${detail.name}(self) -> ${annotation}:
        """The detail of that name, or None when the server did not send it (or sent another type)."""
        value = (self.details or {}).get(${pyString(detail.name)})
        return value if ${check} else None
`;
}

function contractClass(row: ErrorCodeIr & { className: string }, conflictCodes: ReadonlySet<string>): string {
  const base =
    row.status === 409 && conflictCodes.has(row.code) ? "GuardedConflictError" : pythonStatusClass(row.status);
  return `

class ${row.className}(${base}):
    """The contract error of the registry code in \`\`CODE\`\` (x-powercontext-error-codes), at HTTP \`\`STATUS\`\`."""

    CODE: ClassVar[str] = ${pyString(row.code)}
    STATUS: ClassVar[int] = ${row.status}
${row.details.map(detailProperty).join("")}`;
}

/**
 * Emits `errors.py`: one class per registry row that names one (`class`), extending the
 * runtime's class of its status (the reconcile conflict code's extends
 * `GuardedConflictError`), with a typed read-only member per detail; and
 * `CONTRACT_ERRORS`, code -> (status, class), which the runtime is given. Null for a spec
 * without such rows. docs/adr/0014-generated-contract-errors.md, for Python.
 */
export function emitPythonErrors(ir: ApiIr): string | null {
  const rows = ir.errorCodes.filter((row): row is ErrorCodeIr & { className: string } => row.className !== null);
  if (rows.length === 0) return null;
  const conflictCodes = new Set(
    ir.operations.flatMap((op) => (op.reconcile === null ? [] : [op.reconcile.conflictCode])),
  );
  const bases = [
    ...new Set(
      rows.map((row) =>
        row.status === 409 && conflictCodes.has(row.code) ? "GuardedConflictError" : pythonStatusClass(row.status),
      ),
    ),
  ].sort();
  return `${pyBanner(ir)}"""The contract errors of the spec's error-code registry, and \`\`CONTRACT_ERRORS\`\` for the runtime."""

from __future__ import annotations

from typing import ClassVar

from powercontext_runtime.errors import ${[...new Set([...bases, "ServerResponseError"])].sort().join(", ")}
${rows.map((row) => contractClass(row, conflictCodes)).join("")}

#: The classes by envelope code, each with the status it comes with.
CONTRACT_ERRORS: dict[str, tuple[int, type[ServerResponseError]]] = {
${rows.map((row) => `    ${pyString(row.code)}: (${row.status}, ${row.className}),\n`).join("")}}
`;
}
