/**
 * Progress of a waited-on Operation, on stderr so stdout keeps only results.
 *
 * - On a terminal: one live line (an ora spinner) rewritten in place with a
 *   carriage return: `operation op_1: running, attempt 2, elapsed 4.2s`. The
 *   elapsed time ticks between polls.
 * - Anywhere else (pipes, files, CI logs): a plain line each time the status or
 *   the attempt count changes, and no control characters at all.
 */
import ora, { type Ora } from "ora";
import { formatDuration } from "./duration.js";
import { escapeControls } from "./format/terminal-safe.js";
import type { Terminal } from "./io.js";

/** What one poll of the Operation told us. */
export interface ProgressSnapshot {
  readonly operationId: string;
  readonly status: string;
  readonly attemptCount: number;
}

/** Receives snapshots while waiting; `stop` must be called once waiting ends. */
export interface ProgressReporter {
  /** Shows a phase before the Operation is known (for example `submitting flush`). */
  phase(text: string): void;
  /** Shows the latest snapshot. */
  update(snapshot: ProgressSnapshot): void;
  /** Ends the display; a terminal line is cleared so the result prints on a clean line. */
  stop(): void;
}

/** How often the terminal line refreshes its elapsed time, in milliseconds. */
const TICK_MS = 250;

function describe(snapshot: ProgressSnapshot, elapsedMs: number): string {
  const text = `operation ${snapshot.operationId}: ${snapshot.status}, attempt ${snapshot.attemptCount}, elapsed ${formatDuration(elapsedMs)}`;
  // The live line is written through ora as raw bytes, so server text is escaped here.
  return escapeControls(text);
}

/**
 * Decides whether the live line can be used: the stream is a terminal and the
 * terminal is not `TERM=dumb`.
 */
export function isInteractive(stream: Terminal, env: Readonly<Record<string, string | undefined>>): boolean {
  return stream.isTTY && env.TERM !== "dumb";
}

/** A stream for ora whose cursor moves are plain ANSI (`\r` to go back) and whose text is scrubbed. */
function spinnerStream(terminal: Terminal) {
  return {
    write: (chunk: string) => {
      terminal.raw(String(chunk));
      return true;
    },
    get isTTY() {
      return true;
    },
    get columns() {
      return terminal.columns;
    },
    cursorTo: (x: number) => {
      terminal.raw(x === 0 ? "\r" : `\r\x1b[${x}C`);
      return true;
    },
    moveCursor: (dx: number, dy: number) => {
      const horizontal = dx > 0 ? `\x1b[${dx}C` : dx < 0 ? `\x1b[${-dx}D` : "";
      const vertical = dy > 0 ? `\x1b[${dy}B` : dy < 0 ? `\x1b[${-dy}A` : "";
      terminal.raw(horizontal + vertical);
      return true;
    },
    clearLine: (direction: number) => {
      terminal.raw(direction === 1 ? "\x1b[0K" : direction === -1 ? "\x1b[1K" : "\x1b[2K");
      return true;
    },
  };
}

/**
 * Creates the reporter for one wait.
 *
 * @param stderr where progress goes.
 * @param options `interactive`: live line (true) or plain lines (false);
 *   `now`: clock in ms; `startedAt`: when waiting began, for the elapsed time.
 */
export function createProgressReporter(
  stderr: Terminal,
  options: { interactive: boolean; now: () => number; startedAt: number },
): ProgressReporter {
  return options.interactive ? new LiveLine(stderr, options) : new PlainLines(stderr, options);
}

class LiveLine implements ProgressReporter {
  readonly #spinner: Ora;
  readonly #now: () => number;
  readonly #startedAt: number;
  #last: ProgressSnapshot | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(stderr: Terminal, options: { now: () => number; startedAt: number }) {
    this.#now = options.now;
    this.#startedAt = options.startedAt;
    this.#spinner = ora({
      // The adapter implements exactly what ora calls on a TTY stream.
      stream: spinnerStream(stderr) as unknown as NodeJS.WriteStream,
      isEnabled: true,
      discardStdin: false,
      hideCursor: false,
    });
  }

  phase(text: string): void {
    this.#spinner.text = escapeControls(text);
    this.#ensureRunning();
    this.#spinner.render();
  }

  update(snapshot: ProgressSnapshot): void {
    this.#last = snapshot;
    this.#ensureRunning();
    this.#refresh();
  }

  stop(): void {
    if (this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    this.#spinner.stop();
  }

  #refresh(): void {
    if (this.#last !== null) {
      this.#spinner.text = describe(this.#last, this.#now() - this.#startedAt);
      this.#spinner.render();
    }
  }

  #ensureRunning(): void {
    if (!this.#spinner.isSpinning) {
      this.#spinner.start();
    }
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#refresh(), TICK_MS);
      this.#timer.unref();
    }
  }
}

class PlainLines implements ProgressReporter {
  readonly #stderr: Terminal;
  readonly #now: () => number;
  readonly #startedAt: number;
  #lastKey = "";

  constructor(stderr: Terminal, options: { now: () => number; startedAt: number }) {
    this.#stderr = stderr;
    this.#now = options.now;
    this.#startedAt = options.startedAt;
  }

  phase(text: string): void {
    this.#stderr.line(`progress: ${text}`);
  }

  update(snapshot: ProgressSnapshot): void {
    const key = `${snapshot.operationId}|${snapshot.status}|${snapshot.attemptCount}`;
    if (key === this.#lastKey) {
      return;
    }
    this.#lastKey = key;
    this.#stderr.line(`progress: ${describe(snapshot, this.#now() - this.#startedAt)}`);
  }

  stop(): void {}
}
