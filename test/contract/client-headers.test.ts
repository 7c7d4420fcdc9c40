// The headers our clients send on every request (`x-powercontext-client-headers`) are the
// ones the installed release's own client sends: read from `powercontext.client.client.PowerContextClient` (no token: only what every request carries),
// never written down from it.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { repoRoot, venvBin } from "../real/tools.js";
import { releaseAvailable } from "./documents.js";

const run = releaseAvailable("client headers against the installed release's client");
const exec = promisify(execFile);

const READ = [
  "import json",
  "from powercontext.client.client import PowerContextClient",
  'client = PowerContextClient("http://127.0.0.1:9")',
  "print(json.dumps(dict(client._headers)))",
].join("\n");

describe.runIf(run)("the client headers", () => {
  it("are what the release's client sends on every request", async () => {
    const { stdout } = await exec(venvBin("python"), ["-c", READ], { timeout: 60_000 });
    const document = load(readFileSync(path.join(repoRoot, "openapi.yaml"), "utf8")) as Record<string, unknown>;
    expect(document["x-powercontext-client-headers"]).toEqual(JSON.parse(stdout));
  }, 60_000);
});
