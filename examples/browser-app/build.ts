/**
 * Builds the browser app from a live server: reads the server's contract at
 * `/openapi.json` (the 1.4.1 server serves it only with the bearer token),
 * generates a client for it with `--targets client,types` (no msw handlers),
 * type-checks the app under strict settings without `skipLibCheck` and without
 * Node's types, and bundles it for the browser with esbuild.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "@powercontext/codegen";
import { build } from "esbuild";
import ts from "typescript";

/** This example's folder. */
export const appDir = fileURLToPath(new URL(".", import.meta.url));

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>PowerContext: default Scope</title>
<pre id="out">loading...</pre>
<script type="module" src="/app.js"></script>
`;

/**
 * Reads the contract from `serverUrl`, generates `generated/`, type-checks and
 * bundles into `dist/` (`index.html`, `app.js`).
 *
 * @throws Error naming the status when the contract cannot be read (401 without a valid token),
 *   the generator's stderr when it exits non-zero, or the compiler's diagnostics
 */
export async function buildApp(serverUrl: string, token: string): Promise<{ dist: string; contract: string }> {
  const answer = await fetch(new URL("/openapi.json", serverUrl), { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok)
    throw new Error(
      `GET /openapi.json answered ${answer.status}: the server serves its contract only with the bearer token`,
    );
  const contract = join(appDir, "contract", "openapi.json");
  await mkdir(join(appDir, "contract"), { recursive: true });
  await writeFile(contract, await answer.text());

  let stderr = "";
  const io = { cwd: appDir, stdout: () => undefined, stderr: (text: string) => void (stderr += text) };
  const code = await runCli(
    [
      "--spec",
      contract,
      "--out",
      join(appDir, "generated"),
      "--targets",
      "client,types",
      "--lint",
      "upstream",
      "--quiet",
    ],
    io,
  );
  if (code !== 0) throw new Error(`the generator exited ${code}:\n${stderr}`);

  const config = ts.getParsedCommandLineOfConfigFile(
    join(appDir, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (config === undefined) throw new Error("examples/browser-app/tsconfig.json cannot be read");
  const program = ts.createProgram(config.fileNames, config.options);
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length > 0)
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => appDir,
        getNewLine: () => "\n",
      }),
    );

  const dist = join(appDir, "dist");
  await mkdir(dist, { recursive: true });
  await build({
    entryPoints: [join(appDir, "app.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outfile: join(dist, "app.js"),
    logLevel: "silent",
  });
  await writeFile(join(dist, "index.html"), PAGE);
  return { dist, contract };
}
