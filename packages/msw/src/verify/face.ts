// Which face of the mock a server matches: with an inference model (`on`) or without
// (`off`, a default install). Each face's own capabilities answer is compared with the
// server's, leaf by leaf (every scalar with its JSON pointer), and the face sharing more
// leaves wins; a tie, or a server whose capabilities cannot be read, gives `on`, the
// mock's default. Nothing here names a capability: the mock's faces say what differs.
import type { InferenceMode } from "../simulator/refusal-facts.js";
import { pointerStep } from "./random/contract.js";

/** Every scalar of a JSON value as `pointer=value` (array items by position). */
export function leaves(value: unknown, pointer = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) leaves(item, `${pointer}/${i}`, out);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) leaves(item, `${pointer}/${pointerStep(key)}`, out);
  else out.add(`${pointer}=${JSON.stringify(value)}`);
  return out;
}

/**
 * The face whose capabilities share the most leaves with the server's.
 *
 * @param server the server's capabilities body, or null when it could not be read
 * @param faces each face's capabilities body
 */
export function chooseFace(server: unknown, faces: Readonly<Record<InferenceMode, unknown>>): InferenceMode {
  if (server === null || typeof server !== "object") return "on";
  const theirs = leaves(server);
  const shared = (face: unknown) => [...leaves(face)].filter((leaf) => theirs.has(leaf)).length;
  return shared(faces.off) > shared(faces.on) ? "off" : "on";
}
