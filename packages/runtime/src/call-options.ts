/**
 * Per-call options accepted by every client method (DESIGN §2, §4).
 *
 * The generated `methods.ts` imports this interface by this exact path and name.
 */
export interface CallOptions {
  /**
   * Cancels the call. Aborting rejects with `AbortError` promptly, including
   * while the client waits between retries or between operation polls.
   */
  signal?: AbortSignal;
  /**
   * Time limit for one HTTP attempt, in milliseconds, covering the response
   * headers and the body. Defaults to the client's `timeoutMs` (10 000 ms).
   */
  timeoutMs?: number;
  /**
   * Total budget for the whole call in milliseconds, counted from the call's
   * start: every attempt, every backoff wait and, for operations that answer
   * with an accepted status, the polling that follows. Defaults to the
   * client's `deadlineMs` (120 000 ms) for plain calls and to its
   * `operationDeadlineMs` (60 000 ms) for calls that poll.
   */
  deadlineMs?: number;
  /**
   * Extra request headers. They can never replace `Authorization`: a caller
   * header of that name throws `InvalidRequestError` before anything is sent.
   */
  headers?: Record<string, string>;
}
