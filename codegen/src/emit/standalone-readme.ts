import type { ApiIr } from "../ir/model.js";
import { commentLine } from "./ts/syntax.js";
import { bannerText, shellWord } from "./banner.js";

/** What each file of a standalone folder is, by its name (the Python layer's by its name under `python/`). */
const ROLES: Readonly<Record<string, string>> = {
  "README.md": "this file",
  "openapi.d.ts": "the spec's types (`paths`, `components`, `operations`), type-only",
  "operations.json":
    "the operation table in the Python Client SDK's terms (method, path, request location, success status, type names), for hosts",
  "index.ts":
    "the entry point: `createClient(options)`, the client class, the operation table, the validators and the spec's types as `spec`",
  "operations.ts":
    "one descriptor per operation (method, path, parameters, statuses, retry class, polling) that the runtime reads",
  "methods.ts": "the client class: one typed method per operation",
  "validators.js": "the request and response validators, plain functions with no dependency",
  "validators.d.ts": "their declarations",
  "validator-map.ts": "which validator checks which request and response",
  "error-codes.ts": "the spec's error codes with the type of each code's `details`",
  "contract-errors.ts": "an error class per error code the spec registers",
  "handlers.ts":
    "msw request handlers for every operation (imports `msw`; only tests and mock setups import this file)",
  "python/__init__.py": "the Python layer's package",
  "python/operations.py": "the Python layer: the operation table in the Python Client SDK 1.4.1 format",
  "python/schema.py": "the Python layer: the spec as written",
  "python/extensions.py": "the Python layer: the spec's vendor extensions (retry classes, polling)",
  "python/models.py": "the Python layer: pydantic models (datamodel-code-generator)",
  "python/parameters.py": "the Python layer: pydantic models of the operations' parameters (datamodel-code-generator)",
  "python/errors.py": "the Python layer: an error class per error code the spec registers",
};

/** What a target needs installed beside this folder. */
const NEEDS: Readonly<Record<string, string>> = {
  client:
    "`client`: the runtime package the files import (`@powercontext/runtime` unless `--runtime-package` named another)",
  types: "`types`: nothing at run time (declarations only)",
  msw: "`msw`: `msw` 2.11 or later (a peer of the handlers)",
  python:
    "`python`: pydantic and `powercontext_runtime` (this repository's `python/` distribution), the folder placed as the package named by `--python-package`",
};

/**
 * Emits `README.md` of a standalone folder (`--out DIR`): that the folder is
 * generated (with the banner, as an HTML comment), what each file in it is, what
 * each chosen target needs installed, and the command that regenerates or checks
 * it. It names the spec's file name only, never a folder, so the text is the
 * same wherever the folder lives.
 *
 * @param files - the folder's files (relative paths), those not produced this run included
 * @param targets - the targets written, in `--targets` order
 */
export function emitStandaloneReadme(ir: ApiIr, files: readonly string[], targets: readonly string[]): string {
  const lint = ir.source.lint === "strict" ? "" : ` --lint ${ir.source.lint}`;
  const command = `${commentLine(ir.names.regenerateCommand)} --spec ${commentLine(shellWord(ir.source.fileName))} --out <this folder> --targets ${targets.join(",")}${lint}`;
  const rows = ["README.md", ...files.filter((file) => file !== "README.md").sort()].map(
    (file) => `| \`${file}\` | ${ROLES[file] ?? "generated"} |`,
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

Needs: ${targets.map((target) => NEEDS[target]).join("; ")}.

## Regenerate

\`\`\`sh
${command}
\`\`\`

Add the same naming options it was written with (\`--client-class\`, \`--runtime-package\`,
\`--python-package\`, ...). The same command with \`--check\` writes nothing and exits 1
when this folder differs from what the spec gives.
`;
}
