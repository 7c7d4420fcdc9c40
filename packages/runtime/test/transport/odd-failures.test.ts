// A custom fetch or dispatcher may fail with anything at all. Whatever it
// throws or rejects with, the call settles with TransportError, and no
// rejection is left unhandled.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOperation } from "../../src/core/run-operation.js";
import { TransportError } from "../../src/errors.js";
import { createRuntime } from "../../src/node-platform.js";
import type { FetchLike } from "../../src/transport/fetch-adapter.js";
import { classDescriptor } from "../helpers/descriptors.js";

const TOKEN = "tok-odd-secret";

function hostileMessage(): Error {
  const error = new Error("x");
  Object.defineProperty(error, "message", {
    get() {
      throw new Error(`getter ${TOKEN}`);
    },
  });
  return error;
}

function hostileProxy(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error("get");
      },
      getPrototypeOf() {
        throw new Error("prototype");
      },
      has() {
        throw new Error("has");
      },
    },
  );
}

const oddValues: Record<string, () => unknown> = {
  "Object.create(null)": () => Object.create(null),
  "an error whose message getter throws": hostileMessage,
  "a string": () => `plain string ${TOKEN}`,
  undefined: () => undefined,
  null: () => null,
  "a proxy whose every trap throws": hostileProxy,
  "a number": () => 42,
};

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

/** Runs one call, which must settle within 2 s. */
async function settle(call: Promise<unknown>): Promise<unknown> {
  const outcome = await Promise.race([
    call.then(
      () => "resolved",
      (error: unknown) => error,
    ),
    new Promise((resolve) => setTimeout(() => resolve("unsettled"), 2000)),
  ]);
  // Let any stray rejection surface before the test looks.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return outcome;
}

describe.each(Object.keys(oddValues))("a transport failing with %s", (name) => {
  const value = oddValues[name] as () => unknown;
  const options = {
    baseUrl: "https://pc.example.com",
    token: TOKEN,
    maxRetries: 1,
    retry: { baseDelayMs: 0, maxDelayMs: 0 },
  };

  it.each([
    [
      "a fetch that throws",
      {
        fetch: (() => {
          throw value();
        }) as FetchLike,
      },
    ],
    [
      "a fetch that rejects",
      {
        fetch: (async () => {
          throw value();
        }) as FetchLike,
      },
    ],
    [
      "a dispatcher whose request throws",
      {
        dispatcher: {
          request() {
            throw value();
          },
        } as never,
      },
    ],
    [
      "a dispatcher whose request rejects",
      {
        dispatcher: {
          request: async () => {
            throw value();
          },
        } as never,
      },
    ],
  ])("%s: TransportError, no unhandled rejection, no token", async (_label, transport) => {
    const outcome = await settle(
      runOperation(createRuntime({ ...options, ...transport }), classDescriptor("safe"), {}),
    );
    expect(outcome).toBeInstanceOf(TransportError);
    const error = outcome as TransportError;
    expect(error.phase).toBe("exchange");
    expect(`${error.message} ${String(error.cause)} ${JSON.stringify(error)}`).not.toContain(TOKEN);
    expect(unhandled).toEqual([]);
  });
});
