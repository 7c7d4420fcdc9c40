import type { ApiIr } from "../../ir/model.js";
import { bannerText } from "../banner.js";

/** The do-not-edit banner as Python comments, with the command that regenerates the file. */
export function pyBanner(ir: ApiIr): string {
  const lint = ir.source.lint === "strict" ? "" : ` --lint ${ir.source.lint}`;
  return `# ${bannerText(ir)}\n# Regenerate with \`npx powercontext-codegen --spec ${ir.source.fileName}${lint}\`; \`--check\` fails when this file drifts.\n\n`;
}
