// Where verify writes and which face of the mock it starts: every request acting on a
// Scope is pointed at the run's own Scope (or at one that exists nowhere, read-only),
// Scopes it creates carry the run's prefix, only answers to creating requests offer
// ids, and the mock's face is the one whose capabilities match the server's.
import { describe, expect, it } from "vitest";
import { openapiDocumentJson } from "../../src/generated/openapi-document.js";
import { startMockServer } from "../../src/server/index.js";
import { chooseFace } from "../../src/verify/face.js";
import { operationFacts, scopeOperation } from "../../src/verify/operation-facts.js";
import { Contract, type Schema } from "../../src/verify/random/contract.js";
import { AnswerRef, Catalogue } from "../../src/verify/random/identity.js";
import { drawRequest } from "../../src/verify/random/requests.js";
import { scopePlan } from "../../src/verify/scope-plan.js";

const contract = new Contract(JSON.parse(openapiDocumentJson) as Schema);
const facts = operationFacts(contract);
const create = scopeOperation(facts, "create");
const scoped = [...facts.values()].filter((f) => f.scopeMember !== null);
const draw = (operationId: string, k: number, fault?: boolean) =>
  drawRequest(contract, facts.get(operationId)!.operation, { seed: 5, index: 3, k, catalogue: new Catalogue(), fault });
const memberOf = (request: { params: Readonly<Record<string, unknown>>; body: unknown }, member: string) =>
  Object.hasOwn(request.params, member) ? request.params[member] : (request.body as Record<string, unknown>)[member];

describe("the contract's facts", () => {
  it("find the operation creating a Scope, operations acting on one, and operations without side effects", () => {
    expect(create?.operation.operationId).toBe("create_scope");
    expect(create?.requiredBody).toEqual(expect.arrayContaining(["title", "summary"]));
    expect(scoped.length).toBeGreaterThan(40);
    const readOnly = [...facts.values()].filter((f) => f.readOnly);
    expect(readOnly.map((f) => f.operation.operationId)).toContain("list_scopes");
    expect(readOnly.map((f) => f.operation.operationId)).not.toContain("create_scope");
  });
});

describe("scopePlan", () => {
  const plan = scopePlan(5, facts, create, false);

  it("points every request acting on a Scope at the run's own Scope, faulted or not", () => {
    for (const fact of scoped)
      for (const fault of [false, true]) {
        const request = plan.prepare(draw(fact.operation.operationId, 0, fault), 3);
        const value = memberOf(request, fact.scopeMember!);
        expect(value, fact.operation.operationId).toBeInstanceOf(AnswerRef);
        expect((value as AnswerRef).request).toBe(0);
        // a fault the pinning would undo is gone with it: the label never names a fault the request lacks
        const part = Object.hasOwn(request.params, fact.scopeMember!) ? "params" : "body";
        if (request.fault?.part === part) expect(["", `/${fact.scopeMember}`]).not.toContain(request.fault.pointer);
      }
  });

  it("names the run's own Scope verify-<seed>-0 with its required members only, and later Scopes by their index", () => {
    const first = plan.prepare(draw("create_scope", -1, true), 0);
    expect(first.fault).toBeNull();
    expect(Object.keys(first.body as object).sort()).toEqual([...create!.requiredBody].sort());
    expect(Object.values(first.body as object)).toEqual(create!.requiredBody.map(() => "verify-5-0"));
    const later = plan.prepare(draw("create_scope", 1), 9);
    expect((later.body as Record<string, unknown>).title).toBe("verify-5-9");
  });

  it("lets only 2xx answers to creating requests offer their ids", () => {
    const answer = (status: number) => ({ status, contentType: "application/json", body: {}, headers: new Headers() });
    expect(plan.feeds(draw("create_scope", 0).request, answer(201))).toBe(true);
    expect(plan.feeds(draw("create_scope", 0).request, answer(422))).toBe(false);
    expect(plan.feeds(draw("list_scopes", 0).request, answer(200))).toBe(false);
  });

  it("in read-only mode creates nothing and names a Scope that exists nowhere", () => {
    const readOnly = scopePlan(5, facts, create, true);
    expect(readOnly.setup).toBeNull();
    const fact = scoped[0]!;
    expect(memberOf(readOnly.prepare(draw(fact.operation.operationId, 0, false), 3), fact.scopeMember!)).toBe(
      "verify-5-none",
    );
  });
});

describe("chooseFace", () => {
  it("picks the face whose capabilities match the server's, and the default without them", async () => {
    const capabilities = async (inference: "on" | "off") => {
      const mock = await startMockServer({ inference });
      try {
        const response = await fetch(`${mock.url}/v1/capabilities`, { headers: { authorization: "Bearer pc-admin" } });
        return (await response.json()) as unknown;
      } finally {
        await mock.close();
      }
    };
    const faces = { on: await capabilities("on"), off: await capabilities("off") };
    expect(faces.on).not.toEqual(faces.off);
    expect(chooseFace(faces.off, faces)).toBe("off");
    expect(chooseFace(faces.on, faces)).toBe("on");
    expect(chooseFace(null, faces)).toBe("on");
  });
});
