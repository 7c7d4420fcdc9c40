"""PowerContext Python client for this repository's contract: the generated layer and ``Client``."""

from powercontext_ts.client import DEFAULT_DEADLINE, Client
from powercontext_ts.errors import (
    OperationBlockedError,
    OperationCancelledError,
    OperationFailedError,
    OperationPendingError,
    VersionConflictError,
)
from powercontext_ts.waiting import PollPolicy

__all__ = [
    "DEFAULT_DEADLINE",
    "Client",
    "OperationBlockedError",
    "OperationCancelledError",
    "OperationFailedError",
    "OperationPendingError",
    "PollPolicy",
    "VersionConflictError",
]
