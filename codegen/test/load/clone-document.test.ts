import { describe, expect, it } from "vitest";
import { cloneDocument } from "../../src/load/clone-document.js";
import { readYaml } from "../../src/load/read-yaml.js";

describe("cloneDocument", () => {
  it("copies every object and array, leaving the original untouched", () => {
    const document = readYaml("a:\n  b: [1, {c: true}, null]\n  d: text\n") as {
      a: { b: [number, { c: boolean }, null]; d: string };
    };
    const copy = cloneDocument(document);
    expect(copy).toStrictEqual(document);
    expect(copy.a).not.toBe(document.a);
    expect(copy.a.b[1]).not.toBe(document.a.b[1]);
    copy.a.b[1].c = false;
    expect(document.a.b[1].c).toBe(true);
  });

  it("keeps a value met twice (a YAML alias) shared in the copy, as structuredClone does", () => {
    const document = readYaml("x: &shared {k: 1}\ny: *shared\n") as { x: object; y: object };
    expect(document.x).toBe(document.y);
    const copy = cloneDocument(document);
    expect(copy.x).toBe(copy.y);
    expect(copy.x).not.toBe(document.x);
  });

  it("keeps a member named __proto__ an own member, without changing the copy's prototype", () => {
    const document = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = cloneDocument(document);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toStrictEqual({ polluted: true });
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
