// ADR 0003: a timed-out exchange that nobody can abort kept the process alive
// for 300 s after the timeout. On both adapters, a process whose only call
// timed out must exit right after the TimeoutError.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const child = fileURLToPath(new URL("../fixtures/time-out-and-return.ts", import.meta.url));
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe.each(["fetch", "undici"])("the %s adapter", (adapter) => {
  it("lets the process exit at once after a timed-out call", async () => {
    // Reads every request and never answers.
    server = createServer({ keepAlive: true }, (req) => req.resume());
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const proc = spawn(process.execPath, ["--import", "tsx", child, origin, adapter], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    proc.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = await new Promise<number | null>((resolve) => {
      const guard = setTimeout(() => {
        proc.kill("SIGKILL");
        resolve(null);
      }, 20_000);
      proc.once("exit", () => {
        clearTimeout(guard);
        resolve(Date.now());
      });
    });
    const [verdict, at] = output.trim().split(" ");
    expect(verdict).toBe("timeout");
    expect(exited).not.toBeNull();
    // Without the fix the process stays alive until the server answers or undici gives up (300 s).
    expect((exited as number) - Number(at)).toBeLessThan(1000);
  });
});
