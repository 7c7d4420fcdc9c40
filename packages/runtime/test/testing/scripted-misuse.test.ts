// A test double used wrongly fails at once, unretried, naming the step and what it must be:
// never a retried TransportError with a message such as "Cannot read properties of undefined".
import { describe, expect, it } from "vitest";
import { ConfigurationError, TransportError } from "../../src/errors.js";
import { createRuntime } from "../../src/core/runtime.js";
import { callWithResponse } from "../../src/operations/submit.js";
import { json, scripted, type Step } from "@powercontext/runtime/testing";
import { descriptor } from "../helpers/descriptors.js";

const read = descriptor({ operationId: "get_thing", method: "GET", requestLocation: null, retryClass: "safe" });

async function callWith(...steps: Step[]): Promise<{ error: unknown; requests: number }> {
  const server = scripted(...steps);
  const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch, maxRetries: 3 });
  const error = await callWithResponse(runtime, read, undefined).catch((e: unknown) => e);
  return { error, requests: server.seen.length };
}

describe("scripted() misused", () => {
  it("with no steps throws when it is called", () => {
    expect(() => scripted()).toThrow(ConfigurationError);
    expect(() => scripted()).toThrow(/no steps/);
  });

  it("with a step of another kind throws when it is called, naming the step", () => {
    expect(() => scripted(json(200, {}), { status: 200 } as unknown as Step)).toThrow(/step 2 is a plain object/);
    expect(() => scripted(undefined as unknown as Step)).toThrow(/step 1 is undefined/);
  });

  it("with a Response whose body was read throws when it is called", async () => {
    const used = json(200, { ok: true });
    await used.text();
    expect(() => scripted(used)).toThrow(/step 1 is a Response whose body was already read/);
  });

  it.each([
    ["a plain object", () => ({ status: 200, body: "{}" }) as unknown as Response, /step 1 returned a plain object/],
    ["undefined", () => undefined as unknown as Response, /step 1 returned undefined/],
    [
      "a string thrown",
      () => {
        throw "boom";
      },
      /step 1 threw a string/,
    ],
  ])(
    "with a function step returning or throwing %s fails the call at once, unretried",
    async (_label, step, message) => {
      const { error, requests } = await callWith(step as Step);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(TransportError);
      expect((error as Error).message).toMatch(message);
      expect(requests).toBe(1);
    },
  );

  it("with a function step returning a Response whose body was read fails at once", async () => {
    const used = json(200, {});
    await used.text();
    const { error, requests } = await callWith(() => used);
    expect((error as Error).message).toMatch(/step 1 returned a Response whose body was already read/);
    expect(requests).toBe(1);
  });

  it("with a Response whose body is locked (a reader taken, not read) refuses it as a used one", async () => {
    const locked = json(200, {});
    locked.body?.getReader();
    expect(() => scripted(locked)).toThrow(/step 1 is a Response whose body was already read/);
    const { error, requests } = await callWith(() => locked);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/step 1 returned a Response whose body was already read/);
    expect(requests).toBe(1);
  });

  it.each([
    [
      "every read",
      {
        get: () => {
          throw new Error("trap");
        },
      },
    ],
    [
      "its prototype",
      {
        getPrototypeOf: () => {
          throw new Error("trap");
        },
      },
    ],
  ])("with a function step returning a proxy throwing on %s fails at once, unretried", async (_what, traps) => {
    const hostile = new Proxy({}, traps as ProxyHandler<object>) as Response;
    const { error, requests } = await callWith(() => hostile, json(200, {}));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/step 1 returned/);
    expect(requests).toBe(1);
  });

  it("with a Response step that cannot be cloned fails at once, unretried", async () => {
    class Unclonable extends Response {
      override clone(): Response {
        throw "no clone";
      }
    }
    const { error, requests } = await callWith(new Unclonable("{}"), json(200, {}));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/step 1/);
    expect(requests).toBe(1);
  });

  it("still lets a thrown Error stand for a network failure, which is retried", async () => {
    const { error, requests } = await callWith(new TypeError("fetch failed"));
    expect(error).toBeInstanceOf(TransportError);
    expect(requests).toBe(4);
  });

  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const throwing = (trap: keyof ProxyHandler<object>, target: object = {}) =>
    new Proxy(target, {
      [trap]: () => {
        throw new Error("trap");
      },
    });

  it.each([
    ["a proxy whose prototype cannot be read", () => throwing("getPrototypeOf")],
    ["a revoked proxy", revoked],
  ])("with %s as a step throws a ConfigurationError when it is called, naming the step", (_what, make) => {
    expect(() => scripted(make() as Step)).toThrow(ConfigurationError);
    expect(() => scripted(make() as Step)).toThrow(/step 1 is/);
  });

  it.each([
    ["returns a revoked proxy", () => revoked()],
    [
      "throws a revoked proxy",
      () => {
        throw revoked();
      },
    ],
    [
      "throws a proxy whose prototype cannot be read",
      () => {
        throw throwing("getPrototypeOf");
      },
    ],
    ["rejects with a revoked proxy", () => Promise.reject(revoked())],
    ["returns a proxy around a Response whose reads throw", () => throwing("get", json(200, {}))],
    ["returns a proxy around a promise whose reads throw", () => throwing("get", Promise.resolve(json(200, {})))],
    [
      "returns an object with a clone method that is no Response",
      () => ({ status: 200, bodyUsed: false, headers: new Headers(), clone: () => ({}) }),
    ],
  ])("with a function step that %s fails at once, unretried, naming the step", async (_what, step) => {
    const { error, requests } = await callWith(step as Step, json(200, {}));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/step 1 (returned|threw)/);
    expect(requests).toBe(1);
  });

  it("with a Response step whose clone is no Response fails at once, unretried", async () => {
    class Odd extends Response {
      override clone(): Response {
        return {} as Response;
      }
    }
    const { error, requests } = await callWith(new Odd("{}"), json(200, {}));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/step 1's Response cannot be cloned/);
    expect(requests).toBe(1);
  });
});
