// Authorization on every operation, as the release decides it: every recipe step of
// test/parity/recipes replayed under every built-in role a binding may grant (each Scope
// role on the default Scope and, alone, on another Scope; each server role; each Artifact
// role a family grants; no role at all) and by the static bearer, against the installed
// release (in process, its own application and access control; role_matrix.py) and
// against the mock server, with the same requests in the same order. Where the release
// refuses with 403 the mock must, and nowhere else; status and code must agree in every
// other cell too, but for the differences listed below, each with its reason.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startMockServer } from "../../packages/msw/src/server/start.js";
import type { PrincipalConfig } from "../../packages/msw/src/simulator/access/principals.js";
import { pythonTools, repoRoot, requireTools, venvBin } from "../real/tools.js";

const run = requireTools("role matrix against the release", pythonTools());
const SCRIPT = join(repoRoot, "test", "access", "role_matrix.py");
const exec = promisify(execFile);

type Outcome = [number, string | null];
interface Matrix {
  readonly operations: Record<string, string>;
  readonly static: Record<string, Outcome>;
  readonly bindings: Record<string, Outcome[]>;
  readonly columns: Record<string, Record<string, Outcome>>;
}

/**
 * Cells where the two sides differ for a reason other than authorization (`<configuration> <step>`).
 * The test fails when one of them stops differing, so the entry goes.
 */
const KNOWN: Readonly<Record<string, string>> = {
  "scope.reviewer@scope approve_candidate":
    "the release answers an approval repeated by another reviewer as the first; the mock refuses the decided Candidate (409 candidate_terminal)",
  "scope.reviewer@scope approve_skill_candidate": "as for approve_candidate",
  "scope.admin@other revoke_access_binding":
    "the release keys idempotency per principal, so another principal's repeat meets the changed version (409 binding-version); the mock replays the first answer",
  "scope.admin@other replace_access_binding": "as for revoke_access_binding",
  "server.admin@server revoke_access_binding": "as for revoke_access_binding",
  "server.admin@server replace_access_binding": "as for revoke_access_binding",
};

/** Steps of the static bearer's run that differ for a reason of the in-process harness, not of the mock. */
const KNOWN_STATIC: Readonly<Record<string, string>> = {
  enroll_remote_skill_target:
    "in process the release sees a peer that is not loopback, and its receiver routes refuse plaintext from one (422)",
  publish_remote_skill:
    "the target never enrolled in process (above), so the release finds it in the wrong state (409)",
};

async function python(args: string[]): Promise<string> {
  const { stdout } = await exec(venvBin("python"), [SCRIPT, ...args], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 400_000,
  });
  return stdout;
}

describe.runIf(run)("authorization on every operation, every built-in role, against the release", () => {
  it("refuses exactly where the release refuses, and otherwise answers as it does", async () => {
    const tokens = JSON.parse(await python(["--tokens"])) as Record<string, string>;
    const principals: PrincipalConfig = {
      tokens: {
        "pc-admin": { static: true },
        ...Object.fromEntries(
          Object.entries(tokens).map(([token, id]) => [token, { principal: { type: "service" as const, id } }]),
        ),
      },
    };
    const mock = await startMockServer({ inference: "off", principals });
    let mockRun: Matrix;
    let releaseRun: Matrix;
    try {
      [mockRun, releaseRun] = (await Promise.all([python(["--url", mock.url]), python([])])).map(
        (text) => JSON.parse(text) as Matrix,
      );
    } finally {
      await mock.close();
    }
    // The bindings the Access API created take effect on both sides.
    expect(mockRun.bindings).toEqual(releaseRun.bindings);
    const decisions: string[] = [];
    const others: string[] = [];
    let cells = 0;
    for (const [config, column] of Object.entries(releaseRun.columns)) {
      for (const [step, real] of Object.entries(column)) {
        const ours = mockRun.columns[config]?.[step];
        cells += 1;
        const line = `${config} ${step}: release ${real.join(" ")}, mock ${ours?.join(" ")}`;
        if ((real[0] === 403) !== (ours?.[0] === 403)) decisions.push(line);
        else if (JSON.stringify(real) !== JSON.stringify(ours) && !Object.hasOwn(KNOWN, `${config} ${step}`))
          others.push(line);
      }
    }
    for (const [step, real] of Object.entries(releaseRun.static)) {
      const ours = mockRun.static[step];
      if (JSON.stringify(real) !== JSON.stringify(ours) && !Object.hasOwn(KNOWN_STATIC, step))
        others.push(`static ${step}: release ${real.join(" ")}, mock ${ours?.join(" ")}`);
    }
    const stillDiffer = Object.keys(KNOWN).filter((cell) => {
      const [config = "", step = ""] = cell.split(" ");
      return JSON.stringify(releaseRun.columns[config]?.[step]) !== JSON.stringify(mockRun.columns[config]?.[step]);
    });
    console.log(
      `role matrix: ${cells} cells (${Object.keys(releaseRun.columns).length} configurations x ${Object.keys(releaseRun.operations).length} steps); ` +
        `${decisions.length} authorization differences, ${others.length} other unlisted differences`,
    );
    expect(cells).toBeGreaterThan(1900);
    expect(decisions).toEqual([]);
    expect(others).toEqual([]);
    expect(stillDiffer.sort()).toEqual(Object.keys(KNOWN).sort());
    expect(
      Object.keys(KNOWN_STATIC).filter(
        (step) => JSON.stringify(releaseRun.static[step]) !== JSON.stringify(mockRun.static[step]),
      ),
    ).toEqual(Object.keys(KNOWN_STATIC));
  }, 600_000);
});
