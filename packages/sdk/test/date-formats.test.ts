// A date-time the server's parser cannot read is refused before sending: the pattern
// alone would let through a 30 February or a thirteenth month.
import { describe, expect, it } from "vitest";
import { captureWorkingNoteValidators } from "../src/generated/validator-map.js";

const note = (expires_at: string) => ({
  scope_id: "s1",
  source_id: "note-1",
  content: "Remember the release checklist.",
  session_id: "session-1",
  note_kind: "validation",
  expires_at,
});

describe("date-time formats", () => {
  const validate = captureWorkingNoteValidators.request;

  it.each(["2030-02-28T10:00:00Z", "2028-02-29T10:00:00Z", "2000-02-29T10:00:00+01:00", "2030-12-31T23:59:59Z"])(
    "accepts %s",
    (value) => {
      expect(validate(note(value)), JSON.stringify(validate.errors)).toBe(true);
    },
  );

  it.each([
    "2030-02-30T10:00:00Z",
    "2030-02-29T10:00:00Z",
    "1900-02-29T10:00:00Z",
    "2030-04-31T10:00:00Z",
    "2030-13-01T10:00:00Z",
    "2030-00-10T10:00:00Z",
    "2030-01-00T10:00:00Z",
  ])("refuses %s as no day of the calendar", (value) => {
    expect(validate(note(value))).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: "format", instancePath: "/expires_at" });
  });
});
