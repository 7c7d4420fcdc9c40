/**
 * Colours for human output. Colour is used only on a terminal and never when
 * `NO_COLOR` is set; with colour off every function returns its input, so
 * piped output and tests see plain text.
 */
import picocolors from "picocolors";
import type { OutputStream } from "../io.js";

/** The colour functions the formatters use. */
export type Palette = ReturnType<typeof picocolors.createColors>;

/**
 * Picks colours for output written to `stream`.
 *
 * @param stream the stream the text goes to (colour needs `isTTY`).
 * @param env the process environment (`NO_COLOR` set to anything non-empty, or `TERM=dumb`, disables colour).
 */
export function paletteFor(stream: OutputStream, env: Readonly<Record<string, string | undefined>>): Palette {
  const disabled = (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || env.TERM === "dumb";
  return picocolors.createColors(stream.isTTY === true && !disabled);
}

/** A palette that never colours (for tests and JSON). */
export const plainPalette: Palette = picocolors.createColors(false);
