import { declareErrorClass } from "./error-brand.js";
import { NotFoundError, type ServerErrorInit } from "./errors.js";

/**
 * The server does not serve this operation at all: it answered the operation's
 * declared "not served" status (404) without an error code, the way a server
 * that predates the operation answers an unknown route. The spec says so with
 * `x-powercontext-not-served` (docs/architecture.md); for the Operation API a
 * PowerContext 1.4.1 server is such a server. Still a {@link NotFoundError}
 * (`statusCode` 404, `code` null), so existing `instanceof` checks keep working.
 *
 * The message reads `PowerContext server responded 404: <hint>`.
 */
export class OperationNotServedError extends NotFoundError {
  static {
    declareErrorClass(OperationNotServedError, "OperationNotServedError");
  }
  /** The spec's sentence about what this means, such as "this server has no Operation API; ...". */
  declare readonly hint: string;
  constructor(init: ServerErrorInit, hint: string) {
    super(init);
    this.hint = hint;
    this.message = `${this.message}: ${hint}`;
  }
}
