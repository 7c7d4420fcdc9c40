/**
 * A usage problem found by the CLI itself (bad value, missing configuration).
 * `describeFailure` in errors.ts prints it as one `error:` line with exit code 2.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
