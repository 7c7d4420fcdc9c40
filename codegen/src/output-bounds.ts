import { SpecError } from "./errors.js";

/**
 * Most bytes the generated files of one run may hold together: 256 MiB, about
 * 85 times this repository's output (3 MB) and six times the output of the
 * benchmark's 3,000-operation spec (38 MB). The spec's own bounds
 * (`load/check-bounds.ts`) keep a document from expanding without end; this one
 * keeps what the emitters make of it (the document is written out more than
 * once: `schema.py`, the mock's `openapi-document.ts`, the types' doc comments)
 * from filling a disk.
 */
export const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/**
 * Refuses generated files that hold more than `maxBytes` bytes (UTF-8) together,
 * before anything is written.
 *
 * @param files - relative path -> text
 * @param maxBytes - default {@link MAX_OUTPUT_BYTES}
 * @throws {SpecError} `too_large` at the document root, naming the total and the largest file
 */
export function checkOutputSize(files: ReadonlyMap<string, string>, maxBytes: number = MAX_OUTPUT_BYTES): void {
  // A UTF-16 code unit is at most 3 bytes of UTF-8, so files whose lengths stay under a third
  // of the limit are within it: counting their bytes (which reads every character) is skipped.
  let bound = 0;
  for (const text of files.values()) bound += text.length * 3;
  if (bound <= maxBytes) return;
  let total = 0;
  let largest = { file: "", bytes: -1 };
  for (const [file, text] of files) {
    const bytes = Buffer.byteLength(text, "utf8");
    total += bytes;
    if (bytes > largest.bytes) largest = { file, bytes };
  }
  if (total > maxBytes)
    throw new SpecError(
      "too_large",
      { pointer: "" },
      `the spec would generate ${total} bytes of output, more than ${maxBytes}; the largest is ${largest.file} (${largest.bytes} bytes). Nothing was written`,
    );
}
