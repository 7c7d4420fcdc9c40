// The shape of an answer: which members a body has and their JSON types, recursively,
// plus the media type and which of the compared headers are present.
//
// How the rules count (test/conformance/README.md, "What is compared"):
// - `null` is a type of its own: a member that is null on one side and a string on the
//   other differs, and so does a member present (even as null) on one side and absent
//   on the other. Optional members count: the contract lets a server omit one, but a
//   client written against the mock would not expect it to go missing.
// - All numbers are one type (JSON does not tell 1 from 1.0 on the wire reliably).
// - Arrays: elements are paired by shape first (an element of one side with one of the
//   same shape on the other), so a list whose records come in another order (ordered by
//   the release's random ids) has the shape it has; the elements left unpaired are
//   compared position by position. How many elements there are, and their order, belong
//   to the value comparison (list counts and order), not to the shape.
// - A body that is not JSON counts as one string of its media type.
import { COMPARED_HEADERS, type Answer } from "./send-step.js";

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Every shape difference between two JSON values, as `path: real X, mock Y` lines (at most `limit`). */
export function shapeDifferences(real: unknown, mock: unknown, path = "", out: string[] = [], limit = 8): string[] {
  if (out.length >= limit) return out;
  const [a, b] = [typeOf(real), typeOf(mock)];
  if (a !== b) {
    out.push(`${path || "/"}: real ${a}, mock ${b}`);
    return out;
  }
  if (a === "array") {
    const [left, right] = unpaired(real as unknown[], mock as unknown[]);
    for (let i = 0; i < Math.min(left.length, right.length); i++)
      shapeDifferences(left[i]?.value, right[i]?.value, `${path}/${left[i]?.index}`, out, limit);
  } else if (a === "object") {
    const [left, right] = [real as Record<string, unknown>, mock as Record<string, unknown>];
    for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
      if (out.length >= limit) break;
      if (!(key in right)) out.push(`${path}/${key}: only real`);
      else if (!(key in left)) out.push(`${path}/${key}: only mock`);
      else shapeDifferences(left[key], right[key], `${path}/${key}`, out, limit);
    }
  }
  return out;
}

/** The text of a value's shape: its JSON type, with an object's members and an array's element shapes. */
function signature(value: unknown): string {
  const type = typeOf(value);
  if (type === "array") return `[${[...new Set((value as unknown[]).map(signature))].sort().join(",")}]`;
  if (type !== "object") return type;
  const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${signature(item)}`).join(",")}}`;
}

/** The elements of each side left after pairing those of equal shape, with their positions, in order. */
function unpaired(
  left: readonly unknown[],
  right: readonly unknown[],
): [{ index: number; value: unknown }[], { index: number; value: unknown }[]] {
  const free = right.map((value, index) => ({ index, value, shape: signature(value) }));
  const rest: { index: number; value: unknown }[] = [];
  left.forEach((value, index) => {
    const shape = signature(value);
    const match = free.findIndex((item) => item.shape === shape);
    if (match === -1) rest.push({ index, value });
    else free.splice(match, 1);
  });
  return [rest, free.map(({ index, value }) => ({ index, value }))];
}

/** Shape differences of two whole answers: media type, compared headers' presence, body. */
export function answerShapeDifferences(real: Answer, mock: Answer): string[] {
  const out: string[] = [];
  if (real.contentType !== mock.contentType)
    out.push(`content-type: real ${real.contentType ?? "none"}, mock ${mock.contentType ?? "none"}`);
  for (const header of COMPARED_HEADERS) {
    const [left, right] = [real.headers.has(header), mock.headers.has(header)];
    if (left !== right) out.push(`header ${header}: ${left ? "only real" : "only mock"}`);
  }
  if (out.length === 0) shapeDifferences(real.body, mock.body, "", out);
  return out;
}
