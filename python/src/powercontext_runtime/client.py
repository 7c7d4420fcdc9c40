"""``Client``: any generated layer plus this runtime is a usable asynchronous client.

    client = Client("https://api.example.com", layer=Layer.of(operations, extensions), token=token)
    pet = await client.call("get_pet", params={"pet_id": 7})

Every call runs under one total deadline (``deadline`` seconds; 120 by default, 60 for a
call that polls), each attempt under ``timeout`` (10 s), with retries by the operation's
retry class, the client-wide retry budget, ``Retry-After`` up to ``retry.max_retry_after``,
and guarded reconciliation. An operation that may answer its accepted status is polled
to completion (``call``) or handed back (``submit``). The token is sent only in
``Authorization`` and appears in no error; plaintext ``http://`` goes only to loopback
unless ``allow_insecure_http``.
"""

from __future__ import annotations

import asyncio
import random as random_module
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from powercontext_runtime.answers import Redactor
from powercontext_runtime.call import CallEnvironment, Result, RetryEvent, run
from powercontext_runtime.descriptor import OperationExtensions, OperationLike
from powercontext_runtime.errors import ConfigurationError, ConflictError, InvalidRequestError, InvalidResponseError
from powercontext_runtime.layer import Layer
from powercontext_runtime.polling import PollPolicy, wait_until_terminal
from powercontext_runtime.reconcile import is_reconcile_conflict, member, reconcile
from powercontext_runtime.request import build_request, check_headers
from powercontext_runtime.retry import RetryBudget, RetryOptions
from powercontext_runtime.url import DOT_SEGMENT, id_from_location, normalize_base_url

ResponseT = TypeVar("ResponseT")

#: The default total deadline of a plain call and of a call that polls, seconds.
DEFAULT_DEADLINE = 120.0
DEFAULT_OPERATION_DEADLINE = 60.0


def merged_headers(base: Mapping[str, str], over: Mapping[str, str] | None) -> dict[str, str]:
    """``base`` then ``over``: a header of ``over`` replaces one of ``base`` with the same name
    in any case, so each name is sent once."""
    chosen = {name.lower() for name in (over or {})}
    return {**{name: value for name, value in base.items() if name.lower() not in chosen}, **(over or {})}


@dataclass(frozen=True)
class Submission:
    """An operation sent once: done (``accepted`` False, ``result`` is its outcome), or
    accepted with the id of the resource to poll and the answer's ``Retry-After``."""

    accepted: bool
    result: Result
    operation_id: str | None = None
    location: str | None = None


class Client:
    """An asynchronous client of any generated layer (see the module docstring).

    Args:
        base_url: the server, ``https://`` (or ``http://`` to loopback).
        layer: the generated layer (``Layer.of(operations, extensions, errors)``).
        token: the bearer token, sent as ``Authorization: Bearer <token>`` only.
        timeout: seconds per attempt. deadline, operation_deadline: total seconds of a
            plain call and of one that polls.
        retry: attempts, backoff and the ``Retry-After`` cap; retry_budget: the client-wide
            bucket (None: retries bounded by ``retry.max_retries`` alone).
        poll: bounds of the wait between polls. headers: sent on every request.
        http_client: an ``httpx.AsyncClient`` of yours (not closed by ``aclose``).
        allow_insecure_http: plaintext to a host that is not loopback.
        on_retry: told about every retry before its wait (no request data, no token).
        tracer: an OpenTelemetry ``Tracer`` (``opentelemetry-api``): a span per call and a
            CLIENT span per HTTP attempt under it (docs/telemetry.md). Default: none.

    Raises:
        ConfigurationError: a base URL, header or option the client cannot work with.
    """

    def __init__(
        self,
        base_url: str,
        *,
        layer: Layer,
        token: str | None = None,
        timeout: float = 10.0,
        deadline: float = DEFAULT_DEADLINE,
        operation_deadline: float = DEFAULT_OPERATION_DEADLINE,
        retry: RetryOptions | None = None,
        retry_budget: RetryBudget | None = None,
        poll: PollPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
        allow_insecure_http: bool = False,
        on_retry: Callable[[RetryEvent], None] | None = None,
        tracer: Any | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        random: Callable[[], float] = random_module.random,
    ) -> None:
        for name, value in (("timeout", timeout), ("deadline", deadline), ("operation_deadline", operation_deadline)):
            if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value < float("inf"):
                raise ConfigurationError(f"{name} must be a positive number of seconds")
        if token is not None and (not isinstance(token, str) or not token):
            raise ConfigurationError("token must be a non-empty string")
        if token is not None and (not all(" " <= c <= "~" or c == "\t" for c in token) or token != token.strip(" \t")):
            # httpx sends header values as ASCII: anything else would fail inside the transport, after the call began.
            raise ConfigurationError(
                "token must hold only printable ASCII, and no space or tab around it (the token is not shown)"
            )
        try:
            self._headers = check_headers(headers or {}, "headers")
        except InvalidRequestError as error:
            raise ConfigurationError(str(error)) from None
        self.layer = layer
        self.base_url = normalize_base_url(base_url, allow_insecure_http=allow_insecure_http)
        self.timeout = float(timeout)
        self.deadline = float(deadline)
        self.operation_deadline = float(operation_deadline)
        self.poll = poll or PollPolicy()
        self._own_http = http_client is None
        http = http_client or httpx.AsyncClient(follow_redirects=False, trust_env=False)
        self._env = CallEnvironment(
            http=http,
            base_url=self.base_url,
            token=token,
            redactor=Redactor(token),
            retry=retry or RetryOptions(),
            budget=retry_budget if retry_budget is not None else RetryBudget(),
            error_codes=layer.error_codes,
            contract_errors=layer.contract_errors,
            request_id_header=layer.request_id_header,
            clock=clock,
            sleep=sleep,
            random=random,
            on_retry=on_retry,
            tracer=tracer,
        )

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Closes the HTTP client this client opened (never one you passed in)."""

        if self._own_http:
            await self._env.http.aclose()

    # -- one request -------------------------------------------------------------------------

    async def request(
        self,
        operation_id: str,
        request: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
        deadline_at: float | None = None,
        extra_query: str | None = None,
    ) -> Result:
        """Sends one operation (with its retries) and returns its outcome as received: the
        decoded body of any declared success status, the accepted one included.

        Raises:
            InvalidRequestError: the request or a parameter breaks the contract (nothing sent).
            ServerResponseError: an error status (its subclass, or a contract class).
            TransportError, TimeoutError, InvalidResponseError: see ``errors``.
        """

        operation = self.layer.operation(operation_id)
        extensions = self.layer.extension(operation_id)
        built, path = build_request(
            operation, extensions, base_url=self.base_url, request=request, params=params, headers=merged_headers(self._headers, headers), extra_query=extra_query, redactor=self._env.redactor
        )
        if self._env.token is not None:
            built.headers["Authorization"] = f"Bearer {self._env.token}"
        at = deadline_at if deadline_at is not None else self._env.clock() + (self.deadline if deadline is None else deadline)
        recover = None
        if extensions is not None and extensions.reconcile is not None:
            members = {**_members(operation, request), **dict(params or {})}
            recover = self._reconciler(extensions, members, at)
        return await run(self._env, operation, extensions, built, path, timeout=self.timeout if timeout is None else timeout, deadline_at=at, recover=recover)

    def _reconciler(self, extensions: OperationExtensions, members: Mapping[str, Any], deadline_at: float) -> Callable[[BaseException, bool], Awaitable[Result | None]]:
        spec = extensions.reconcile
        assert spec is not None

        async def recover(error: BaseException, earlier_uncertain: bool) -> Result | None:
            if not earlier_uncertain or not isinstance(error, ConflictError) or not is_reconcile_conflict(error, spec):
                return None

            async def read(operation_id: str, params: Mapping[str, Any]) -> Any:
                return (await self.request(operation_id, params=params, deadline_at=deadline_at)).data

            resource = await reconcile(error, spec, members, read)
            return Result(resource, 200, httpx.Headers(), None, 0, "", False, None, None, reconciled=True)

        return recover

    # -- the call's meaning --------------------------------------------------------------------

    async def call(
        self,
        operation_id: str,
        request: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        deadline: float | None = None,
    ) -> Any:
        """The operation with its synchronous meaning: its result, polled to completion when
        it is accepted (its ``result_field``, validated as the operation's response type).

        Raises:
            OperationPendingError: still running at the deadline (resume with ``wait_for_operation``).
            OperationFailedError, OperationCancelledError: the background work ended so.
            and everything ``request`` raises.
        """

        extensions = self.layer.extension(operation_id)
        if extensions is None or extensions.async_ is None:
            return (await self.request(operation_id, request, params=params, headers=headers, timeout=timeout, deadline=deadline)).data
        deadline_at = self._env.clock() + (self.operation_deadline if deadline is None else deadline)
        submission = await self.submit(operation_id, request, params=params, headers=headers, timeout=timeout, deadline_at=deadline_at)
        if not submission.accepted or submission.operation_id is None:
            return submission.result.data
        done = await self._wait(submission.operation_id, extensions.async_.poll_operation, deadline_at, submission.result.retry_after, headers)
        result = member(done, extensions.async_.result_field)
        response_type = self.layer.operation(operation_id).response_type
        if response_type is None:
            return result
        try:
            return TypeAdapter(response_type).validate_python(result)
        except ValidationError:
            raise InvalidResponseError(self.layer.operation(extensions.async_.poll_operation).path, request_id=None, issues=[f"/{extensions.async_.result_field} is not the operation's result"]) from None

    async def send(self, operation: OperationLike[Any, ResponseT], request: Any = None, *, params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None, deadline: float | None = None) -> ResponseT:
        """``call`` by the generated ``Operation`` object, typed by its response model."""

        return cast(ResponseT, await self.call(operation.operation_id, request, params=params, headers=headers, deadline=deadline))

    async def submit(
        self,
        operation_id: str,
        request: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = None,
        deadline_at: float | None = None,
    ) -> Submission:
        """Sends an operation once (with retries); when it is accepted, the id of the resource
        to poll: from ``Location`` (same origin, under the base URL, in the poll operation's
        path), else from the accepted body's id member.

        Raises:
            InvalidResponseError: an accepted answer that names no resource, or names one by
                an id that cannot be a path segment (``..``).
        """

        result = await self.request(operation_id, request, params=params, headers=headers, timeout=timeout, deadline_at=deadline_at)
        extensions = self.layer.extension(operation_id)
        if not result.accepted or extensions is None or extensions.async_ is None:
            return Submission(False, result)
        poll = self.layer.operation(extensions.async_.poll_operation)
        path = self.layer.operation(operation_id).path

        def invalid(issue: str) -> InvalidResponseError:
            return InvalidResponseError(path, request_id=result.request_id, status_code=result.status, issues=[issue])

        if len(poll.path_parameters) != 1:
            raise invalid(f"{poll.operation_id} does not name one resource")
        if result.location is not None:
            try:
                found = id_from_location(result.location, base_url=self.base_url, request_url=result.url, template=poll.path, parameter=poll.path_parameters[0])
            except UnicodeDecodeError:
                found = None
            if found is None:
                raise invalid("the Location does not name a resource of this server")
        else:
            body_id = member(result.data, extensions.async_.operation_id_field)
            found = body_id if isinstance(body_id, str) and body_id else None
            if found is None:
                raise invalid("the accepted answer names no resource (no Location, no id)")
        if DOT_SEGMENT.match(found):
            raise invalid(f"the accepted answer names the resource {found!r}, which cannot be a path segment")
        return Submission(True, result, found, result.location)

    async def wait_for_operation(
        self,
        operation_id: str,
        *,
        poll_operation: str | None = None,
        deadline: float | None = None,
        deadline_at: float | None = None,
        first_wait: float | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """Polls the resource ``operation_id`` until it succeeded and returns it.

        ``poll_operation`` defaults to the one operation every asynchronous operation of the
        layer polls. Raises ``OperationPendingError`` past the deadline (default 60 s),
        ``OperationFailedError`` or ``OperationCancelledError`` for those ends, and the
        poll's own errors (an unknown id's 404, ...).
        """

        at = deadline_at if deadline_at is not None else self._env.clock() + (self.operation_deadline if deadline is None else deadline)
        return await self._wait(operation_id, poll_operation or self._poll_operation(), at, first_wait, headers)

    async def _wait(self, operation_id: str, poll_id: str, at: float, first_wait: float | None, headers: Mapping[str, str] | None) -> Any:
        spec = next(e.async_ for e in self.layer.extensions.values() if e.async_ is not None and e.async_.poll_operation == poll_id)
        poll = self.layer.operation(poll_id)

        async def read_once() -> tuple[Any, float | None]:
            answer = await self.request(poll_id, params={poll.path_parameters[0]: operation_id}, headers=headers, deadline_at=at)
            return answer.data, answer.retry_after

        return await wait_until_terminal(operation_id, read_once, spec, deadline_at=at, policy=self.poll, clock=self._env.clock, sleep=self._env.sleep, first_wait=first_wait, redactor=self._env.redactor)

    def _poll_operation(self) -> str:
        polls = {e.async_.poll_operation for e in self.layer.extensions.values() if e.async_ is not None}
        if len(polls) != 1:
            raise ConfigurationError(f"the layer names {len(polls)} poll operations; pass poll_operation")
        return polls.pop()

    async def paginate(self, operation_id: str, request: Any = None, *, params: Mapping[str, Any] | None = None) -> AsyncIterator[Any]:
        """Every item of a cursor-paged list operation, page after page (``x-powercontext-pagination``)."""

        extensions = self.layer.extension(operation_id)
        if extensions is None or extensions.pagination is None:
            raise InvalidRequestError(f"{operation_id} is not a paged list")
        spec = extensions.pagination
        body = _members(self.layer.operation(operation_id), request)
        given = dict(params or {})
        operation = self.layer.operation(operation_id)
        # a release-format query model carries the cursor; otherwise it is a query parameter
        query_request = operation.request_location == "query" and operation.request_type is not None
        while True:
            page = await self.call(operation_id, body if query_request else request, params=given)
            for item in member(page, spec.items_field) or []:
                yield item
            cursor = member(page, spec.next_cursor_field)
            if not cursor:
                return
            if query_request:
                body = {**body, spec.cursor_parameter: cursor}
            else:
                given = {**given, spec.cursor_parameter: cursor}


def _members(operation: OperationLike[Any, Any], request: Any) -> dict[str, Any]:
    """The request's members by wire name (for reconciliation and paging)."""

    if request is None:
        return {}
    if isinstance(request, BaseModel):
        dumped = request.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return dict(dumped)
    return dict(request) if isinstance(request, Mapping) else {}
