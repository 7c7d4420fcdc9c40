"""Every error the runtime raises, with the Python Client SDK's names.

``ClientError`` is the base. ``TransportError`` (no valid answer), ``InvalidResponseError``
(a success that breaks the contract) and ``ServerResponseError`` (an error status, with
the envelope's ``code``, ``server_message`` and ``details``) keep the release's names and
members; ``UnauthorizedResponseError``, ``ForbiddenResponseError`` and
``UnavailableResponseError`` are the release's status classes, and ``NotFoundError``,
``ConflictError``, ``UnprocessableEntityError``, ``RateLimitError`` and
``InternalServerError`` complete the TypeScript runtime's set. A spec's contract errors
(its registry's classes) are generated and extend these. No error ever holds the token.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any

#: What may stand in ``details`` (the envelope's JSON object).
Details = dict[str, Any]


class ClientError(Exception):
    """Base of every error the runtime raises.

    ``request_id`` is the server's request id when an answer carried one; ``code`` is the
    envelope's code on ``ServerResponseError``, else an ``ERR_*`` constant of the runtime.
    """

    code: str | None = None
    request_id: str | None = None
    #: True when the client's retry budget could not pay for a retry the policy allowed.
    retry_budget_exhausted: bool = False


class ConfigurationError(ClientError, ValueError):
    """The client was given options it cannot work with (raised by the constructor)."""

    code = "ERR_CONFIGURATION"


class InvalidRequestError(ClientError, ValueError):
    """The request breaks the contract; nothing was sent. ``issues`` say where."""

    code = "ERR_INVALID_REQUEST"

    def __init__(self, message: str, issues: list[str] | None = None) -> None:
        self.issues = list(issues or [])
        super().__init__(message)


class TransportError(ClientError):
    """No valid HTTP answer arrived.

    ``phase`` is ``"connect"`` when the request provably never left (it may be re-sent
    whatever the retry class), ``"exchange"`` when it may have reached the server.
    """

    code = "ERR_TRANSPORT"

    def __init__(self, path: str, *, phase: str = "exchange", reason: str | None = None) -> None:
        self.path = path
        self.phase = phase
        super().__init__(f"request to {path} failed" + (f": {reason}" if reason else ""))


class TimeoutError(TransportError, builtins.TimeoutError):  # noqa: A001 - the TypeScript runtime's name, and a builtins.TimeoutError
    """An attempt ran past its timeout (``limit="attempt"``), or the call's total deadline passed (``limit="deadline"``)."""

    code = "ERR_TIMEOUT"

    def __init__(self, path: str, *, limit: str, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        TransportError.__init__(self, path, phase="exchange", reason=f"{'deadline' if limit == 'deadline' else 'timeout'} of {seconds:g} s")


class InvalidResponseError(ClientError):
    """A success answer that violates the contract (shape, media type, encoding)."""

    code = "ERR_INVALID_RESPONSE"

    def __init__(self, path: str, *, request_id: str | None, status_code: int | None = None, issues: list[str] | None = None) -> None:
        self.path = path
        self.request_id = request_id
        self.status_code = status_code
        self.issues = list(issues or [])
        super().__init__(f"response from {path} violated the API schema" + (f": {'; '.join(self.issues[:3])}" if self.issues else ""))


class ServerResponseError(ClientError):
    """The server answered an error status.

    ``code``, ``server_message`` and ``details`` come from the error envelope
    ``{"error": {"code", "message", "details"}}`` (all None without it); ``body`` keeps the
    first 8 KiB of a body that is not the envelope. ``retry_after`` is the answer's
    ``Retry-After`` in seconds, or None.
    """

    def __init__(
        self,
        *,
        status_code: int,
        request_id: str | None,
        code: str | None = None,
        message: str | None = None,
        details: Details | None = None,
        retry_after: float | None = None,
        body: str | None = None,
    ) -> None:
        self.status_code = status_code
        self.request_id = request_id
        self.code = code
        self.server_message = message
        self.details = details
        self.retry_after = retry_after
        self.body = body
        suffix = "" if code is None else f" ({code})"
        super().__init__(f"server returned HTTP {status_code}{suffix}")


class UnauthorizedResponseError(ServerResponseError):
    """401: the credential is missing or not accepted."""


class ForbiddenResponseError(ServerResponseError):
    """403: the principal may not do this."""


class NotFoundError(ServerResponseError):
    """404."""


class ConflictError(ServerResponseError):
    """409: the request contradicts state the server holds."""


class UnprocessableEntityError(ServerResponseError):
    """422: the server refused the request's content."""


class RateLimitError(ServerResponseError):
    """429."""


class InternalServerError(ServerResponseError):
    """A 5xx without a class of its own."""


class UnavailableResponseError(InternalServerError):
    """503: something the operation depends on is unavailable."""


AuthenticationError = UnauthorizedResponseError
PermissionDeniedError = ForbiddenResponseError
ServiceUnavailableError = UnavailableResponseError

#: The class each status gets before a contract class is looked up.
ERRORS_BY_STATUS: dict[int, type[ServerResponseError]] = {
    401: UnauthorizedResponseError,
    403: ForbiddenResponseError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    503: UnavailableResponseError,
}


def status_class(status_code: int) -> type[ServerResponseError]:
    """The runtime's class for an error status."""

    return ERRORS_BY_STATUS.get(status_code) or (InternalServerError if status_code >= 500 else ServerResponseError)


class OperationNotServedError(NotFoundError):
    """The server does not serve this operation: it answered the spec's not-served status
    (``x-powercontext-not-served``) without an error code. ``hint`` is the spec's sentence."""

    def __init__(self, hint: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hint = hint
        self.args = (f"{self.args[0]}: {hint}",)


class GuardedConflictError(ConflictError):
    """The conflict a guarded operation meets when the state it names has moved; the base of
    the generated class of the reconcile conflict code.

    ``current`` is the resource reconciliation read (None when not read);
    ``outcome_unknown`` is True when an earlier attempt of the call got no answer and the
    resource does not show that the call's change, and only it, took effect.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.current: Any = None
        self.outcome_unknown = False

    def with_unknown_outcome(self, current: Any, status_field: str | None = None, version_field: str | None = None) -> GuardedConflictError:
        """Records the resource read after a lost attempt and says so in the message; returns self."""

        self.current = current
        self.outcome_unknown = True
        status = current.get(status_field) if isinstance(current, dict) and status_field else None
        version = current.get(version_field) if isinstance(current, dict) and version_field else None
        now = f"; the resource is now {status} at version {version}" if isinstance(status, str) and isinstance(version, int) else ""
        self.args = (f"{self.args[0]} (an earlier attempt of this call got no answer and its outcome is unknown{now})",)
        return self


class OperationPendingError(ClientError):
    """The deadline passed while the operation was still running. ``operation_id`` names it
    (resume with ``wait_for_operation``); ``last_known`` is the last resource read, or None."""

    code = "ERR_OPERATION_PENDING"

    def __init__(self, operation_id: str, last_known: Any = None) -> None:
        self.operation_id = operation_id
        self.last_known = last_known
        super().__init__(f"operation {operation_id} is still pending")


class OperationFailedError(ClientError):
    """The operation ended failed; ``category`` and ``code`` are its bounded classification
    (the resource's error member), each None when absent."""

    def __init__(self, operation_id: str, operation: Any, category: str | None, code: str | None) -> None:
        self.operation_id = operation_id
        self.operation = operation
        self.category = category
        self.code = code
        label = "/".join(part for part in (category, code) if part)
        super().__init__(f"operation {operation_id} failed" + (f" ({label})" if label else ""))


class OperationCancelledError(ClientError):
    """The operation ended cancelled."""

    code = "ERR_OPERATION_CANCELLED"

    def __init__(self, operation_id: str, operation: Any) -> None:
        self.operation_id = operation_id
        self.operation = operation
        super().__init__(f"operation {operation_id} was cancelled")


#: A spec's generated contract classes by envelope code: ``{code: (status, class)}``.
ContractErrors = Mapping[str, tuple[int, type[ServerResponseError]]]
