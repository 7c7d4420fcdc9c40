import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { createProgram } from "../../src/server/cli.js";
import { startMockServer, type MockServer } from "../../src/server/start.js";
import { spawnServe } from "../support/spawn-serve.js";

// Both faces of the release: `powercontext-mock serve --inference off` and
// startMockServer({ inference: "off" }) answer as a default 1.4.1 install without a
// model; `on` (the default) as one with a model.

let child: ChildProcess | undefined;
let server: MockServer | undefined;
afterEach(async () => {
  if (child?.exitCode === null) child.kill("SIGTERM");
  child = undefined;
  await server?.close();
  server = undefined;
});

const flushTopic = (url: string) =>
  fetch(`${url}/v1/topic-memory/flush`, {
    method: "POST",
    headers: { Authorization: "Bearer pc-admin", "Content-Type": "application/json" },
    body: JSON.stringify({ scope_id: "s1" }),
  });

const NO_MODEL = {
  error: {
    code: "topic_memory_processing_unavailable",
    message: "Topic Memory processing needs an inference model, and none is configured.",
    details: null,
  },
};

describe("the inference switch", () => {
  it("powercontext-mock serve --inference off answers 503 where a model is needed", async () => {
    const served = await spawnServe(["--port", "0", "--inference", "off", "--scope", "s1"]);
    child = served.child;
    const url = served.url;
    const answer = await flushTopic(url);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual(NO_MODEL);
  });

  it("startMockServer takes it as an option; on (the default) has a model", async () => {
    server = await startMockServer({ inference: "off", simulatorOptions: { scopes: ["s1"] } });
    expect((await flushTopic(server.url)).status).toBe(503);
    await server.close();
    server = await startMockServer({ simulatorOptions: { scopes: ["s1"] } });
    expect((await flushTopic(server.url)).status).toBe(200);
  });

  it("the command line refuses another mode, and --demo without a model", async () => {
    const run = async (...args: string[]) => {
      const program = createProgram()
        .exitOverride()
        .configureOutput({ writeErr: () => undefined });
      for (const command of program.commands) command.exitOverride().configureOutput({ writeErr: () => undefined });
      return program.parseAsync(["node", "powercontext-mock", "serve", ...args]).then(
        () => "served",
        (error: Error) => error.message,
      );
    };
    expect(await run("--inference", "maybe")).toMatch(/argument 'maybe' is invalid\. Allowed choices are on, off/);
    expect(await run("--inference", "off", "--demo")).toBe("error: --demo needs an inference model (--inference on)");
  });
});
