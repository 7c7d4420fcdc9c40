/**
 * `--json` output: the wire object exactly as the server sent it (snake_case,
 * nulls kept), pretty-printed with two spaces and a trailing newline, so that
 * `jq` and scripts read the contract's shapes and nothing CLI-specific.
 * JSON escapes U+0000-U+001F itself; DEL, the C1 controls, the line and
 * paragraph separators and the bidirectional controls are written as `\uXXXX`
 * escapes too, so the text holds nothing a terminal acts on and still parses to
 * the same values.
 */
import type { Terminal } from "../io.js";
import { escapeJsonText } from "./terminal-safe.js";

/**
 * Writes one JSON document to `out`.
 *
 * @param out usually stdout.
 * @param value a wire object (or a list of them) as returned by the SDK.
 */
export function printJson(out: Terminal, value: unknown): void {
  out.line(escapeJsonText(JSON.stringify(value, null, 2)));
}
