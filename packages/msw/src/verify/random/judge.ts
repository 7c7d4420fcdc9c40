// The verdict on one random request: do the two answers agree on status, on the error
// code, and (both 2xx) on the body's member paths?
//
// - The code of an error answer is the envelope's `error.code`; a body that is no
//   envelope gets a marker instead: `{detail}` for the framework's own `{"detail": ...}`
//   (routing misses, 405s), `<json>` for other JSON, `<text/html>` and the like for
//   other media, `<empty>` for none. A 2xx has no code.
// - Member paths: every member of the body, recursively, with its JSON type
//   (`/items[]/scope_id:string`); an array contributes the union of its items' paths.
//   `null` is a type of its own, all numbers are one type. Two 2xx answers agree when
//   their sets are equal.

/** What a server answered, as the judge sees it. */
export interface Answer {
  readonly status: number;
  /** content type without parameters, lower case, or null */
  readonly contentType: string | null;
  /** the parsed JSON body, the text of another body, or null for none */
  readonly body: unknown;
  readonly headers: Headers;
}

/** An answer's error code, or a marker for an error body that is not an envelope; null for a success. */
export function codeOf(answer: Pick<Answer, "status" | "body" | "contentType">): string | null {
  if (answer.status < 400) return null;
  const body = answer.body;
  if (body === null || body === "") return "<empty>";
  if (typeof body === "object" && !Array.isArray(body)) {
    const error = (body as { error?: { code?: unknown } }).error;
    if (typeof error?.code === "string") return error.code;
    if ("detail" in body) return "{detail}";
  }
  return answer.contentType === "application/json" ? "<json>" : `<${answer.contentType ?? "no media type"}>`;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The body's member paths with their JSON types, sorted. */
export function memberPaths(body: unknown, contentType: string | null): string[] {
  if (typeof body === "string" && contentType !== "application/json") return [`<${contentType ?? "text"}>`];
  const paths = new Set<string>();
  const walk = (value: unknown, path: string, depth: number) => {
    paths.add(`${path || "/"}:${typeOf(value)}`);
    if (depth > 32) return;
    if (Array.isArray(value)) for (const item of value) walk(item, `${path}[]`, depth + 1);
    else if (value !== null && typeof value === "object")
      for (const [key, item] of Object.entries(value)) walk(item, `${path}/${key}`, depth + 1);
  };
  walk(body, "", 0);
  return [...paths].sort();
}

/** How the two answers to one request compare. */
export interface Verdict {
  readonly status: boolean;
  /** status and code both agree */
  readonly code: boolean;
  /** member paths agree; null unless both answers are 2xx */
  readonly paths: boolean | null;
  /** member paths only the release's answer has (both 2xx) */
  readonly onlyReal: readonly string[];
  readonly onlyMock: readonly string[];
}

function success(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Compares the release's answer with the mock's. */
export function judge(real: Answer, mock: Answer): Verdict {
  const status = real.status === mock.status;
  const code = status && codeOf(real) === codeOf(mock);
  if (!success(real.status) || !success(mock.status)) return { status, code, paths: null, onlyReal: [], onlyMock: [] };
  const left = memberPaths(real.body, real.contentType);
  const right = memberPaths(mock.body, mock.contentType);
  const [leftSet, rightSet] = [new Set(left), new Set(right)];
  const onlyReal = left.filter((p) => !rightSet.has(p));
  const onlyMock = right.filter((p) => !leftSet.has(p));
  return { status, code, paths: onlyReal.length === 0 && onlyMock.length === 0, onlyReal, onlyMock };
}
