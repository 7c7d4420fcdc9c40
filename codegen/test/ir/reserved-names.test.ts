import { suiteName } from "../../../test/real/tools.js";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { OPERATION, minimalSpec, operationOf, runIn, snapshot } from "../helpers/minimal-spec.js";
import { scratchDir } from "../helpers/paths.js";
import { modelsTool, stderrBesidesModels } from "../helpers/python-models.js";

const models = modelsTool(suiteName(import.meta.url));

async function generateWithId(operationId: string) {
  const dir = scratchDir("names");
  const spec = minimalSpec();
  operationOf(spec).operationId = operationId;
  writeFileSync(path.join(dir, "openapi.yaml"), stringify(spec));
  const result = await runIn(dir, ["--root", "out"]);
  return { ...result, written: snapshot(path.join(dir, "out")) };
}

describe("operationIds that would break JavaScript objects are refused", () => {
  it.each([
    ["then", /client method then, which would make the client a thenable/],
    ["constructor", /member of every JavaScript object/],
    ["__proto__", /member of every JavaScript object and cannot key the generated operation tables/],
    ["toString", /member of every JavaScript object/],
    ["to_string", /becomes the client method toString/],
    ["valueOf", /member of every JavaScript object/],
    ["value_of", /becomes the client method valueOf/],
    ["hasOwnProperty", /member of every JavaScript object/],
    ["has_own_property", /becomes the client method hasOwnProperty/],
    ["is_prototype_of", /becomes the client method isPrototypeOf/],
    ["request", /member of the client classes/],
    ["wait_for_operation", /becomes the client method waitForOperation, which is a member of the client classes/],
  ])("%s: exit 2 at the operationId's pointer, nothing written", async (operationId, message) => {
    const result = await generateWithId(operationId);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(`error: #${OPERATION}/operationId: operationId "${operationId}"`);
    expect(result.stderr).toMatch(message);
    expect(result.written).toEqual({});
  });

  it.each(["then_what", "get_constructor", "proto", "to_strings"])(
    "%s only contains a reserved word and generates",
    async (operationId) => {
      const result = await generateWithId(operationId);
      expect(stderrBesidesModels(result.stderr, models)).toBe("");
      expect(result.code).toBe(EXIT.ok);
    },
  );
});
