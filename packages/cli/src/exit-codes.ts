/**
 * Process exit codes of `powercontext-ts`.
 *
 * Scripts can rely on these numbers; they never change meaning between
 * versions:
 *
 * | code | meaning |
 * | --- | --- |
 * | 0 | the command did what was asked |
 * | 1 | the server answered with an error, could not be reached, or an awaited operation failed or was cancelled |
 * | 2 | bad usage: unknown option, missing argument, malformed value, invalid configuration, a request the SDK refused to send |
 * | 3 | an awaited operation was still queued or running when the deadline passed; wait again with `operations wait ID` |
 * | 130 | waiting was interrupted (Ctrl-C); the operation goes on, wait again with `operations wait ID` |
 */
export const ExitCode = {
  /** Success. */
  Ok: 0,
  /** Server, transport or operation failure. */
  Failure: 1,
  /** Bad usage or configuration; nothing was changed on the server. */
  Usage: 2,
  /** The awaited operation was still pending at the deadline. */
  Pending: 3,
  /** Waiting was interrupted by SIGINT (128 + 2, the shell convention). */
  Interrupted: 130,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
