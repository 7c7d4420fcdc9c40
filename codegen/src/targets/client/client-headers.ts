import type { ApiIr } from "../../ir/model.js";
import { banner } from "../../emit/banner.js";
import { tsValue } from "../../emit/ts/value.js";

/**
 * Emits `client-headers.ts`: `clientHeaders`, the headers the spec's clients send on
 * every request (`x-powercontext-client-headers`: what the server's own client declares,
 * such as the contract versions it speaks), which the runtime writes before the caller's
 * own headers (`RuntimeInput.clientHeaders`, `CallerParts.clientHeaders`).
 */
export function emitClientHeaders(ir: ApiIr): string {
  let out = banner(ir);
  out += "/**\n * Headers sent on every request, as the server's own client sends them\n";
  out += " * (`x-powercontext-client-headers`); a header of the same name the caller sets wins.\n */\n";
  out += `export const clientHeaders: Readonly<Record<string, string>> = ${tsValue(ir.clientHeaders)};\n`;
  return out;
}
