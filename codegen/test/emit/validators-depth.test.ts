// A recursive schema meets an instance nested thousands of levels deep: the
// validator, called directly, answers with an issue instead of throwing
// `RangeError: Maximum call stack size exceeded` (docs/adr/0031-validators-fast-and-ordered.md).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ValidatorTables } from "../../src/emit/validator-code/tables.js";
import { scratchDir } from "../helpers/paths.js";

interface Emitted {
  (data: unknown, text?: string): boolean;
  errors: { instancePath: string; keyword: string; message: string; params: Record<string, unknown> }[] | null;
}

const DEFINITIONS: Record<string, unknown> = {
  // A tree: a node whose children are nodes.
  Tree: {
    type: "object",
    properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/definitions/Tree" } } },
    required: ["value"],
  },
  // A list: a cell whose rest is a cell or null, through a nullable reference (anyOf).
  List: {
    type: "object",
    properties: { head: { type: "string" }, rest: { anyOf: [{ $ref: "#/definitions/List" }, { type: "null" }] } },
    additionalProperties: false,
  },
};

function tree(levels: number): unknown {
  let node: Record<string, unknown> = { value: levels };
  for (let level = levels - 1; level > 0; level -= 1) node = { value: level, children: [node] };
  return node;
}

function list(levels: number): unknown {
  let cell: Record<string, unknown> = { head: "end", rest: null };
  for (let level = levels - 1; level > 0; level -= 1) cell = { head: "x", rest: cell };
  return cell;
}

/** The pointer of the node `levels` recursions below the root of a tree (the root is at 0). */
const treeAt = (levels: number) => "/children/0".repeat(levels);

describe("validators of a recursive schema on deep instances", async () => {
  const code = new ValidatorTables((key) => DEFINITIONS[key] as never, {}, "@powercontext/runtime/validation").module(
    new Map([
      ["Tree", "Tree"],
      ["List", "List"],
    ]),
  );
  const file = path.join(scratchDir("validators"), "depth.mjs");
  writeFileSync(file, code);
  const { Tree, List } = (await import(pathToFileURL(file).href)) as { Tree: Emitted; List: Emitted };

  it("refuses an instance 5,000 levels deep with a depth issue, instead of throwing", () => {
    for (const [validate, value] of [
      [Tree, tree(5_000)],
      [List, list(5_000)],
    ] as const) {
      expect(() => validate(value)).not.toThrow();
      expect(validate(value)).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({
        keyword: "depth",
        params: { limit: 256 },
        message: "must NOT nest a recursive schema more than 256 levels deep",
      });
    }
  });

  it("names the value where the limit is passed", () => {
    expect(Tree(tree(5_000))).toBe(false);
    expect(Tree.errors?.[0]?.instancePath).toBe(treeAt(257));
    // The same with the JSON text (the path the validator takes when the text holds an integral float).
    const text = JSON.stringify(tree(300)).replace('"value":300}', '"value":300.0}');
    expect(Tree(JSON.parse(text), text)).toBe(false);
    expect(Tree.errors?.[0]).toMatchObject({ instancePath: treeAt(257), keyword: "depth" });
  });

  it("validates an instance as deep as the limit (its deepest node 256 recursions below the root)", () => {
    expect(Tree(tree(257))).toBe(true);
    expect(List(list(257))).toBe(true);
    expect(Tree(tree(258))).toBe(false);
    const deepFault = tree(200) as Record<string, unknown>;
    let node = deepFault;
    for (let level = 1; level < 200; level += 1) node = (node.children as Record<string, unknown>[])[0] as typeof node;
    node.value = "x";
    expect(Tree(deepFault)).toBe(false);
    expect(Tree.errors?.[0]).toMatchObject({ instancePath: `${treeAt(199)}/value`, keyword: "type" });
  });
});
