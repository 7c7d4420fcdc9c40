/**
 * Where the CLI writes, and the guarantee that a secret never gets there.
 *
 * Every byte the CLI prints goes through a {@link Terminal}. The terminal knows
 * the API token (when one is configured) and replaces it before writing, so even
 * a server message or an unexpected error that echoed the token would not leak
 * it. The token itself is only ever read from `POWERCONTEXT_CLIENT_API_TOKEN`.
 * Every line also passes through `sanitizeLine`, so no control sequence other
 * than the CLI's own colours reaches the terminal (format/terminal-safe.ts).
 */

/** The part of a Node writable stream the CLI needs. */
export interface OutputStream {
  write(chunk: string): unknown;
  /** True when the stream is a terminal (enables colours and the live progress line). */
  readonly isTTY?: boolean;
  /** Terminal width in columns, when known. */
  readonly columns?: number;
}

/** What the CLI runs against: streams, environment and clock (all injectable for tests). */
export interface CliEnvironment {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Environment variables (normally `process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch (normally `Date.now`). */
  readonly now?: () => number;
  /**
   * Subscribes to an interrupt (Ctrl-C). Returns the unsubscribe function.
   * Only long waits subscribe, so other commands keep the default behaviour.
   */
  readonly onInterrupt?: (handler: () => void) => () => void;
}

import { sanitizeLine } from "./format/terminal-safe.js";

/** Text shown instead of a secret. */
export const REDACTED = "[redacted]";

/** A stream wrapper that writes whole lines and scrubs secrets. */
export class Terminal {
  readonly #stream: OutputStream;
  readonly #secrets: readonly string[];

  /**
   * @param stream the underlying stream (stdout or stderr).
   * @param secrets strings that must never be written; empty strings are ignored.
   */
  constructor(stream: OutputStream, secrets: readonly string[]) {
    this.#stream = stream;
    this.#secrets = secrets.filter((secret) => secret.length > 0);
  }

  /** True when the underlying stream is a terminal. */
  get isTTY(): boolean {
    return this.#stream.isTTY === true;
  }

  /** Terminal width in columns; 80 when unknown or reported as 0 (a pseudo-terminal without a size). */
  get columns(): number {
    const columns = this.#stream.columns;
    return columns !== undefined && columns > 0 ? columns : 80;
  }

  /** Writes `text` followed by a newline; control characters other than line breaks and colours are escaped. */
  line(text = ""): void {
    this.raw(`${sanitizeLine(text)}\n`);
  }

  /**
   * Writes `text` as is (no newline added), after scrubbing secrets. Only for
   * the CLI's own bytes (cursor moves of the progress line, commander's help);
   * anything that may hold server text goes through {@link line}.
   */
  raw(text: string): void {
    this.#stream.write(this.scrub(text));
  }

  /** Returns `text` with every configured secret replaced by {@link REDACTED}. */
  scrub(text: string): string {
    let result = text;
    for (const secret of this.#secrets) {
      result = result.split(secret).join(REDACTED);
    }
    return result;
  }

  /** A stream view for libraries (such as the spinner) that write directly; output is still scrubbed. */
  asStream(): OutputStream & { isTTY: boolean; columns: number } {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const terminal = this;
    return {
      write: (chunk: string) => terminal.raw(String(chunk)),
      get isTTY() {
        return terminal.isTTY;
      },
      get columns() {
        return terminal.columns;
      },
    };
  }
}
