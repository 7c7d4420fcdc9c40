/**
 * `--json` output: the wire object exactly as the server sent it (snake_case,
 * nulls kept), pretty-printed with two spaces and a trailing newline, so that
 * `jq` and scripts read the contract's shapes and nothing CLI-specific.
 */
import type { Terminal } from "../io.js";

/**
 * Writes one JSON document to `out`.
 *
 * @param out usually stdout.
 * @param value a wire object (or a list of them) as returned by the SDK.
 */
export function printJson(out: Terminal, value: unknown): void {
  out.line(JSON.stringify(value, null, 2));
}
