/**
 * HTTP-dates (RFC 9110 §5.6.7): the three forms a recipient must accept.
 *
 * - IMF-fixdate, the preferred one: `Sun, 06 Nov 1994 08:49:37 GMT`;
 * - RFC 850 (obsolete): `Sunday, 06-Nov-94 08:49:37 GMT`, a two-digit year;
 * - asctime (obsolete): `Sun Nov  6 08:49:37 1994`, no zone (it is GMT).
 *
 * The obsolete forms are rewritten as IMF-fixdate, which is exactly what
 * `Date.prototype.toUTCString` writes and so what every engine's `Date.parse`
 * must read back; a date counts only when writing the result again gives the
 * same text, which refuses a day the month lacks, a wrong weekday, 24:00:00
 * and a leap second (`:60`), and anything else `Date.parse` would have guessed at.
 */

const ASCTIME = /^(\w{3}) (\w{3}) ([ \d]\d) (\d\d:\d\d:\d\d) (\d{4})$/;
const RFC_850 = /^(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\d\d)-(\w{3})-(\d\d)( \d\d:\d\d:\d\d GMT)$/;

/**
 * RFC 850's two-digit year as RFC 9110 reads it: the year with those last
 * two digits that is not more than 50 years after `now`.
 */
function fullYear(twoDigits: string, now: number): number {
  const current = new Date(now).getUTCFullYear();
  const year = current - (current % 100) + Number(twoDigits);
  return year > current + 50 ? year - 100 : year;
}

/**
 * Parses an HTTP-date in any of its three forms, exactly as written (case,
 * spacing, weekday and `GMT` as RFC 9110 spells them).
 *
 * @param now the current time in ms since the epoch, used only to place the
 *   two-digit year of the RFC 850 form (default `Date.now()`).
 * @returns milliseconds since the epoch, or null when `text` is none of the
 *   three forms or names a date or time that does not exist.
 */
export function parseHttpDate(text: string, now: number = Date.now()): number | null {
  const fixdate = text
    .replace(
      ASCTIME,
      (_, day: string, month: string, date: string, time: string, year: string) =>
        `${day}, ${date.replace(" ", "0")} ${month} ${year} ${time} GMT`,
    )
    .replace(
      RFC_850,
      (_, day: string, date: string, month: string, year: string, time: string) =>
        `${day.slice(0, 3)}, ${date} ${month} ${fullYear(year, now)}${time}`,
    );
  const at = Date.parse(fixdate);
  return new Date(at).toUTCString() === fixdate ? at : null;
}
