"""One call: attempts under the retry policy, the budget and one deadline; then the outcome.

An attempt's answer with a declared success status (any declared 2xx, the accepted one
included) is read by its media kind and validated; any other status raises its error.
A failure is re-sent when the policy allows it, the retry budget pays for it and the wait
ends before the deadline; otherwise a guarded operation's conflict may be reconciled
(``reconcile.py``) and anything else is raised. Durations are seconds.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import httpx

from powercontext_runtime.answers import Redactor, content_charset, error_of, header, read_success
from powercontext_runtime.descriptor import ErrorCode, OperationExtensions, OperationLike
from powercontext_runtime.errors import ClientError, ContractErrors, InvalidResponseError, ServerResponseError, TimeoutError, TransportError
from powercontext_runtime.exchange import Answer, exchange
from powercontext_runtime.tracing import AttemptSpan, CallSpan, status_of
from powercontext_runtime.retry import Outcome, RetryBudget, RetryOptions, StatusOutcome, TransportOutcome, decide_retry, is_uncertain, parse_retry_after


@dataclass(frozen=True)
class RetryEvent:
    """Reported before every retry wait; holds no request data and never the token."""

    operation_id: str
    attempt: int
    reason: str
    wait: float
    status_code: int | None
    request_id: str | None
    budget_remaining: float | None


@dataclass(frozen=True)
class CallEnvironment:
    """What every call of a client shares."""

    http: httpx.AsyncClient
    base_url: str
    token: str | None
    redactor: Redactor
    retry: RetryOptions
    budget: RetryBudget | None
    error_codes: Mapping[str, ErrorCode]
    contract_errors: ContractErrors
    request_id_header: str | None
    clock: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    random: Callable[[], float]
    on_retry: Callable[[RetryEvent], None] | None = None
    #: An ``opentelemetry.trace.Tracer``: each call and each attempt becomes a span (``tracing.py``).
    tracer: Any | None = None


@dataclass(frozen=True)
class Result:
    """The outcome of a call: the decoded body and the answer it came from."""

    data: Any
    status: int
    headers: httpx.Headers
    request_id: str | None
    attempts: int
    url: str
    accepted: bool
    location: str | None
    retry_after: float | None
    reconciled: bool = False


Recover = Callable[[BaseException, bool], Awaitable[Result | None]]


def outcome_of(error: BaseException) -> Outcome | None:
    """The policy's view of a failure; None for errors that are never re-sent."""

    if isinstance(error, TimeoutError):
        return None if error.limit == "deadline" else TransportOutcome("exchange", timeout=True)
    if isinstance(error, TransportError):
        return TransportOutcome("connect" if error.phase == "connect" else "exchange")
    if isinstance(error, ServerResponseError):
        return StatusOutcome(error.status_code, error.retry_after, error.code)
    return None


def success_statuses(operation: OperationLike[Any, Any], extensions: OperationExtensions | None) -> set[int]:
    statuses = {operation.success_status, *(extensions.success_statuses if extensions is not None else ())}
    if extensions is not None and extensions.async_ is not None:
        statuses.add(extensions.async_.accepted_status)
    return statuses


def decode(env: CallEnvironment, operation: OperationLike[Any, Any], extensions: OperationExtensions | None, answer: Answer, path: str) -> Result:
    """The answer as the call's result, or the error its status raises."""

    request_id = header(answer.headers, env.request_id_header, env.redactor)
    retry_after = parse_retry_after(answer.headers.get("retry-after"))
    if answer.status not in success_statuses(operation, extensions):
        not_served = extensions.not_served if extensions is not None else None
        raise error_of(
            answer.body,
            status=answer.status,
            request_id=request_id,
            retry_after=retry_after,
            redactor=env.redactor,
            contract_errors=env.contract_errors,
            not_served=None if not_served is None else (not_served.status, not_served.message),
        )
    accepted = extensions is not None and extensions.async_ is not None and extensions.async_.accepted_status == answer.status
    if answer.truncated:
        raise InvalidResponseError(path, request_id=request_id, status_code=answer.status, issues=["the body is larger than the client reads"])
    kinds = extensions.response_kinds if extensions is not None else {}
    types = extensions.response_types if extensions is not None else {}
    if accepted and extensions is not None and extensions.async_ is not None:
        model = extensions.async_.accepted_type
    elif answer.status in types:
        model = types[answer.status]
    else:
        model = operation.response_type if answer.status == operation.success_status else None
    media_type = (answer.headers.get("content-type") or "").split(";")[0].strip().lower()
    alternatives = extensions.response_media_kinds.get(answer.status, {}) if extensions is not None else {}
    data = read_success(
        answer.body,
        kind=alternatives.get(media_type, kinds.get(answer.status, "json")),
        charset=content_charset(answer.headers.get("content-type")),
        model=model,
        path=path,
        status=answer.status,
        request_id=request_id,
        redactor=env.redactor,
        empty_allowed=accepted or answer.status == 204,
    )
    location = header(answer.headers, "location", env.redactor) if accepted else None
    return Result(data, answer.status, answer.headers, request_id, 1, answer.url, accepted, location, retry_after)


async def run(
    env: CallEnvironment,
    operation: OperationLike[Any, Any],
    extensions: OperationExtensions | None,
    request: httpx.Request,
    path: str,
    *,
    timeout: float,
    deadline_at: float | None,
    recover: Recover | None = None,
) -> Result:
    """Sends ``request`` until it succeeds or may not be re-sent (see the module)."""

    trace = CallSpan(env.tracer, operation.operation_id, operation.method, operation.path, str(request.url))
    attempts = [0]
    try:
        result = await _attempts(env, operation, extensions, request, path, timeout, deadline_at, recover, trace, attempts)
    except BaseException as error:
        trace.end(attempts[0], status_of(error), error)
        raise
    trace.end(attempts[0], result.status, None)
    return result


def _end_attempt(span: AttemptSpan | None, status: int | None, error: BaseException | None) -> None:
    if span is not None:
        span.end(status, error)


async def _attempts(
    env: CallEnvironment,
    operation: OperationLike[Any, Any],
    extensions: OperationExtensions | None,
    request: httpx.Request,
    path: str,
    timeout: float,
    deadline_at: float | None,
    recover: Recover | None,
    trace: CallSpan,
    attempts: list[int],
) -> Result:
    retry_class = extensions.retry_class if extensions is not None else ("safe" if operation.method == "GET" else "never")
    earlier_uncertain = False
    last_cost = 0.0
    attempt = 0
    while True:
        attempt += 1
        remaining = float("inf") if deadline_at is None else deadline_at - env.clock()
        if remaining <= 0:
            raise TimeoutError(path, limit="deadline", seconds=0.0)
        attempts[0] = attempt
        span = trace.attempt(attempt)
        if span is not None:
            span.inject(request)
        try:
            limit = min(timeout, remaining)
            try:
                answer = await exchange(env.http, request, path=path, timeout=limit)
            except TimeoutError as error:
                if limit < timeout:
                    raise TimeoutError(path, limit="deadline", seconds=limit) from None
                raise error
            result = decode(env, operation, extensions, answer, path)
        except ClientError as error:
            _end_attempt(span, status_of(error), error)
            outcome = outcome_of(error)
            decision = decide_retry(retry_class, outcome, attempt, env.retry, env.error_codes, env.random) if outcome is not None else None
            left = float("inf") if deadline_at is None else deadline_at - env.clock()
            cost: float | None = 0.0
            if decision is not None and decision.retry and decision.delay < left and env.budget is not None:
                cost = env.budget.spend(isinstance(outcome, TransportOutcome) and outcome.timeout)
                if cost is None:
                    error.retry_budget_exhausted = True
            if decision is None or not decision.retry or decision.delay >= left or cost is None:
                if recover is not None:
                    recovered = await recover(error, earlier_uncertain)
                    if recovered is not None:
                        return recovered
                raise
            last_cost = cost
            if outcome is not None and is_uncertain(outcome):
                earlier_uncertain = True
            _report(env, operation.operation_id, attempt, decision.reason, decision.delay, error)
            trace.backoff(attempt, decision.reason, decision.delay)
            await env.sleep(decision.delay)
            continue
        except BaseException as error:
            _end_attempt(span, None, error)
            raise
        _end_attempt(span, result.status, None)
        if env.budget is not None:
            env.budget.succeeded(last_cost)
        return replace(result, attempts=attempt)


def _report(env: CallEnvironment, operation_id: str, attempt: int, reason: str, wait: float, error: ClientError) -> None:
    if env.on_retry is None:
        return
    server = error if isinstance(error, ServerResponseError) else None
    event = RetryEvent(
        operation_id,
        attempt,
        reason,
        wait,
        None if server is None else server.status_code,
        None if server is None else server.request_id,
        None if env.budget is None else env.budget.available,
    )
    try:
        env.on_retry(event)
    except Exception:  # noqa: BLE001 - a failing hook must not change the call's outcome
        pass
