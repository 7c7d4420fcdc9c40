"""Errors the client adds to the released Python client's (``powercontext.client``).

Server answers stay ``ServerResponseError``s: the two contract errors of background
Operations are subclasses of it, so code written for the released client keeps
working. Waiting adds three errors of its own, all ``ClientError``s.
"""

from __future__ import annotations

from typing import Any

from powercontext.client import ClientError, ServerResponseError

#: The error codes that get their own class (names from the contract's 409 responses).
OPERATION_BLOCKED = "operation_blocked"
VERSION_CONFLICT = "version_conflict"


class OperationBlockedError(ServerResponseError):
    """``409 operation_blocked``: a failed Operation holds the window.

    ``operation_id`` is that Operation's id (``details.operation_id``), or None when the
    Server did not send it; retry or cancel it to release the window.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        value = (self.details or {}).get("operation_id")
        self.operation_id: str | None = value if isinstance(value, str) else None


class VersionConflictError(ServerResponseError):
    """``409 version_conflict``: ``expected_version`` no longer matches.

    ``current_version`` is ``details.current_version`` when the Server sent it.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        value = (self.details or {}).get("current_version")
        self.current_version: int | None = value if isinstance(value, int) and not isinstance(value, bool) else None


class OperationPendingError(ClientError):
    """The deadline passed while the Operation was still queued or running.

    ``operation_id`` names it (resume with ``Client.wait_for_operation``); ``last_known``
    is the last Operation read, or None when none was read.
    """

    def __init__(self, operation_id: str, last_known: Any = None) -> None:
        self.operation_id = operation_id
        self.last_known = last_known
        super().__init__(f"PowerContext operation {operation_id} is still pending")


class OperationFailedError(ClientError):
    """The Operation reached ``failed``; ``category`` and ``code`` classify why."""

    def __init__(self, operation_id: str, operation: Any, category: str | None, code: str | None) -> None:
        self.operation_id = operation_id
        self.operation = operation
        self.category = category
        self.code = code
        label = "/".join(part for part in (category, code) if part)
        super().__init__(f"PowerContext operation {operation_id} failed" + (f" ({label})" if label else ""))


class OperationCancelledError(ClientError):
    """The Operation reached ``cancelled``."""

    def __init__(self, operation_id: str, operation: Any) -> None:
        self.operation_id = operation_id
        self.operation = operation
        super().__init__(f"PowerContext operation {operation_id} was cancelled")


_BY_CODE: dict[str, type[ServerResponseError]] = {
    OPERATION_BLOCKED: OperationBlockedError,
    VERSION_CONFLICT: VersionConflictError,
}


def typed(error: ServerResponseError) -> ServerResponseError:
    """The contract error class for a 409 the released client raised, or ``error`` itself."""

    cls = _BY_CODE.get(error.code or "") if error.status_code == 409 else None
    if cls is None:
        return error
    return cls(
        status_code=error.status_code,
        request_id=error.request_id,
        code=error.code,
        message=error.server_message,
        details=error.details,
    )
