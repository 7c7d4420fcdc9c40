import ts from "typescript";
import type { Generated } from "../../codegen/src/pipeline.js";
import { OUTPUT_PATHS } from "../../codegen/src/pipeline.js";

/** The hosts' table of a generation run, compiled and imported as a host would load it. */
export async function emitHostTableRows(generated: Generated): Promise<Record<string, { headerParams: string[] }>> {
  const text = generated.files.get(OUTPUT_PATHS.hostTable)!;
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = (await import(`data:text/javascript;base64,${Buffer.from(js).toString("base64")}`)) as { OPERATIONS: Record<string, { headerParams: string[] }> };
  return module.OPERATIONS;
}
