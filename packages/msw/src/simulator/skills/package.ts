import { sha256Hex, sha256HexOfBytes } from "../digest/sha256.js";
import type { JsonRecord } from "../members.js";

/**
 * The package a managed Skill is built into: one `SKILL.md` (front matter with
 * the name and description, then the instructions) in a ZIP archive, and the
 * package reference that names it by content (`tree_digest` over the files,
 * `archive_digest` over the archive bytes, counts and sizes). The archive is a
 * real ZIP (stored, not compressed), so a test may open what
 * `download_skill_package` hands out.
 */

/** One file of a package, as the manifest lists it. */
export interface SkillPackageFile {
  readonly path: string;
  readonly digest: string;
  readonly size: number;
  readonly media_type: string;
  readonly executable: boolean;
}

/** A built package: its reference, its files and the archive. */
export interface SkillPackage {
  readonly reference: {
    readonly tree_digest: string;
    readonly archive_digest: string;
    readonly file_count: number;
    readonly uncompressed_size: number;
    readonly archive_size: number;
  };
  readonly files: readonly SkillPackageFile[];
  /** The ZIP archive, base64-encoded. */
  readonly archiveBase64: string;
}

/** Builds the package of a Skill's content (its name, description and instructions). */
export function skillPackage(content: JsonRecord): SkillPackage {
  const text = `---\nname: ${String(content.name)}\ndescription: ${String(content.description)}\n---\n\n${String(content.instructions)}\n`;
  const bytes = new TextEncoder().encode(text);
  const file: SkillPackageFile = {
    path: "SKILL.md",
    digest: sha256HexOfBytes(bytes),
    size: bytes.length,
    media_type: "text/markdown",
    executable: false,
  };
  const archive = storedZip(file.path, bytes);
  return {
    reference: {
      tree_digest: sha256Hex(`${file.path}\n${file.digest}\n${file.size}\n${file.executable ? 1 : 0}\n`),
      archive_digest: sha256HexOfBytes(archive),
      file_count: 1,
      uncompressed_size: bytes.length,
      archive_size: archive.length,
    },
    files: [file],
    archiveBase64: base64(archive),
  };
}

/** A ZIP archive holding one stored (uncompressed) file, dated 1980-01-01 so the bytes depend on the content only. */
function storedZip(path: string, data: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode(path);
  const crc = crc32(data);
  const local = new Uint8Array(30 + name.length + data.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true);
  common(lv, 4, crc, data.length, name.length);
  local.set(name, 30);
  local.set(data, 30 + name.length);
  const central = new Uint8Array(46 + name.length);
  const cv = new DataView(central.buffer);
  cv.setUint32(0, 0x02014b50, true);
  cv.setUint16(4, 20, true);
  common(cv, 6, crc, data.length, name.length);
  cv.setUint32(38, 0o100644 * 0x10000, true);
  cv.setUint32(42, 0, true);
  central.set(name, 46);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, 1, true);
  ev.setUint16(10, 1, true);
  ev.setUint32(12, central.length, true);
  ev.setUint32(16, local.length, true);
  const out = new Uint8Array(local.length + central.length + end.length);
  out.set(local, 0);
  out.set(central, local.length);
  out.set(end, local.length + central.length);
  return out;
}

/** The header members a local and a central entry share, from `at`: version, UTF-8 flag, stored, date, CRC, sizes, name length. */
function common(view: DataView, at: number, crc: number, size: number, nameLength: number): void {
  view.setUint16(at, 20, true);
  view.setUint16(at + 2, 0x0800, true);
  view.setUint16(at + 4, 0, true);
  view.setUint16(at + 6, 0, true);
  view.setUint16(at + 8, 0x21, true);
  view.setUint32(at + 10, crc, true);
  view.setUint32(at + 14, size, true);
  view.setUint32(at + 18, size, true);
  view.setUint16(at + 22, nameLength, true);
}

let table: Uint32Array | undefined;

/** The CRC-32 (IEEE) of `data`. */
function crc32(data: Uint8Array): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
