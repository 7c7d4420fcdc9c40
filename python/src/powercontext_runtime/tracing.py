"""Tracing of calls where ``opentelemetry-api`` is installed (docs/telemetry.md).

A call is an INTERNAL span ``PowerContextClient <operation_id>`` under the active context,
and each HTTP attempt a CLIENT span under it, named ``{method} {url.template}``, with the
OpenTelemetry HTTP client attributes (``http.request.method``, ``url.template``,
``server.address``, ``server.port``, ``http.request.resend_count`` from the second
attempt on, ``http.response.status_code``, ``error.type``). A backoff wait is an event of
the call's span. ``traceparent`` comes from the attempt's span, through the globally
configured propagator. Nothing here runs, and ``opentelemetry`` is never imported, unless
the client was given a tracer; nothing a tracer raises reaches the call. Never recorded:
URLs with their query strings, headers, bodies, the token.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from powercontext_runtime.errors import ServerResponseError

def _error_type(error: BaseException) -> str:
    if isinstance(error, ServerResponseError):
        return str(error.status_code)
    return type(error).__name__


def status_of(error: BaseException) -> int | None:
    """The status code of the answer a failure came with, or None when none came."""

    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


class AttemptSpan:
    """The CLIENT span of one HTTP attempt."""

    def __init__(self, span: Any) -> None:
        self._span = span

    def inject(self, request: httpx.Request) -> None:
        """Writes this attempt's ``traceparent`` (and whatever the global propagator adds) into ``request``."""

        try:
            from opentelemetry import propagate, trace

            carrier: dict[str, str] = {}
            propagate.inject(carrier, context=trace.set_span_in_context(self._span))
            for name, value in carrier.items():
                request.headers[name] = value
        except Exception:  # noqa: BLE001 - tracing never fails a request
            pass

    def end(self, status: int | None, error: BaseException | None) -> None:
        try:
            from opentelemetry.trace import Status, StatusCode

            if status is not None:
                self._span.set_attribute("http.response.status_code", status)
            error_type = _error_type(error) if error is not None else (str(status) if status is not None and status >= 400 else None)
            if error_type is not None:
                self._span.set_attribute("error.type", error_type)
                self._span.set_status(Status(StatusCode.ERROR, error_type))
            self._span.end()
        except Exception:  # noqa: BLE001 - tracing never fails a request
            pass


class CallSpan:
    """The span of one call; ``None`` tracer: every method does nothing."""

    def __init__(self, tracer: Any | None, operation_id: str, method: str, path_template: str, url: str) -> None:
        self._tracer = tracer
        self._method = method
        self._template = path_template
        self._span: Any = None
        if tracer is None:
            return
        parsed = httpx.URL(url)
        port = parsed.port if parsed.port is not None else (443 if parsed.scheme == "https" else 80)
        self._server: dict[str, Any] = {"server.address": parsed.host, "server.port": port}
        try:
            from opentelemetry.trace import SpanKind

            self._span = tracer.start_span(
                f"PowerContextClient {operation_id}", kind=SpanKind.INTERNAL, attributes={"powercontext.operation_id": operation_id}
            )
        except Exception:  # noqa: BLE001 - tracing never fails a request
            self._span = None

    def attempt(self, attempt: int) -> AttemptSpan | None:
        """Starts the span of HTTP attempt ``attempt`` (1-based), a child of the call's span."""

        if self._span is None:
            return None
        try:
            from opentelemetry import trace
            from opentelemetry.trace import SpanKind

            attributes: dict[str, Any] = {"http.request.method": self._method, "url.template": self._template, **self._server}
            if attempt > 1:
                attributes["http.request.resend_count"] = attempt - 1
            span = self._tracer.start_span(  # type: ignore[union-attr]
                f"{self._method} {self._template}",
                context=trace.set_span_in_context(self._span),
                kind=SpanKind.CLIENT,
                attributes=attributes,
            )
            return AttemptSpan(span)
        except Exception:  # noqa: BLE001 - tracing never fails a request
            return None

    def backoff(self, attempt: int, reason: str, wait: float) -> None:
        """Records the wait (seconds) before the next attempt as an event of the call's span."""

        if self._span is None:
            return
        try:
            self._span.add_event(
                "powercontext.retry.backoff",
                {"powercontext.retry.attempt": attempt, "powercontext.retry.reason": reason, "powercontext.retry.wait_ms": wait * 1000},
            )
        except Exception:  # noqa: BLE001 - tracing never fails a request
            pass

    def end(self, attempts: int, status: int | None, error: BaseException | None) -> None:
        """Ends the call's span with its outcome (success, failure, cancelled) and number of attempts."""

        if self._span is None:
            return
        try:
            from opentelemetry.trace import Status, StatusCode

            outcome = "success" if error is None else ("cancelled" if isinstance(error, asyncio.CancelledError) else "failure")
            self._span.set_attribute("powercontext.outcome", outcome)
            if attempts > 0:
                self._span.set_attribute("powercontext.attempts", attempts)
            if status is not None:
                self._span.set_attribute("http.response.status_code", status)
            if error is not None:
                self._span.set_attribute("error.type", type(error).__name__)
                self._span.set_status(Status(StatusCode.ERROR, type(error).__name__))
            else:
                self._span.set_status(Status(StatusCode.OK))
            self._span.end()
        except Exception:  # noqa: BLE001 - tracing never fails a request
            pass
