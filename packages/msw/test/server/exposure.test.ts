// The documented tokens are public: outside loopback the mock serves them only with a
// principals file of one's own, or with explicit consent, and says why otherwise.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/server/cli.js";
import { exposureProblem, isLoopbackBind } from "../../src/server/exposure.js";
import { startMockServer } from "../../src/server/start.js";
import { defaultPrincipals } from "../../src/simulator/access/principals.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";

describe("isLoopbackBind", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.4", false],
    ["127.0.0.256", false],
    ["localhost.", false],
    ["example.com", false],
  ])("%s -> %s", (host, loopback) => expect(isLoopbackBind(host)).toBe(loopback));
});

describe("serving outside loopback", () => {
  it("is refused with the documented tokens, and says what to do", async () => {
    await expect(startMockServer({ host: "0.0.0.0" })).rejects.toThrow(
      /not loopback.*--config.*--allow-default-tokens/,
    );
    expect(exposureProblem("0.0.0.0", true, false)).toBeNull();
    expect(exposureProblem("0.0.0.0", false, true)).toBeNull();
  });

  it("starts with principals of one's own, or with allowDefaultTokens", async () => {
    const own = await startMockServer({
      host: "0.0.0.0",
      principals: { tokens: { "team-secret-1": { name: "team", scopes: { "*": ["scope.read"] } } } },
    });
    await own.close();
    const consented = await startMockServer({ host: "0.0.0.0", allowDefaultTokens: true });
    await consented.close();
  });

  it("is refused by `serve --host 0.0.0.0` with exit code 2 and the reason on stderr", async () => {
    let err = "";
    const program = createProgram()
      .exitOverride()
      .configureOutput({ writeErr: (text) => (err += text), writeOut: () => undefined });
    for (const command of program.commands)
      command.exitOverride().configureOutput({ writeErr: (text) => (err += text) });
    await expect(program.parseAsync(["node", "powercontext-mock", "serve", "--host", "0.0.0.0"])).rejects.toMatchObject(
      {
        exitCode: 2,
      },
    );
    expect(err).toMatch(/^error: refusing to serve the documented tokens/);
    expect(program.commands[0]?.helpInformation()).toContain("--allow-default-tokens");
  });

  it("is refused when the principals or the simulator given still accept a documented token", async () => {
    // The packaged principals.default.json passed with --config, a copy of it, or a
    // simulator made with the defaults: the public tokens would be served all the same.
    const given = [
      { principals: defaultPrincipals },
      {
        principals: {
          tokens: {
            "team-secret-1": { static: true },
            "pc-reader": { principal: { type: "service", id: "r" }, bindings: [{ role: "server.observer" }] },
          },
        },
      },
      { simulator: createPowerContextSimulator({ seed: 1 }) },
    ];
    for (const options of given)
      await expect(startMockServer({ host: "0.0.0.0", ...options })).rejects.toThrow(/documented tokens.*not loopback/);
    const own = await startMockServer({
      host: "0.0.0.0",
      simulator: createPowerContextSimulator({
        seed: 1,
        principals: { tokens: { "team-secret-1": { static: true } } },
      }),
    });
    await own.close();
  });
});

describe("serve --config with the packaged defaults outside loopback", () => {
  it("is refused with exit code 2, as without --config", async () => {
    let err = "";
    const program = createProgram()
      .exitOverride()
      .configureOutput({ writeErr: (text) => (err += text), writeOut: () => undefined });
    for (const command of program.commands)
      command.exitOverride().configureOutput({ writeErr: (text) => (err += text) });
    const file = fileURLToPath(new URL("../../principals.default.json", import.meta.url));
    const argv = ["node", "powercontext-mock", "serve", "--host", "0.0.0.0", "--config", file];
    await expect(program.parseAsync(argv)).rejects.toMatchObject({ exitCode: 2 });
    expect(err).toMatch(/^error: refusing to serve the documented tokens/);
  });
});

describe("a bracketed IPv6 host", () => {
  it("binds as the address it brackets, as a URL writes it", async () => {
    const server = await startMockServer({ host: "[::1]" });
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("whole-number options of serve", () => {
  it.each(["", " ", "1e3", "0x10", "+5", "4294967295.0", "4294967296"])("refuse --seed %j", async (seed) => {
    const program = createProgram()
      .exitOverride()
      .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
    for (const command of program.commands) command.exitOverride().configureOutput({ writeErr: () => undefined });
    await expect(program.parseAsync(["node", "powercontext-mock", "serve", "--seed", seed])).rejects.toMatchObject({
      code: "commander.invalidArgument",
    });
  });
});
