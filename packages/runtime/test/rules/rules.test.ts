import { describe, expect, it } from "vitest";
import { firstBreach, foldKey, strip, withRules, type Rule, type RuleSite } from "../../src/rules.js";
import { validator } from "../../src/validation.js";

const when = (path: string[], values: unknown[], negate = false) => ({
  path,
  in: negate ? null : (values as never[]),
  notIn: negate ? (values as never[]) : null,
});

/** A name pattern, checked while `p` is absent or null. */
const namePattern: Rule = {
  kind: "constrain-when",
  when: when(["p"], [null]),
  path: ["name"],
  in: null,
  notIn: null,
  min: null,
  max: null,
  pattern: "^[a-z]+(?:-[a-z]+)*$",
};

/** given: a rule and an object; want: the member it names when broken (null: the object), or "ok". */
const table: [string, Rule, Record<string, unknown>, string | null | "ok"][] = [
  ["not-null: present null", { kind: "not-null", members: ["a"] }, { a: null }, "a"],
  ["not-null: absent", { kind: "not-null", members: ["a"] }, {}, "ok"],
  ["not-blank: spaces", { kind: "not-blank", members: ["a"] }, { a: " \t" }, "a"],
  ["not-blank: text", { kind: "not-blank", members: ["a"] }, { a: " x " }, "ok"],
  ["no-outer-whitespace: trailing", { kind: "no-outer-whitespace", members: ["a"], side: "both" }, { a: "x " }, "a"],
  ["no-outer-whitespace: NBSP", { kind: "no-outer-whitespace", members: ["a"], side: "both" }, { a: "\u00a0x" }, "a"],
  [
    "no-outer-whitespace: BOM is no whitespace",
    { kind: "no-outer-whitespace", members: ["a"], side: "both" },
    { a: "\ufeffx" },
    "ok",
  ],
  [
    "no-outer-whitespace: an item",
    { kind: "no-outer-whitespace", members: ["a[]"], side: "both" },
    { a: ["x", " y"] },
    "a",
  ],
  [
    "no-outer-whitespace: a map key",
    { kind: "no-outer-whitespace", members: ["a{}"], side: "both" },
    { a: { " k": "v" } },
    "a",
  ],
  ["no-outer-whitespace: end only", { kind: "no-outer-whitespace", members: ["a"], side: "end" }, { a: "  x" }, "ok"],
  [
    "no-outer-whitespace: end only, trailing",
    { kind: "no-outer-whitespace", members: ["a"], side: "end" },
    { a: "x\n" },
    "a",
  ],
  [
    "unique-items: twice",
    { kind: "unique-items", members: ["a"], by: null, compare: "exact" },
    { a: [{ x: 1 }, { x: 1 }] },
    "a",
  ],
  [
    "unique-items: case differs",
    { kind: "unique-items", members: ["a"], by: null, compare: "exact" },
    { a: ["A", "a"] },
    "ok",
  ],
  [
    "unique-items: folded",
    { kind: "unique-items", members: ["a"], by: null, compare: "nfc-casefold" },
    { a: ["Straße", "STRASSE"] },
    "a",
  ],
  [
    "unique-items: by a member",
    { kind: "unique-items", members: ["a"], by: ["k"], compare: "exact" },
    {
      a: [
        { k: 1, v: 1 },
        { k: 1, v: 2 },
      ],
    },
    "a",
  ],
  [
    "unique-items: by a nested member",
    { kind: "unique-items", members: ["a"], by: ["ref.id"], compare: "exact" },
    { a: [{ ref: { id: "x" }, v: 1 }, { ref: { id: "y" } }, { ref: { id: "x" }, v: 2 }] },
    "a",
  ],
  [
    "unique-items: by a nested member, all different",
    { kind: "unique-items", members: ["a"], by: ["ref.id"], compare: "exact" },
    { a: [{ ref: { id: "x" } }, { ref: { id: "y" } }, { ref: "x" }] },
    "ok",
  ],
  ["relative-path: dot-dot", { kind: "relative-path", members: ["p"], allowEmpty: false }, { p: "a/../b" }, "p"],
  ["relative-path: root allowed", { kind: "relative-path", members: ["p"], allowEmpty: true }, { p: "" }, "ok"],
  ["span: too wide", { kind: "span", from: "a", to: "b", min: 0, max: 2 }, { a: 1, b: 4 }, null],
  ["required-when", { kind: "required-when", member: "m", when: when(["k"], ["x"]) }, { k: "x" }, "m"],
  [
    "required-when: not-in",
    { kind: "required-when", member: "m", when: when(["k"], ["accepted"], true) },
    { k: "rejected" },
    "m",
  ],
  [
    "required-when: not-in holds not",
    { kind: "required-when", member: "m", when: when(["k"], ["accepted"], true) },
    { k: "accepted" },
    "ok",
  ],
  ["forbidden-unless", { kind: "forbidden-unless", member: "m", when: when(["k"], ["x"]) }, { k: "y", m: 1 }, "m"],
  [
    "items-when: verified needs evidence",
    { kind: "items-when", member: "e", when: when(["basis"], ["verified"]), min: 1, max: null },
    { basis: "verified" },
    "e",
  ],
  [
    "items-when: declared has none",
    { kind: "items-when", member: "e", when: when(["basis"], ["declared"]), min: null, max: 0 },
    { basis: "declared", e: [1] },
    "e",
  ],
  [
    "items-when: condition off",
    { kind: "items-when", member: "e", when: when(["basis"], ["verified"]), min: 1, max: null },
    { basis: "declared" },
    "ok",
  ],
  [
    "constrain-when: bound",
    {
      kind: "constrain-when",
      when: when(["family"], ["experience"]),
      path: ["limit"],
      in: null,
      notIn: null,
      min: null,
      max: 2,
      pattern: null,
    },
    { family: "experience", limit: 3 },
    "limit",
  ],
  [
    "constrain-when: values through a list",
    {
      kind: "constrain-when",
      when: when(["status"], ["accepted"]),
      path: ["checks", "[]"],
      in: ["confirmed"],
      notIn: null,
      min: null,
      max: null,
      pattern: null,
    },
    { status: "accepted", checks: ["confirmed", "unchecked"] },
    "checks",
  ],
  ["one-of", { kind: "one-of", path: ["t", "family"], in: ["atomic-memory"] }, { t: { family: "skill" } }, "t"],
  ["one-of: absent", { kind: "one-of", path: ["t", "family"], in: ["atomic-memory"] }, {}, "ok"],
  [
    "none-of: any item",
    { kind: "none-of", path: ["refs", "[]", "family"], in: ["memory"] },
    { refs: [{ family: "skill" }, { family: "memory" }] },
    "refs",
  ],
  [
    "different",
    { kind: "different", paths: [["s", "scope_id"], ["target"]] },
    { s: { scope_id: "a" }, target: "a" },
    null,
  ],
  [
    "different: differ",
    { kind: "different", paths: [["s", "scope_id"], ["target"]] },
    { s: { scope_id: "a" }, target: "b" },
    "ok",
  ],
  ["same", { kind: "same", paths: [["p", "name"], ["name"]] }, { p: { name: "a" }, name: "b" }, "p"],
  ["same: a missing member reads as null", { kind: "same", paths: [["p", "d"], ["d"]] }, { p: {}, d: null }, "ok"],
  ["same: missing against a value", { kind: "same", paths: [["p", "d"], ["d"]] }, { p: {}, d: "x" }, "p"],
  [
    "member-of",
    { kind: "member-of", path: ["target"], list: ["refs"] },
    { target: { id: 1 }, refs: [{ id: 2 }] },
    "refs",
  ],
  [
    "member-of: held",
    { kind: "member-of", path: ["target"], list: ["refs"] },
    { target: { id: 1 }, refs: [{ id: 1 }] },
    "ok",
  ],
  ["max-sum", { kind: "max-sum", path: ["s", "[]", "limit"], max: 8 }, { s: [{ limit: 5 }, { limit: 4 }] }, "s"],
  [
    "max-bytes: after NFC and strip",
    { kind: "max-bytes", members: ["t"], max: 3, normalize: "nfc-strip" },
    { t: "  ae\u0301  " },
    "ok",
  ],
  ["max-bytes: over", { kind: "max-bytes", members: ["t"], max: 3, normalize: "none" }, { t: "ééé" }, "t"],
  ["max-items-together", { kind: "max-items-together", members: ["a", "b"], max: 2 }, { a: [1], b: [2, 3] }, null],
  ["zip-archive: a ZIP record", { kind: "zip-archive", members: ["z"] }, { z: "UEsDBBQAAAAIAA==" }, "ok"],
  ["zip-archive: an empty ZIP", { kind: "zip-archive", members: ["z"] }, { z: "UEsFBgAAAAA=" }, "ok"],
  ["zip-archive: unpadded", { kind: "zip-archive", members: ["z"] }, { z: "l9f5qjf" }, "z"],
  ["zip-archive: not a ZIP", { kind: "zip-archive", members: ["z"] }, { z: "aGVsbG8=" }, "z"],
  [
    "excluded-categories: control",
    { kind: "excluded-categories", members: ["t[]"], categories: ["Cc", "Cs", "Cn"] },
    { t: ["a\u0007"] },
    "t",
  ],
  [
    "excluded-categories: unassigned",
    { kind: "excluded-categories", members: ["t[]"], categories: ["Cn"] },
    { t: ["\u0378"] },
    "t",
  ],
  ["exclusive: both", { kind: "exclusive", members: ["a", "b"] }, { a: 1, b: 2 }, null],
  [
    "before: later start",
    { kind: "before", from: "s", to: "e" },
    { s: "2030-01-02T00:00:00Z", e: "2030-01-01T00:00:00Z" },
    null,
  ],
  [
    "before: same instant",
    { kind: "before", from: "s", to: "e" },
    { s: "2030-01-01T01:00:00+01:00", e: "2030-01-01T00:00:00Z" },
    null,
  ],
  [
    "before: in order",
    { kind: "before", from: "s", to: "e" },
    { s: "2030-01-01T00:00:00Z", e: "2030-01-01T00:00:01Z" },
    "ok",
  ],
  ["before: one absent", { kind: "before", from: "s", to: "e" }, { s: "2030-01-02T00:00:00Z" }, "ok"],
  ["constrain-when: a pattern", namePattern, { name: "My Skill" }, "name"],
  ["constrain-when: a pattern matched", namePattern, { name: "my-skill" }, "ok"],
  ["constrain-when: a pattern, the condition not holding", namePattern, { name: "My Skill", p: { id: 1 } }, "ok"],
];

describe("model rules: one check per kind", () => {
  it("checks a digest only with the digest function it is given, over the present `of` members", () => {
    const rule: Rule = { kind: "digest", member: "fp", of: ["a", "b"] };
    const digestOf = (value: unknown) => `d:${JSON.stringify(value)}`;
    const sites = [{ at: [], rules: [rule] }];
    expect(firstBreach({ fp: "x", a: 1 }, sites)).toBeNull();
    expect(firstBreach({ fp: "x", a: 1 }, sites, () => true, 0, digestOf)?.member).toBe("fp");
    expect(firstBreach({ fp: 'd:{"a":1}', a: 1 }, sites, () => true, 0, digestOf)).toBeNull();
  });

  it.each(table)("%s", (_name, rule, object, want) => {
    const breach = firstBreach(object, [{ at: [], rules: [rule] }]);
    if (want === "ok") expect(breach).toBeNull();
    else expect(breach?.member).toBe(want);
  });

  it("reads a member as the trim rules listed before a rule leave it, and leaves the request as sent", () => {
    const trim: Rule = { kind: "trim", members: ["text"], normalize: "nfc" };
    const empty: Rule = {
      kind: "constrain-when",
      when: when(["mode"], ["auto"]),
      path: ["text"],
      in: [""],
      notIn: null,
      min: null,
      max: null,
      pattern: null,
    };
    const request = { mode: "auto", text: " \n\u3000" };
    expect(firstBreach(request, [{ at: [], rules: [trim, empty] }])).toBeNull();
    expect(firstBreach(request, [{ at: [], rules: [empty, trim] }])?.rule.kind).toBe("constrain-when");
    expect(firstBreach({ mode: "auto", text: " x " }, [{ at: [], rules: [trim, empty] }])?.rule.kind).toBe(
      "constrain-when",
    );
    // A trim the caller does not admit changes nothing.
    expect(firstBreach(request, [{ at: [], rules: [trim, empty] }], (r) => r.kind !== "trim")).not.toBeNull();
    expect(request.text).toBe(" \n\u3000");
  });

  it("after-now compares with the clock it is given", () => {
    const rule: Rule = { kind: "after-now", members: ["at"] };
    const sites = [{ at: [], rules: [rule] }];
    expect(
      firstBreach({ at: "2026-01-01T00:00:00Z" }, sites, undefined, Date.parse("2026-06-01T00:00:00Z"))?.member,
    ).toBe("at");
    expect(
      firstBreach({ at: "2026-09-01T00:00:00Z" }, sites, undefined, Date.parse("2026-06-01T00:00:00Z")),
    ).toBeNull();
  });
});

describe("model rules: sites", () => {
  const sites: RuleSite[] = [
    { at: ["op", { if: "kind", in: ["read"] }], rules: [{ kind: "not-blank", members: ["path"] }] },
    { at: ["items", "[]", "ref"], rules: [{ kind: "no-outer-whitespace", members: ["id"], side: "both" }] },
  ];

  it("applies a branch's rules only behind its guard, and names where the object is", () => {
    expect(firstBreach({ op: { kind: "map", path: " " } }, sites)).toBeNull();
    expect(firstBreach({ op: { kind: "read", path: " " } }, sites)).toMatchObject({ at: ["op"], member: "path" });
    expect(firstBreach({ items: [{ ref: { id: "a" } }, { ref: { id: "b " } }] }, sites)).toMatchObject({
      at: ["items", 1, "ref"],
      member: "id",
    });
  });

  it("checks only the rules it is asked to", () => {
    expect(firstBreach({ op: { kind: "read", path: " " } }, sites, (r) => r.kind !== "not-blank")).toBeNull();
  });

  it("composes over a schema validator: the schema's issue first, then the rule's, with its pointer", () => {
    const schema = validator({ t: "o", P: ["items", { t: "a" }] } as never);
    const validate = withRules(schema, sites);
    expect(validate({ items: 3 })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe("type");
    expect(validate({ items: [{ ref: { id: " x" } }] })).toBe(false);
    expect(validate.errors).toEqual([
      expect.objectContaining({
        instancePath: "/items/0/ref/id",
        keyword: "x-powercontext-rules",
        params: { rule: "no-outer-whitespace" },
      }),
    ]);
    expect(validate({ items: [] })).toBe(true);
    expect(validate.errors).toBeNull();
  });
});

describe("model rules: text helpers", () => {
  it("strips what Python's str.strip removes, and folds case as casefold does for the common cases", () => {
    expect(strip("\u001c x \u3000")).toBe("x");
    expect(strip("\ufeffx")).toBe("\ufeffx");
    expect(foldKey("Straße")).toBe(foldKey("STRASSE"));
    expect(foldKey("ÄB")).toBe(foldKey("a\u0308b"));
  });
});
