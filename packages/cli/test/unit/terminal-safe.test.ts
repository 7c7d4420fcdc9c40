import { PowerContextClient } from "@powercontext/sdk";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli.js";
import { escapeControls, escapeJsonText, sanitizeLine, terminalSafe } from "../../src/format/terminal-safe.js";
import { Terminal } from "../../src/io.js";

/** What a hostile server might put in a string: a window title (OSC 0), a clipboard write (OSC 52), a screen clear, C1 CSI, a bidi override. */
const HOSTILE = "team\x1b]0;owned\x07\x1b]52;c;cHduZWQ=\x1b\\\x1b[2J\x9b31m\u202eevil\x7f";
/** Any character a terminal may act on (ESC, BEL, CSI in C1, DEL, bidi controls). */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("escaping server text for the terminal", () => {
  it("writes ESC, BEL, C1, DEL and bidi controls as visible escapes", () => {
    expect(escapeControls(HOSTILE)).toBe(
      "team\\x1b]0;owned\\x07\\x1b]52;c;cHduZWQ=\\x1b\\\\x1b[2J\\x9b31m\\u{202e}evil\\x7f",
    );
    expect(escapeControls("a\nb\tc\rd")).toBe("a\\nb\\tc\\rd");
    expect(escapeControls("plain text, ünïcödé, 日本")).toBe("plain text, ünïcödé, 日本");
  });

  it("writes the Arabic letter mark and the invisible characters that hide or split text as escapes", () => {
    expect(escapeControls("a\u061cb\u200bc\u00add\u2060e\u2064f\ufeffg\ufff9h")).toBe(
      "a\\u{61c}b\\u{200b}c\\xadd\\u{2060}e\\u{2064}f\\u{feff}g\\u{fff9}h",
    );
    expect(escapeJsonText(JSON.stringify("x\u061c\u200b"))).toBe('"x\\u061c\\u200b"');
    // Tag characters can spell a hidden ASCII text; fillers and separators show nothing.
    const hidden = [..."ignore"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    expect(escapeControls(`ok${hidden}!`)).toBe("ok\\u{e0069}\\u{e0067}\\u{e006e}\\u{e006f}\\u{e0072}\\u{e0065}!");
    expect(escapeControls("a\u034fb\u180ec\u3164d\u115fe")).toBe("a\\u{34f}b\\u{180e}c\\u{3164}d\\u{115f}e");
    const json = escapeJsonText(JSON.stringify(`x${hidden.slice(0, 2)}`));
    expect(json).toBe('"x\\udb40\\udc69"');
    expect(JSON.parse(json)).toBe(`x${hidden.slice(0, 2)}`);
    // Emoji and other astral characters outside the tag block stay.
    expect(escapeControls("🏳️‍🌈 𝒜")).toBe("🏳️‍🌈 𝒜");
    // Joiners that scripts and emoji need stay as they are.
    expect(escapeControls("می\u200cخواهم 👩\u200d💻")).toBe("می\u200cخواهم 👩\u200d💻");
  });

  it("keeps the CLI's own colours and line breaks in a line, and nothing else", () => {
    expect(sanitizeLine("\x1b[31mblocked\x1b[39m\nnext \x1b]0;t\x07")).toBe(
      "\x1b[31mblocked\x1b[39m\nnext \\x1b]0;t\\x07",
    );
  });

  it("copies wire objects with every string and key escaped", () => {
    const safe = terminalSafe({ scope_id: HOSTILE, n: 3, none: null, list: [HOSTILE], "k\x1b": { deep: "\x07" } });
    expect(JSON.stringify(safe)).not.toMatch(RAW_CONTROL);
    expect(safe).toMatchObject({ n: 3, none: null, "k\\x1b": { deep: "\\x07" } });
  });

  it("--json text keeps its values but holds nothing a terminal acts on", () => {
    const value = { scope_id: HOSTILE, message: "line\u2028break" };
    const text = escapeJsonText(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("the terminal escapes control characters in any line it writes", () => {
    let written = "";
    new Terminal({ write: (chunk) => (written += chunk) }, []).line(`x ${HOSTILE}`);
    expect(written.slice(0, -1)).not.toMatch(RAW_CONTROL);
    expect(written.endsWith("\n")).toBe(true);
  });
});

/** Runs the CLI in-process against a fake server answering every request with `respond`. */
async function run(argv: string[], respond: () => Response) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    argv,
    {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      env: { POWERCONTEXT_CLIENT_SERVER_URL: "http://127.0.0.1:9", POWERCONTEXT_CLIENT_API_TOKEN: "tok" },
    },
    { createClient: (options) => new PowerContextClient({ ...options, fetch: async () => respond() }) },
  );
  return { code, stdout, stderr };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "X-PowerContext-Request-ID": `req\x1b[2J\x07` },
  });

const operation = {
  operation_id: "op_1",
  kind: "memory_flush",
  scope_id: HOSTILE,
  status: "failed",
  version: 3,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:01.000Z",
  started_at: "2026-01-01T00:00:00.500Z",
  finished_at: "2026-01-01T00:00:01.000Z",
  attempt_count: 1,
  error: null,
  result: null,
};

describe("the CLI never writes server control sequences raw", () => {
  it("escapes a hostile scope_id in human output", async () => {
    const { code, stdout, stderr } = await run(["operations", "get", "op_1"], () => json(200, operation));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(stdout).toContain("team\\x1b]0;owned\\x07");
  });

  it("--json keeps the exact values, with nothing raw a terminal acts on", async () => {
    const { stdout } = await run(["--json", "operations", "get", "op_1"], () => json(200, operation));
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(stdout)).toEqual(operation);
  });

  it("escapes a hostile error message, code and request id on the error line", async () => {
    const envelope = {
      error: {
        code: "version_conflict\x1b[8m",
        message: "hidden\x1b]8;;http://x/\x07link\x9b2J\nnext",
        details: { current_version: "4\x07" },
      },
    };
    const { code, stderr } = await run(["operations", "retry", "op_1", "--expected-version", "3"], () =>
      json(409, envelope),
    );
    expect(code).toBe(1);
    const lines = stderr.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(stderr.slice(0, -1)).not.toMatch(RAW_CONTROL);
    expect(lines[0]).toContain("hidden\\x1b]8;;http://x/\\x07link\\x9b2J next");
    expect(lines[0]).toContain("(request id req\\x1b[2J\\x07)");
  });
});
