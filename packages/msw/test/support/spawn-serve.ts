import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A running `powercontext-mock serve` from the sources. */
export interface Served {
  readonly child: ChildProcess;
  /** The base URL it printed. */
  readonly url: string;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
}

/**
 * Spawns `powercontext-mock serve ...args` (`node --import tsx`) and resolves once it
 * prints its URL. The caller stops the child.
 * @throws Error when it exits first (with its stderr) or prints no URL within 20 s
 */
export async function spawnServe(args: readonly string[]): Promise<Served> {
  const entry = fileURLToPath(new URL("./serve-cli.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", entry, "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(http:\/\/\S+)\n/.exec(out);
      if (line) resolve(line[1]!);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
    setTimeout(() => reject(new Error("serve printed no URL within 20 s")), 20_000);
  });
  return { child, url, stderr: () => err };
}
