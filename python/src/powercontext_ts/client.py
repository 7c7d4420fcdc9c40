"""``Client``: the PowerContext client, our runtime plus the generated layer of ``openapi.yaml``.

Every request goes through ``powercontext_runtime`` (httpx and pydantic); the released
``powercontext`` package is not needed, and nothing private of it is used. Which
operation polls, which status means accepted, which field carries the result, how a
guarded call is reconciled and what a server without the Operation API answers all come
from the generated ``extensions``; the methods below only give the Operation API typed
Python signatures.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx
from pydantic import BaseModel

from powercontext_runtime import Client as RuntimeClient
from powercontext_runtime import Layer, PollPolicy, RetryBudget, RetryEvent, RetryOptions
from powercontext_runtime.client import merged_headers
from powercontext_ts._generated import errors as contract_errors
from powercontext_ts._generated import extensions, operations
from powercontext_ts._generated.models import FlushMemoryRequest, FlushMemoryResponse, OperationPage
from powercontext_ts._generated.models import Operation as OperationModel

#: Default total deadline of ``flush_memory`` and ``wait_for_operation``, seconds.
DEFAULT_DEADLINE = 60.0
#: Where ``Client()`` without a base URL sends requests, as the Python Client SDK does.
DEFAULT_SERVER_URL = "http://127.0.0.1:8000"

LAYER = Layer.of(operations, extensions, contract_errors)


class Client(RuntimeClient):
    """Asynchronous PowerContext client.

    Args:
        base_url: the server; default ``POWERCONTEXT_CLIENT_SERVER_URL``, else
            ``http://127.0.0.1:8000``. Plaintext ``http://`` only to loopback unless
            ``allow_insecure_http`` (or ``trust_transport_security`` with your own
            ``http_client``).
        token: the bearer token; default ``POWERCONTEXT_CLIENT_API_TOKEN``.
        timeout: seconds per attempt (default 10). poll: bounds of the wait between polls
            (0.2 s to 5 s). retry, retry_budget, on_retry, tracer, headers, deadline, clock, sleep:
            as ``powercontext_runtime.Client`` (clock and sleep are for tests and simulations).

    Errors: ``powercontext_runtime``'s (``ServerResponseError`` and its status classes,
    ``TransportError``, ``InvalidRequestError``, ``InvalidResponseError``, ...), the
    contract errors of ``_generated.errors`` (``OperationBlockedError``,
    ``VersionConflictError``, ...), and ``OperationPendingError``, ``OperationFailedError``,
    ``OperationCancelledError`` from waiting; ``OperationNotServedError`` when the server
    has no Operation API.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        token: str | None = None,
        timeout: float = 10.0,
        http_client: httpx.AsyncClient | None = None,
        trust_transport_security: bool = False,
        allow_insecure_http: bool = False,
        poll: PollPolicy | None = None,
        retry: RetryOptions | None = None,
        retry_budget: RetryBudget | None = None,
        on_retry: Callable[[RetryEvent], None] | None = None,
        tracer: Any | None = None,
        headers: Mapping[str, str] | None = None,
        deadline: float = 120.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        url = base_url if base_url is not None else os.environ.get("POWERCONTEXT_CLIENT_SERVER_URL", DEFAULT_SERVER_URL)
        secret = token if token is not None else os.environ.get("POWERCONTEXT_CLIENT_API_TOKEN") or None
        super().__init__(
            url,
            layer=LAYER,
            token=secret,
            timeout=timeout,
            deadline=deadline,
            operation_deadline=DEFAULT_DEADLINE,
            retry=retry,
            retry_budget=retry_budget,
            poll=poll,
            # The spec's client headers, then the caller's: a header the caller sets, in any case, wins.
            headers=merged_headers(extensions.CLIENT_HEADERS, headers),
            http_client=http_client,
            allow_insecure_http=allow_insecure_http or (trust_transport_security and http_client is not None),
            on_retry=on_retry,
            tracer=tracer,
            clock=clock,
            sleep=sleep,
        )

    async def __aenter__(self) -> Client:
        return self

    # -- generic -------------------------------------------------------------------------------

    async def call(
        self,
        operation_id: str,
        request: BaseModel | Mapping[str, Any] | None = None,
        *,
        params: Mapping[str, Any] | None = None,
        path_parameters: Mapping[str, str | int] | None = None,
        query_parameters: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
    ) -> Any:
        """Any operation with its synchronous meaning (``powercontext_runtime.Client.call``).

        ``params`` (or the Python Client SDK's ``path_parameters`` and ``query_parameters``)
        holds path, query and header parameters by wire name; they and ``request`` are
        validated against the contract before anything is sent (``InvalidRequestError``).
        """

        merged = {**(path_parameters or {}), **(query_parameters or {}), **(params or {})}
        return await super().call(operation_id, request, params=merged or None, headers=headers, timeout=timeout, deadline=deadline)

    # -- background Operations --------------------------------------------------------------------

    async def flush_memory(self, request: FlushMemoryRequest | Mapping[str, Any], *, deadline: float = DEFAULT_DEADLINE) -> FlushMemoryResponse:
        """Turns a scope's pending Sources into Memory, with the call's synchronous meaning.

        Submits once; a ``200`` answer is returned as is. On the accepted status the
        Operation is polled until terminal within ``deadline`` seconds (counted from this
        call) and its result is returned as the same model.

        Raises:
            OperationBlockedError: ``409 operation_blocked``; ``operation_id`` is the blocking Operation.
            OperationPendingError: still queued or running at the deadline; carries the operation id.
            OperationFailedError, OperationCancelledError: the Operation ended so.
            InvalidResponseError: an accepted answer that names no Operation (or one by an id
                that cannot be a path segment), or a result that is not the response model.
        """

        result: FlushMemoryResponse = await self.call("flush_memory", request, deadline=deadline)
        return result

    async def run_to_completion(
        self,
        operation_id: str,
        request: BaseModel | Mapping[str, Any] | None = None,
        *,
        params: Mapping[str, Any] | None = None,
        deadline: float = DEFAULT_DEADLINE,
    ) -> Any:
        """``flush_memory``'s behaviour for any operation with an accepted status."""

        return await self.call(operation_id, request, params=params, deadline=deadline)

    async def wait_for_operation(  # type: ignore[override] # the PowerContext signature: an id and a deadline
        self, operation_id: str, deadline: float = DEFAULT_DEADLINE
    ) -> OperationModel:
        """Polls the Operation ``operation_id`` until it succeeded and returns it.

        ``deadline`` is the total budget in seconds. Raises ``OperationPendingError`` when it
        passes first, ``OperationFailedError`` / ``OperationCancelledError`` for those ends,
        and the poll's own errors (``404`` and so on) as they come.
        """

        done: OperationModel = await super().wait_for_operation(operation_id, deadline=deadline)
        return done

    async def get_operation(self, operation_id: str) -> OperationModel:
        """Reads one Operation as it is now."""

        found: OperationModel = await super().call("get_operation", params={"operation_id": operation_id})
        return found

    async def list_operations(self, scope_id: str, **filters: Any) -> OperationPage:
        """One page of a scope's Operations; ``filters`` are the other query parameters
        (``status``, ``kind``, ``cursor``, ``limit``); None ones are left out."""

        given = {key: getattr(value, "value", value) for key, value in filters.items() if value is not None}
        page: OperationPage = await super().call("list_operations", params={"scope_id": scope_id, **given})
        return page

    async def cancel_operation(self, operation_id: str, expected_version: int) -> OperationModel:
        """Cancels a queued or failed Operation if its version still is ``expected_version``.

        Raises ``VersionConflictError`` when it is not, ``ConflictError`` 409
        ``invalid_operation_transition`` from a status that cannot be cancelled.
        """

        done: OperationModel = await super().call("cancel_operation", {"expected_version": expected_version}, params={"operation_id": operation_id})
        return done

    async def retry_operation(self, operation_id: str, expected_version: int) -> OperationModel:
        """Queues a failed Operation again if its version still is ``expected_version`` (errors as ``cancel_operation``)."""

        done: OperationModel = await super().call("retry_operation", {"expected_version": expected_version}, params={"operation_id": operation_id})
        return done


__all__ = ["DEFAULT_DEADLINE", "DEFAULT_SERVER_URL", "LAYER", "Client", "RetryEvent"]
