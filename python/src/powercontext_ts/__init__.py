"""PowerContext Python client for this repository's contract: ``Client``, its errors, the generated layer.

``Client`` is ``powercontext_runtime`` plus the generated layer of ``openapi.yaml``
(``powercontext_ts._generated``); the released ``powercontext`` package is not needed.
"""

from powercontext_runtime import (
    ClientError,
    ConflictError,
    ForbiddenResponseError,
    InvalidRequestError,
    InvalidResponseError,
    NotFoundError,
    OperationCancelledError,
    OperationFailedError,
    OperationNotServedError,
    OperationPendingError,
    PollPolicy,
    RetryBudget,
    RetryOptions,
    ServerResponseError,
    TimeoutError,
    TransportError,
    UnauthorizedResponseError,
    UnavailableResponseError,
)
from powercontext_ts._generated.errors import OperationBlockedError, ProcessingBlockStaleError, VersionConflictError
from powercontext_ts.client import DEFAULT_DEADLINE, Client

__all__ = [
    "DEFAULT_DEADLINE",
    "Client",
    "ClientError",
    "ConflictError",
    "ForbiddenResponseError",
    "InvalidRequestError",
    "InvalidResponseError",
    "NotFoundError",
    "OperationBlockedError",
    "OperationCancelledError",
    "OperationFailedError",
    "OperationNotServedError",
    "OperationPendingError",
    "PollPolicy",
    "ProcessingBlockStaleError",
    "RetryBudget",
    "RetryOptions",
    "ServerResponseError",
    "TimeoutError",
    "TransportError",
    "UnauthorizedResponseError",
    "UnavailableResponseError",
    "VersionConflictError",
]
