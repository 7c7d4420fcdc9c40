import type { ApiIr } from "../../ir/model.js";
import type { Json } from "../../domain/types.js";
import { tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";

/**
 * Emits `openapi-document.ts` of `@powercontext/msw`: the spec as written, as one
 * JSON text, which the mock's HTTP server answers `GET /openapi.json` with. The
 * text is a string literal, not an object literal, so the type checker infers
 * nothing from it and a runtime parses it only when it is asked for; the server
 * imports the module on the first request for it, so the msw handlers (and a
 * browser bundle of them) never carry it.
 *
 * @param written - the document exactly as written (`LoadedSpec.written`)
 */
export function emitMswDocument(ir: ApiIr, written: Json): string {
  let out = banner(ir);
  out += `/** The contract the mock serves at \`GET /openapi.json\`, as JSON text. */\n`;
  out += `export const openapiDocumentJson: string = ${tsString(JSON.stringify(written))};\n`;
  return out;
}
