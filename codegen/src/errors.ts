/**
 * Errors raised while loading, checking and generating from an OpenAPI document.
 *
 * Every problem found in a spec is a {@link SpecError}: a stable `code`, the JSON
 * pointer (RFC 6901) of the offending node in the spec, and, for YAML syntax errors,
 * the 1-based line and column. The CLI maps any `SpecError` to exit code 2.
 */

/** Stable machine-readable codes for spec problems. */
export type SpecErrorCode =
  | "invalid_yaml"
  | "dangling_ref"
  | "external_ref"
  | "invalid_openapi"
  | "missing_operation_id"
  | "duplicate_operation_id"
  | "success_status"
  | "unsupported_media_type"
  | "missing_retry_class"
  | "unknown_retry_class"
  | "invalid_extension"
  | "error_envelope"
  | "request_id_header"
  | "name_collision"
  | "unsupported_parameter"
  | "circular_ref"
  | "too_deep"
  | "too_large"
  | "invalid_pattern"
  | "reserved_name"
  | "invalid_name";

/** Location details attached to a spec error. */
export interface SpecErrorLocation {
  /** JSON pointer into the spec, e.g. `/paths/~1v1~1stats/get/operationId`; `""` is the root. */
  readonly pointer: string;
  /** 1-based line in the source file (YAML syntax errors only). */
  readonly line?: number;
  /** 1-based column in the source file (YAML syntax errors only). */
  readonly column?: number;
}

/**
 * One problem in a spec. The message always starts with the JSON pointer (and the
 * line/column when known) so that a log line alone locates the problem.
 */
export class SpecError extends Error {
  readonly code: SpecErrorCode;
  readonly pointer: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** The problem description without the location prefix. */
  readonly detail: string;

  constructor(code: SpecErrorCode, location: SpecErrorLocation, detail: string) {
    const where =
      location.line === undefined
        ? `#${location.pointer}`
        : `#${location.pointer} (line ${location.line}, column ${location.column ?? 1})`;
    super(`${where}: ${detail}`);
    this.name = "SpecError";
    this.code = code;
    this.pointer = location.pointer;
    this.line = location.line;
    this.column = location.column;
    this.detail = detail;
  }
}

/** The file is not well-formed YAML (or JSON); carries line and column. */
export class YamlSyntaxError extends SpecError {
  constructor(location: SpecErrorLocation, detail: string) {
    super("invalid_yaml", location, detail);
    this.name = "YamlSyntaxError";
  }
}

/**
 * A `$ref` points nowhere, outside the document (external refs are not supported,
 * see docs/adr/0006-internal-refs-only.md), or into a cycle of references.
 */
export class RefError extends SpecError {
  constructor(code: "dangling_ref" | "external_ref" | "circular_ref", location: SpecErrorLocation, detail: string) {
    super(code, location, detail);
    this.name = "RefError";
  }
}

/** The document does not conform to the OpenAPI 3.0 JSON schema. */
export class OpenApiSchemaError extends SpecError {
  constructor(location: SpecErrorLocation, detail: string) {
    super("invalid_openapi", location, detail);
    this.name = "OpenApiSchemaError";
  }
}

/**
 * Several problems found by one stage, reported together so that a spec can be
 * fixed in one pass. `issues` lists each problem; the message lists them all, one
 * per line; `code` and `pointer` are the first problem's.
 */
export class SpecErrorList extends SpecError {
  readonly issues: readonly SpecError[];

  constructor(issues: readonly SpecError[]) {
    const first = issues[0];
    if (first === undefined) throw new TypeError(`${new.target.name} needs at least one issue`);
    super(first.code, first, issues.length === 1 ? first.detail : `${issues.length} problems`);
    this.message = issues.map((issue) => issue.message).join("\n");
    this.name = "SpecErrorList";
    this.issues = issues;
  }
}

/**
 * One or more of the generator's own rules failed (operationIds, statuses, media
 * types, vendor extensions, error envelope, request id header).
 */
export class LintError extends SpecErrorList {
  constructor(issues: readonly SpecError[]) {
    super(issues);
    this.name = "LintError";
  }
}

/** Bad command-line usage (unknown option, missing spec file). Exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * The output cannot be written where it was asked for: the folder holds files the
 * generator did not write, a part of its path is a file, or the file system
 * refused a write (its code in the message). Nothing was written or deleted. Exit code 2.
 */
export class OutputError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "OutputError";
  }
}

/** `--check` found generated files that differ from what the spec produces. Exit code 1. */
export class DriftError extends Error {
  /** Relative paths (forward slashes) with the kind of drift for each. */
  readonly drift: readonly { path: string; kind: "modified" | "missing" | "extra" }[];

  constructor(drift: readonly { path: string; kind: "modified" | "missing" | "extra" }[]) {
    super(
      `generated files are out of date with the spec:\n` +
        drift.map((d) => `  ${d.kind}: ${d.path}`).join("\n") +
        `\nregenerate (the same command without --check; in this repository \`npm run generate\`) and commit the result`,
    );
    this.name = "DriftError";
    this.drift = drift;
  }
}

/** Escapes one JSON pointer segment (RFC 6901: `~` -> `~0`, `/` -> `~1`). */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds a JSON pointer from raw (unescaped) segments. */
export function pointer(...segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${pointerSegment(s)}`).join("");
}
