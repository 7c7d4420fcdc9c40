"""A small typed runtime for generated Python layers: any generated layer plus this is a client.

``Client(base_url, layer=Layer.of(operations, extensions, errors), token=...)`` calls any
operation of the layer with retries by retry class, backoff with jitter, ``Retry-After``
up to a cap, one total deadline, a client-wide retry budget, guarded reconciliation,
polling of accepted operations, the error envelope with the Python Client SDK's error
names, and the token kept out of every error. Built on httpx and pydantic only.
"""

from powercontext_runtime.call import Result, RetryEvent
from powercontext_runtime.client import DEFAULT_DEADLINE, DEFAULT_OPERATION_DEADLINE, Client, Submission
from powercontext_runtime.descriptor import (
    AsyncSpec,
    ErrorCode,
    NotServedSpec,
    OperationExtensions,
    OperationLike,
    PaginationSpec,
    ParameterSpec,
    ReconcileSpec,
)
from powercontext_runtime.errors import (
    AuthenticationError,
    ClientError,
    ConfigurationError,
    ConflictError,
    ForbiddenResponseError,
    GuardedConflictError,
    InternalServerError,
    InvalidRequestError,
    InvalidResponseError,
    NotFoundError,
    OperationCancelledError,
    OperationFailedError,
    OperationNotServedError,
    OperationPendingError,
    PermissionDeniedError,
    RateLimitError,
    ServerResponseError,
    ServiceUnavailableError,
    TimeoutError,
    TransportError,
    UnauthorizedResponseError,
    UnavailableResponseError,
    UnprocessableEntityError,
)
from powercontext_runtime.layer import Layer, UnknownOperationError
from powercontext_runtime.polling import PollPolicy
from powercontext_runtime.retry import RetryBudget, RetryOptions

__all__ = [
    "DEFAULT_DEADLINE",
    "DEFAULT_OPERATION_DEADLINE",
    "AsyncSpec",
    "AuthenticationError",
    "Client",
    "ClientError",
    "ConfigurationError",
    "ConflictError",
    "ErrorCode",
    "ForbiddenResponseError",
    "GuardedConflictError",
    "InternalServerError",
    "InvalidRequestError",
    "InvalidResponseError",
    "Layer",
    "NotFoundError",
    "NotServedSpec",
    "OperationCancelledError",
    "OperationExtensions",
    "OperationFailedError",
    "OperationLike",
    "OperationNotServedError",
    "OperationPendingError",
    "PaginationSpec",
    "ParameterSpec",
    "PermissionDeniedError",
    "PollPolicy",
    "RateLimitError",
    "ReconcileSpec",
    "Result",
    "RetryBudget",
    "RetryEvent",
    "RetryOptions",
    "ServerResponseError",
    "ServiceUnavailableError",
    "Submission",
    "TimeoutError",
    "TransportError",
    "UnauthorizedResponseError",
    "UnavailableResponseError",
    "UnknownOperationError",
    "UnprocessableEntityError",
]
