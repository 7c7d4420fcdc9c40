// Seeds are 32-bit: a seed past 2^32 - 1 would be cut and repeat a smaller seed's ids, so it
// is refused, by the simulator and by `serve --seed`, instead of being reduced silently.
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/server/cli.js";
import { MAX_SEED } from "../../src/simulator/random.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";

describe("the seed", () => {
  it.each([2 ** 32, -1, 1.5, Number.NaN])("%s is refused by the simulator", (seed) => {
    expect(() => createPowerContextSimulator({ seed })).toThrow(RangeError);
  });

  it("0 and 2^32 - 1 are accepted and differ", () => {
    const ids = (seed: number) =>
      createPowerContextSimulator({ seed }).handle("get_default_scope", { token: "pc-admin" }).body;
    expect(MAX_SEED).toBe(4294967295);
    expect(ids(0)).not.toEqual(ids(MAX_SEED));
  });

  it("past 2^32 - 1 is refused by `serve --seed`, whose help names the range", async () => {
    let err = "";
    const program = createProgram().exitOverride();
    const serve = program.commands[0];
    serve?.exitOverride().configureOutput({ writeErr: (text) => (err += text) });
    await expect(
      program.parseAsync(["node", "powercontext-mock", "serve", "--seed", "4294967296"]),
    ).rejects.toMatchObject({ exitCode: 2 });
    expect(err).toContain("seed must be an integer from 0 to 4294967295");
    expect(serve?.helpInformation().replace(/\s+/g, " ")).toContain("0 to 4294967295 (32 bits)");
  });

  it.each(["65536", "99999", "-1"])(
    "a port %s is refused by `serve --port` as a usage error naming the range",
    async (port) => {
      let err = "";
      const program = createProgram().exitOverride();
      const serve = program.commands[0];
      serve?.exitOverride().configureOutput({ writeErr: (text) => (err += text) });
      await expect(program.parseAsync(["node", "powercontext-mock", "serve", "--port", port])).rejects.toMatchObject({
        exitCode: 2,
      });
      expect(err).toContain("port must be an integer from 0 to 65535");
    },
  );
});
