import { HttpResponse, delay } from "msw";
import { isReset, type SimOutcome } from "../simulator/types.js";

/** The `{ status, body, headers }` shape the generated `createHandlers` turns into a Response. */
export interface PlainResponse {
  readonly status: number;
  /** JSON value, or a string / bytes sent with the `Content-Type` header. */
  readonly body?: unknown;
  readonly headers: Record<string, string>;
}

/**
 * Converts a simulator outcome for msw: waits out a delay fault, throws
 * `HttpResponse.error()` for a reset (msw then fails the request as a network
 * error), throws a Response with the broken bytes for a malformed-body fault
 * (msw uses a thrown Response as the answer), and otherwise returns the plain
 * response. A relative `Location` is resolved against the request's URL; a
 * string or byte body carries its `Content-Type`.
 * @throws Response for reset and malformed-body faults (by design, caught by msw)
 */
export async function outcomeToMsw(outcome: SimOutcome, request: Request): Promise<PlainResponse> {
  if (outcome.delayMs > 0) await delay(outcome.delayMs);
  if (isReset(outcome)) throw HttpResponse.error();
  const headers: Record<string, string> = { ...outcome.headers };
  const location = headers.Location;
  if (location?.startsWith("/")) headers.Location = new URL(location, request.url).href;
  if (outcome.contentType !== undefined) headers["Content-Type"] = outcome.contentType;
  if (outcome.rawBody !== undefined) {
    throw new HttpResponse(outcome.rawBody, {
      status: outcome.status,
      headers: { ...headers, "Content-Type": outcome.contentType ?? "application/json" },
    });
  }
  return { status: outcome.status, headers, ...(outcome.body === null ? {} : { body: outcome.body }) };
}

/** The bearer token of a request, or null (never logged). */
export function bearerToken(request: Request): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;
}

/** Every value of each query parameter, in order, as a null-prototype record. */
export function queryLists(query: URLSearchParams): Record<string, string[]> {
  const record: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  query.forEach((value, key) => {
    (record[key] ??= []).push(value);
  });
  return record;
}

/** Request headers as a null-prototype record of lower-case names, without `Authorization` (read as the token). */
export function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  headers.forEach((value, key) => {
    if (key !== "authorization") record[key] = value;
  });
  return record;
}

/**
 * Query parameters as a null-prototype record, first value winning, so a
 * parameter named `__proto__` or `constructor` is an ordinary key.
 */
export function queryRecord(query: URLSearchParams): Record<string, string> {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  query.forEach((value, key) => {
    if (!Object.hasOwn(record, key)) record[key] = value;
  });
  return record;
}
