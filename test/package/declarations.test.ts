// The built packages as a TypeScript consumer sees them: a strict program WITHOUT
// skipLibCheck that imports @powercontext/sdk through its package exports (dist/),
// so a broken or `any`-typed declaration file shipped in dist/ fails here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { checkFile, repoRoot, requireTools } from "../real/tools.js";

const consumer = `
import {
  PowerContextClient,
  createCaller,
  contractErrorsByCode,
  flushMemoryDescriptor,
  validatorMap,
  type ResponseOf,
  type Validator,
} from "@powercontext/sdk";
import { createNodeTransport } from "@powercontext/sdk/node";

const client = new PowerContextClient({ baseUrl: "http://127.0.0.1:8000", token: "t" });
const flush = createCaller<unknown, ResponseOf<"flush_memory">>({ baseUrl: "http://127.0.0.1:8000" }, flushMemoryDescriptor, {
  validators: validatorMap.flush_memory,
  contractErrors: contractErrorsByCode,
});
const check: Validator | undefined = validatorMap.flush_memory?.responses[200];
export { client, flush, check, createNodeTransport };
`;

const built = checkFile(join(repoRoot, "packages/sdk/dist/index.d.ts"), "run: npm run build");
const enabled = requireTools("declarations of the built SDK", built);

describe.skipIf(!enabled)("the built SDK's declarations", () => {
  it("type-check in a strict consumer without skipLibCheck", () => {
    // Inside the repository, so that @powercontext/* resolve through the workspace links.
    const base = join(repoRoot, ".cache");
    mkdirSync(base, { recursive: true });
    const dir = mkdtempSync(join(base, "consumer-"));
    try {
      const file = join(dir, "consumer.ts");
      writeFileSync(file, consumer);
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
        types: [],
      });
      const errors = ts.getPreEmitDiagnostics(program).map((d) => {
        const where =
          d.file && d.start !== undefined
            ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} `
            : "";
        return `${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      });
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
