import type { Json } from "../../domain/types.js";
import type { ApiIr } from "../../ir/model.js";
import { pyBanner } from "./banner-py.js";
import { pyLiteral } from "./literal.js";

/**
 * Emits `schema.py`: the whole contract as the dict `OPENAPI_SCHEMA`, as the
 * Python Client SDK's `powercontext.http._generated.schema` carries it. The
 * document is `written`, the contract as written (references kept, member order
 * preserved, Schema Objects not normalised).
 */
export function emitPythonSchema(ir: ApiIr, written: Json): string {
  return `${pyBanner(ir)}from pydantic import JsonValue

OPENAPI_SCHEMA: dict[str, JsonValue] = ${pyLiteral(written, { indent: 0 })}
`;
}
