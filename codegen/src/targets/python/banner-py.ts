import type { ApiIr } from "../../ir/model.js";
import { commentLine } from "../../emit/ts/syntax.js";
import { bannerText, shellWord } from "../../emit/banner.js";

/**
 * The do-not-edit banner as Python comments, with the command that regenerates the
 * file. Every name in it is escaped (`commentLine`), so none can end a comment line.
 */
export function pyBanner(ir: ApiIr): string {
  const lint = ir.source.lint === "strict" ? "" : ` --lint ${ir.source.lint}`;
  const command = `${commentLine(ir.names.regenerateCommand)} --spec ${commentLine(shellWord(ir.source.fileName))}${lint}`;
  return `# ${bannerText(ir)}\n# Regenerate with \`${command}\` (plus the \`--root\` or \`--python-*\` options it was written with); \`--check\` fails when this file drifts.\n\n`;
}
