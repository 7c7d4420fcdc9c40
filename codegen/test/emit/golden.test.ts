import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../src/pipeline.js";
import { fixturesDir, OUTPUT_PATHS } from "../helpers/paths.js";
import { typecheck } from "../helpers/typecheck.js";

// Golden outputs of the emitters for the wide fixture (header parameters, query
// styles, several success statuses, 304, text, binary and empty responses). A
// change to an emitter shows up here as a diff to review; `vitest -u` rewrites them.
const spec = path.join(fixturesDir, "wide.yaml");
const golden = (name: string) => path.join(import.meta.dirname, "golden", name);

describe("emitters on the wide fixture", async () => {
  const generated = await generate(spec);

  it.each([
    ["operations.ts", OUTPUT_PATHS.operations],
    ["methods.ts", OUTPUT_PATHS.methods],
    ["handlers.ts", OUTPUT_PATHS.mswHandlers],
    ["validator-map.ts", OUTPUT_PATHS.validatorMap],
  ])("%s matches its golden file", async (name, file) => {
    await expect(generated.files.get(file)).toMatchFileSnapshot(golden(`wide.${name}.golden`));
  });

  it("compiles under strict settings, and the result types say what the responses say", { timeout: 120_000 }, () => {
    const assertions = `import type { ResponseOf, RequestOf, ErrorOf } from "./packages/sdk/src/generated/operations.js";
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T => undefined as never;
check<Equal<ResponseOf<"get_report">, string>>();
check<Equal<ResponseOf<"get_archive">, Uint8Array>>();
check<Equal<ResponseOf<"reset_all">, undefined>>();
check<Equal<ResponseOf<"replace_doc">, undefined>>();
check<Equal<ResponseOf<"create_run">["status"], 200 | 202>>();
check<Equal<Extract<ResponseOf<"create_run">, { status: 202 }>["body"], { run_id: string }>>();
check<Equal<ResponseOf<"get_doc">["status"], 200 | 304>>();
check<Equal<Extract<ResponseOf<"get_doc">, { status: 304 }>["body"], undefined>>();
check<Equal<RequestOf<"replace_doc">["If-Match"], string>>();
check<Equal<ErrorOf<"replace_doc">["status"], 412>>();
export {};
`;
    const { errors } = typecheck(generated.files, { "assertions.ts": assertions });
    expect(errors).toEqual([]);
  });
});
