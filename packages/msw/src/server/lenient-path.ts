/**
 * A request path as the released server reads it. Its ASGI server decodes the
 * path leniently (Python's `urllib.parse.unquote`): an escape that is not `%`
 * and two hex digits stays literal text, and bytes that are not UTF-8 become
 * U+FFFD. msw's route matching decodes strictly and throws on either, which
 * would answer 500; each such segment is rewritten here so that msw decodes
 * it to the lenient text, and the request is answered like any other
 * (usually as an unknown id).
 */

const ENCODER = new TextEncoder();
const LENIENT = new TextDecoder("utf-8");
const HEX_PAIR = /^[0-9a-fA-F]{2}$/;

/**
 * A path (or one segment) decoded the lenient way, as the release's `scope["path"]`:
 * `%2F` becomes `/`, a bad escape stays literal, bytes that are not UTF-8 become U+FFFD.
 */
export function unquotePath(segment: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i += 1) {
    const pair = segment.slice(i + 1, i + 3);
    if (segment[i] === "%" && HEX_PAIR.test(pair)) {
      bytes.push(Number.parseInt(pair, 16));
      i += 2;
    } else {
      const point = segment.codePointAt(i) as number;
      if (point > 0xffff) i += 1;
      bytes.push(...ENCODER.encode(String.fromCodePoint(point)));
    }
  }
  return LENIENT.decode(new Uint8Array(bytes));
}

/** `pathname` with every segment that strict decoding refuses re-encoded from its lenient decoding; other segments are kept byte for byte. */
export function lenientPath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => {
      try {
        decodeURIComponent(segment);
        return segment;
      } catch {
        return encodeURIComponent(unquotePath(segment));
      }
    })
    .join("/");
}
