"""``Client``: background Operations on top of the released ``PowerContextClient``.

Every request goes through the released client's ``_request`` with an ``Operation``
object of our generated layer (``_generated.operations``), so the installed package
is used as it is and never patched. What an operation does beyond one request (an
accepted status and the resource to poll) comes from ``_generated.extensions``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import httpx
from powercontext.client import (
    InvalidResponseError,
    PowerContextClient,
    ServerResponseError,
)
from pydantic import BaseModel

from powercontext_ts import registry
from powercontext_ts.errors import typed
from powercontext_ts.waiting import PollPolicy, retry_after_seconds, wait_until_terminal

#: Default total deadline of ``flush_memory`` and ``wait_for_operation``, seconds.
DEFAULT_DEADLINE = 60.0


class Client:
    """Asynchronous client: the released client's transport, errors and rules, plus Operations.

    Args:
        base_url, token, timeout, http_client, trust_transport_security, allow_insecure_http:
            passed to ``powercontext.client.PowerContextClient`` unchanged (``timeout`` is
            per request, seconds; plaintext ``http://`` only to loopback unless allowed).
        poll: bounds of the wait between two polls (default 0.2 s to 5 s).

    Errors are the released client's (``ServerResponseError`` and its subclasses,
    ``InvalidResponseError``, ``TransportError``), with ``OperationBlockedError`` and
    ``VersionConflictError`` for those 409s, and ``OperationPendingError``,
    ``OperationFailedError``, ``OperationCancelledError`` from waiting.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        token: str | None = None,
        timeout: float = 10.0,
        http_client: httpx.AsyncClient | None = None,
        trust_transport_security: bool = False,
        allow_insecure_http: bool | None = None,
        poll: PollPolicy | None = None,
    ) -> None:
        self.base = PowerContextClient(
            base_url,
            token=token,
            timeout=timeout,
            http_client=http_client,
            trust_transport_security=trust_transport_security,
            allow_insecure_http=allow_insecure_http,
        )
        self._poll = poll or PollPolicy()

    async def __aenter__(self) -> Client:
        await self.base.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.base.__aexit__(*exc)

    async def aclose(self) -> None:
        """Closes the HTTP client the released client opened (never an injected one)."""

        await self.base.aclose()

    # -- generic -------------------------------------------------------------------------------

    async def call(
        self,
        operation_id: str,
        request: BaseModel | Mapping[str, Any] | None = None,
        *,
        path_parameters: Mapping[str, str | int] | None = None,
        query_parameters: Mapping[str, Any] | None = None,
        response_headers: dict[str, str] | None = None,
    ) -> Any:
        """One request of ``operation_id`` through the released client's ``_request``.

        A mapping ``request`` is validated into the operation's request model first, so a
        bad argument raises ``pydantic.ValidationError`` before anything is sent.
        """

        operation = registry.operation(operation_id)
        return await self._send(operation, request, path_parameters, query_parameters, response_headers)

    async def _send(
        self,
        operation: Any,
        request: BaseModel | Mapping[str, Any] | None,
        path_parameters: Mapping[str, str | int] | None,
        query_parameters: Mapping[str, Any] | None,
        response_headers: dict[str, str] | None,
    ) -> Any:
        model = _request_model(operation, request)
        try:
            return await self.base._request(  # noqa: SLF001 - the released client's documented extension point
                operation,
                model,
                path_parameters=path_parameters,
                query_parameters=query_parameters,
                response_headers=response_headers,
            )
        except ServerResponseError as error:
            converted = typed(error)
            if converted is error:
                raise
            raise converted from error

    # -- background Operations --------------------------------------------------------------------

    async def flush_memory(self, request: BaseModel | Mapping[str, Any], *, deadline: float = DEFAULT_DEADLINE) -> Any:
        """Turns a scope's pending Sources into Memory, with the call's synchronous meaning.

        Submits once; a ``200`` answer is returned as the response model. On the accepted
        status the Operation is polled until terminal within ``deadline`` seconds (counted
        from this call) and its result is returned as the same response model.

        Raises:
            OperationBlockedError: ``409 operation_blocked``; ``operation_id`` is the blocking Operation.
            OperationPendingError: still queued or running at the deadline; carries the operation id.
            OperationFailedError, OperationCancelledError: the Operation ended so.
            InvalidResponseError: an accepted answer that names no Operation, or a result that
                is not the response model.
        """

        return await self.run_to_completion("flush_memory", request, deadline=deadline)

    async def run_to_completion(
        self,
        operation_id: str,
        request: BaseModel | Mapping[str, Any] | None = None,
        *,
        path_parameters: Mapping[str, str | int] | None = None,
        deadline: float = DEFAULT_DEADLINE,
    ) -> Any:
        """``flush_memory``'s behaviour for any operation with an accepted status (see there)."""

        deadline_at = time.monotonic() + deadline
        operation = registry.operation(operation_id)
        accepted = registry.async_of(operation_id)
        if accepted.accepted_type is None:
            raise ValueError(f"{operation_id}: the accepted status carries no resource to poll")
        # one request whose answer is either the success model or the accepted resource
        submit = operation.model_copy(update={"response_type": operation.response_type | accepted.accepted_type})
        headers: dict[str, str] = {}
        answer = await self._send(submit, request, path_parameters, None, headers)
        if not isinstance(answer, accepted.accepted_type):
            return answer
        poll = registry.operation(accepted.poll_operation)
        location = next((v for k, v in headers.items() if k.lower() == "location"), None)
        operation_id_value = registry.id_from_location(location, poll) if location else None
        if operation_id_value is None:
            body_id = getattr(answer, poll.path_parameters[0], None) if poll.path_parameters else None
            operation_id_value = body_id if isinstance(body_id, str) and body_id else None
        if operation_id_value is None:
            raise InvalidResponseError(operation.path, request_id=_request_id(headers))
        done = await self._wait(operation_id_value, deadline_at, retry_after_seconds(headers))
        result = getattr(done, accepted.result_field, None)
        try:
            return operation.response_type.model_validate(result)
        except ValueError as exc:
            raise InvalidResponseError(poll.path, request_id=None) from exc

    async def wait_for_operation(self, operation_id: str, deadline: float = DEFAULT_DEADLINE) -> Any:
        """Polls the Operation ``operation_id`` until it succeeded and returns it.

        ``deadline`` is the total budget in seconds. Raises ``OperationPendingError`` when it
        passes first, ``OperationFailedError`` / ``OperationCancelledError`` for those ends,
        and the poll's own errors (``404`` and so on) as they come.
        """

        return await self._wait(operation_id, time.monotonic() + deadline, None)

    async def _wait(self, operation_id: str, deadline_at: float, first_wait: float | None) -> Any:
        poll = registry.operation(registry.poll_operation_id())

        async def read_once() -> tuple[Any, Mapping[str, str]]:
            headers: dict[str, str] = {}
            current = await self._send(poll, None, {poll.path_parameters[0]: operation_id}, None, headers)
            return current, headers

        return await wait_until_terminal(operation_id, read_once, deadline_at=deadline_at, policy=self._poll, first_wait=first_wait)

    async def get_operation(self, operation_id: str) -> Any:
        """Reads one Operation as it is now."""

        poll = registry.operation(registry.poll_operation_id())
        return await self._send(poll, None, {poll.path_parameters[0]: operation_id}, None, None)

    async def list_operations(self, scope_id: str, **filters: Any) -> Any:
        """One page of a scope's Operations; ``filters`` are the operation's other query
        parameters (``status``, ``kind``, ``cursor``, ``limit``), None ones left out."""

        return await self._query("list_operations", {"scope_id": scope_id, **filters})

    async def cancel_operation(self, operation_id: str, expected_version: int) -> Any:
        """Cancels a queued or failed Operation if its version still is ``expected_version``.

        Raises ``VersionConflictError`` when it is not, ``ServerResponseError`` 409
        ``invalid_operation_transition`` from a status that cannot be cancelled.
        """

        return await self._versioned("cancel_operation", operation_id, expected_version)

    async def retry_operation(self, operation_id: str, expected_version: int) -> Any:
        """Queues a failed Operation again if its version still is ``expected_version`` (errors as ``cancel_operation``)."""

        return await self._versioned("retry_operation", operation_id, expected_version)

    async def _versioned(self, operation_id: str, target: str, expected_version: int) -> Any:
        operation = registry.operation(operation_id)
        return await self._send(operation, {"expected_version": expected_version}, {operation.path_parameters[0]: target}, None, None)

    async def _query(self, operation_id: str, values: Mapping[str, Any]) -> Any:
        operation = registry.operation(operation_id)
        present = {k: getattr(v, "value", v) for k, v in values.items() if v is not None}
        if operation.request_type is not None:
            return await self._send(operation, present, None, None, None)
        return await self._send(operation, None, None, present, None)


def _request_model(operation: Any, request: BaseModel | Mapping[str, Any] | None) -> Any:
    if request is None or isinstance(request, BaseModel) or operation.request_type is None:
        return request
    return operation.request_type.model_validate(dict(request))


def _request_id(headers: Mapping[str, str]) -> str | None:
    return next((v for k, v in headers.items() if k.lower() == "x-powercontext-request-id"), None)
