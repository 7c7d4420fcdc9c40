// Server-assigned values (ids, times, hashes, cursors, tokens) differ between any two
// servers. Before values are compared, each side's distinct assigned values are replaced
// by placeholders numbered by first appearance within the scenario and the value's kind,
// on that side. Two
// answers with the same structure of assigned values (the id created in step 3 is the
// id listed in step 5) then compare equal; a list in another order does not.

/** Member names whose whole value is opaque and server-assigned. */
const OPAQUE_MEMBER = /(^|_)(cursor|token|etag|signature|digest|hash|request_id|checksum|fingerprint)$/;

/** Pieces of a string that a server assigns; replaced wherever they appear inside a string. */
const ASSIGNED = new RegExp(
  [
    // RFC 3339 date-times and dates with a time: one placeholder for all, their order is not an identity
    String.raw`(?<time>\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)`,
    "(?<id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
    // prefixed random ids (scp_3km1faameq8d8kmwf0wh4r899w): a short prefix, then a suffix with a digit
    String.raw`(?<prefixed>\b[a-z]{2,12}_(?=[0-9a-z]*\d)[0-9a-z]{10,}\b)`,
    String.raw`(?<hex>\b[0-9a-f]{16,}\b)`,
  ].join("|"),
  "gi",
);

/**
 * The placeholders of one side of one scenario. Each kind of assigned value is
 * numbered on its own: prefixed ids by their prefix (`<scp 1>`, `<art 1>`), UUIDs,
 * long hex strings, and each opaque member by its name (`<next_cursor 1>`). So a
 * value one side assigns and the other does not (a request id, a server instance
 * id) shifts no other kind's numbers, and the first Scope is `<scp 1>` on both.
 */
export class Placeholders {
  private readonly table = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** The placeholder of an assigned value of `kind`, numbered by first appearance within its kind. */
  of(value: string, kind: string): string {
    const key = `${kind}\u0000${value}`;
    let placeholder = this.table.get(key);
    if (placeholder === undefined) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      placeholder = `<${kind} ${n}>`;
      this.table.set(key, placeholder);
    }
    return placeholder;
  }

  /** A string with every assigned piece replaced. */
  text(value: string): string {
    return value.replace(ASSIGNED, (match, ...rest) => {
      const groups = rest.at(-1) as Record<string, string | undefined>;
      if (groups.time !== undefined) return "<time>";
      if (groups.prefixed !== undefined) return this.of(match, match.slice(0, match.indexOf("_")).toLowerCase());
      return this.of(match, groups.id !== undefined ? "uuid" : "hex");
    });
  }

  /**
   * A JSON value with assigned values replaced: opaque members (cursors, tokens, ETags)
   * whole, other strings piece by piece. Keys are normalised too (maps keyed by id).
   */
  value(node: unknown, member = ""): unknown {
    if (Array.isArray(node)) return node.map((item) => this.value(item, member));
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [this.text(key), this.value(item, key)]));
    }
    if (typeof node !== "string") return node;
    if (OPAQUE_MEMBER.test(member) && node !== "") return this.of(node, member);
    return this.text(node);
  }
}

/**
 * What of a body is compared as a value: an error envelope's `message` is text for
 * people (docs/compatibility.md says the mock words its own), so only its presence counts.
 */
export function comparable(body: unknown, status: number): unknown {
  if (status < 400 || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const error = (body as { error?: unknown }).error;
  if (error === null || typeof error !== "object" || Array.isArray(error) || !("message" in error)) return body;
  return { ...body, error: { ...error, message: "<message>" } };
}

/** The first path at which two JSON values differ, or null when equal. */
export function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || "/"}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (
    a !== null &&
    b !== null &&
    typeof a === "object" &&
    typeof b === "object" &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}/${key}`,
      );
      if (found !== null) return found;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${path || "/"}: ${brief(a)} vs ${brief(b)}`;
}

/** A value in at most 60 characters, for a difference line. */
export function brief(value: unknown): string {
  const text = value === undefined ? "absent" : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
