import { describe, expect, it } from "vitest";
import { parseHttpDate } from "../../src/retry/http-date.js";

// RFC 9110 §5.6.7's own example, in its three forms.
const SUNDAY = Date.UTC(1994, 10, 6, 8, 49, 37);
const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);

describe("parseHttpDate", () => {
  it.each([
    ["IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT"],
    ["RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT"],
    ["asctime", "Sun Nov  6 08:49:37 1994"],
  ])("reads the %s form", (_form, text) => {
    expect(parseHttpDate(text, NOW)).toBe(SUNDAY);
  });

  it("reads an asctime day of two digits", () => {
    expect(parseHttpDate("Mon Nov 30 12:00:00 2026", NOW)).toBe(NOW);
  });

  it("places RFC 850's two-digit year no more than 50 years ahead", () => {
    expect(parseHttpDate("Monday, 30-Nov-76 12:00:00 GMT", NOW)).toBe(Date.UTC(2076, 10, 30, 12));
    expect(parseHttpDate("Wednesday, 30-Nov-77 12:00:00 GMT", NOW)).toBe(Date.UTC(1977, 10, 30, 12));
    expect(parseHttpDate("Friday, 01-Jan-27 00:00:00 GMT", NOW)).toBe(Date.UTC(2027, 0, 1));
  });

  it.each([
    "",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "sun, 06 nov 1994 08:49:37 gmt",
    "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sun, 06 Nov 1994 08:49:37 +0000",
    "Sun, 06 Nov 1994 08:49 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:60:00 GMT",
    // A leap second, a wrong weekday, a year of three digits.
    "Sat, 31 Dec 2016 23:59:60 GMT",
    "Mon, 06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 994 08:49:37 GMT",
    "Sunaday, 06-Nov-94 08:49:37 GMT",
    "Sun,  06 Nov 1994 08:49:37 GMT",
    " Sun, 06 Nov 1994 08:49:37 GMT",
    "Sun, 06-Nov-94 08:49:37 GMT",
    "Sunday, 06-Nov-1994 08:49:37 GMT",
    "Sun Nov 6 08:49:37 1994",
    "Sun Nov  6 08:49:37 1994 GMT",
    "1994-11-06T08:49:37Z",
    "784111777",
  ])("refuses %j", (text) => {
    expect(parseHttpDate(text, NOW)).toBeNull();
  });
});
