// The loopback rule for plaintext base URLs, checked against the released Python
// client: every row of the SDK's table must get the same verdict from both.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, normalizeBaseUrl } from "@powercontext/runtime";
import { LOOPBACK_CASES } from "../../packages/runtime/test/transport/loopback-table.js";
import { pythonTools, repoRoot, requireTools, suiteName, venvBin } from "../real/tools.js";

const enabled = requireTools(suiteName(import.meta.url), pythonTools());

function sdkAccepts(url: string): boolean {
  try {
    normalizeBaseUrl(url);
    return true;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    return false;
  }
}

describe.runIf(enabled)("plaintext loopback rule: SDK and Python client agree", () => {
  it("gives every URL of the table the Python client's verdict", () => {
    const urls = LOOPBACK_CASES.map((entry) => entry.url);
    const python = spawnSync(venvBin("python"), [join(repoRoot, "test/parity/loopback_python.py")], {
      input: JSON.stringify(urls),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(python.status, python.stderr).toBe(0);
    const verdicts = JSON.parse(python.stdout) as Record<string, boolean>;
    const disagreements = urls.filter((url) => verdicts[url] !== sdkAccepts(url));
    expect(disagreements).toEqual([]);
    // The table itself states the same verdicts.
    expect(LOOPBACK_CASES.filter((entry) => entry.loopback !== verdicts[entry.url]).map((entry) => entry.url)).toEqual(
      [],
    );
  });
});
