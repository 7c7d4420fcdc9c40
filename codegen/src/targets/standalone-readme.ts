import type { ApiIr } from "../ir/model.js";
import { commentLine } from "../emit/ts/syntax.js";
import { bannerText, shellWord } from "../emit/banner.js";
import type { Target } from "./target.js";

/**
 * Emits `README.md` of a standalone folder (`--out DIR`): that the folder is
 * generated (with the banner, as an HTML comment), what each file in it is, what
 * each chosen target needs installed, and the command that regenerates or checks
 * it. It names the spec's file name only, never a folder, so the text is the
 * same wherever the folder lives.
 *
 * @param files - the folder's files (relative paths), those not produced this run included
 * @param written - the targets written, in the registry's order; each says what its files are and what it needs
 * @param named - the targets as `--targets` named them (or the layout's default), which the
 *   regenerate command repeats: the targets they bring come with them again
 */
export function emitStandaloneReadme(
  ir: ApiIr,
  files: readonly string[],
  written: readonly Target[],
  named: readonly string[],
): string {
  const targets = named;
  const roles: Readonly<Record<string, string>> = Object.assign(
    { "README.md": "this file" },
    ...written.map((target) => target.roles),
  );
  const lint = ir.source.lint === "strict" ? "" : ` --lint ${ir.source.lint}`;
  const command = `${commentLine(ir.names.regenerateCommand)} --spec ${commentLine(shellWord(ir.source.fileName))} --out <this folder> --targets ${targets.join(",")}${lint}`;
  const rows = ["README.md", ...files.filter((file) => file !== "README.md").sort()].map(
    (file) => `| \`${file}\` | ${roles[file] ?? "generated"} |`,
  );
  return `<!-- ${bannerText(ir).replace(/--/g, "- -")} -->
# Generated PowerContext client

Every file in this folder is written by the code generator from a spec (named in the
first line of each file) with \`--targets ${targets.join(",")}\`. Do not edit them:
change the spec or the options and regenerate. Keep your own code outside this folder:
the generator replaces the folder whole, and refuses to when it holds a file it did
not write.

| file | what it is |
| --- | --- |
${rows.join("\n")}

Needs: ${written.map((target) => target.needs).join("; ")}.

## Regenerate

\`\`\`sh
${command}
\`\`\`

Add the same naming options it was written with (\`--client-class\`, \`--runtime-package\`,
\`--python-package\`, ...). The same command with \`--check\` writes nothing and exits 1
when this folder differs from what the spec gives.
`;
}
