"""What the runtime knows about an operation: the shapes a generated layer fills in.

A generated layer is three modules: ``operations`` (one ``Operation`` per operation, the
Python Client SDK 1.4.1 format), ``models`` (pydantic) and ``extensions``, which imports
these classes and writes one ``OperationExtensions`` per operation plus the spec's error
codes and request-id header. The runtime never imports generated code; it is handed a
``Layer`` (``layer.py``). Every wire name the runtime reads comes from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

RetryClass = Literal["safe", "replay", "guarded", "never"]
MediaKind = Literal["json", "text", "binary", "none"]
ParameterLocation = Literal["path", "query", "header", "cookie"]

RequestT_co = TypeVar("RequestT_co", covariant=True)
ResponseT_co = TypeVar("ResponseT_co", covariant=True)


class OperationLike(Protocol[RequestT_co, ResponseT_co]):
    """The members of the generated ``Operation`` the runtime reads."""

    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def operation_id(self) -> str: ...
    @property
    def request_type(self) -> type[RequestT_co] | None: ...
    @property
    def request_location(self) -> Literal["body", "query"] | None: ...
    @property
    def response_type(self) -> type[ResponseT_co] | None: ...
    @property
    def path_parameters(self) -> tuple[str, ...]: ...
    @property
    def success_status(self) -> int: ...


@dataclass(frozen=True)
class ParameterSpec:
    """One path, query or header parameter (OpenAPI ``in``, ``style``, ``explode``)."""

    name: str
    location: ParameterLocation
    required: bool = False
    style: str = "form"
    explode: bool = True


@dataclass(frozen=True)
class AsyncSpec:
    """``x-powercontext-async``: the operation may answer ``accepted_status`` and run on.

    ``poll_operation`` reads the resource; its ``status_field`` reaches one of the terminal
    states; ``result_field`` of a succeeded one is the call's result. Without a ``Location``
    the accepted body's ``operation_id_field`` names the resource.
    """

    accepted_status: int
    accepted_type: type[Any] | None
    poll_operation: str
    result_field: str
    operation_id_field: str = "operation_id"
    status_field: str = "status"
    error_field: str = "error"
    succeeded: tuple[str, ...] = ("succeeded",)
    failed: tuple[str, ...] = ("failed",)
    cancelled: tuple[str, ...] = ("cancelled",)


@dataclass(frozen=True)
class ReconcileSpec:
    """``x-powercontext-reconcile``: how a guarded conflict after a lost attempt is checked."""

    read_operation: str
    id_parameter: str
    holds_when_status: tuple[str, ...]
    version_field: str = "version"
    expected_version_field: str = "expected_version"
    status_field: str = "status"
    conflict_code: str = "version_conflict"


@dataclass(frozen=True)
class PaginationSpec:
    """``x-powercontext-pagination``: follow ``next_cursor_field`` through ``cursor_parameter``."""

    cursor_parameter: str
    next_cursor_field: str
    items_field: str


@dataclass(frozen=True)
class NotServedSpec:
    """``x-powercontext-not-served``: a server without the operation answers ``status`` with no
    error code; the error then ends with ``message``."""

    status: int
    message: str


@dataclass(frozen=True)
class ErrorCode:
    """A row of ``x-powercontext-error-codes``: a ``transient: False`` code of a 429 or 5xx is never re-sent."""

    status: int
    transient: bool


@dataclass(frozen=True)
class OperationExtensions:
    """Everything about one operation beyond its ``Operation``.

    ``success_statuses`` are every declared 2xx (the accepted one included);
    ``response_kinds`` and ``response_types`` say how each declared status is read (a
    status not listed is JSON of no model); ``response_media_kinds`` how an answer of
    another media type the status declares is read (a Markdown report, by its
    ``Content-Type``); ``default_response`` is true when the spec
    declares a ``default`` response (its body, an error, is read as JSON).
    ``parameters_type`` is the generated model of the query and header parameters, which
    validates them before anything is sent.
    """

    operation_id: str
    retry_class: RetryClass
    permission: str | None = None
    async_: AsyncSpec | None = None
    reconcile: ReconcileSpec | None = None
    pagination: PaginationSpec | None = None
    not_served: NotServedSpec | None = None
    success_statuses: tuple[int, ...] = ()
    response_kinds: dict[int, MediaKind] = field(default_factory=dict)
    response_types: dict[int, type[Any] | None] = field(default_factory=dict)
    response_media_kinds: dict[int, dict[str, MediaKind]] = field(default_factory=dict)
    default_response: bool = False
    parameters: tuple[ParameterSpec, ...] = ()
    parameters_type: type[Any] | None = None
