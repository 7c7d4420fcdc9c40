"""Tracing where ``opentelemetry-api`` is installed (docs/telemetry.md), under the
OpenTelemetry SDK's in-memory exporter: the call's span, one CLIENT span per HTTP attempt
under it with its own ``traceparent``, backoff waits as events, and each poll of an
asynchronous call traced as a call of its own."""

from __future__ import annotations

import httpx
import pytest
from conftest import BASE, FLUSH_RESULT, Script, Sleeps, operation_body
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from powercontext_ts import Client, NotFoundError, PollPolicy

pytestmark = pytest.mark.anyio

UNAVAILABLE = {"error": {"code": "runtime_not_ready", "message": "warming up", "details": None}}


def traced(script: Script, sleeps: Sleeps, sent: list[str] | None = None) -> tuple[Client, InMemorySpanExporter]:
    """A client traced into an in-memory exporter; ``sent`` gets each request's traceparent as it leaves."""

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))

    def handler(request: httpx.Request) -> httpx.Response:
        if sent is not None:
            sent.append(request.headers.get("traceparent", ""))
        return script.handler(request)

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = Client(
        BASE,
        token="secret-token",
        http_client=http,
        poll=PollPolicy(0.2, 5.0),
        clock=sleeps.clock,
        sleep=sleeps.sleep,
        tracer=provider.get_tracer("powercontext-test"),
    )
    return client, exporter


async def test_a_retried_call_shows_its_span_and_two_attempt_spans(script: Script, sleeps: Sleeps) -> None:
    sent: list[str] = []
    client, exporter = traced(script, sleeps, sent)
    script.then(503, UNAVAILABLE, {"retry-after": "2"})
    script.then(200, operation_body("op_1", "queued"))
    await client.get_operation("op_1")
    spans = exporter.get_finished_spans()
    call = next(span for span in spans if span.name == "PowerContextClient get_operation")
    attempts = [span for span in spans if span.kind == SpanKind.CLIENT]
    assert len(spans) == 3
    assert call.kind == SpanKind.INTERNAL
    assert call.status.status_code == StatusCode.OK
    assert dict(call.attributes or {}) == {
        "powercontext.operation_id": "get_operation",
        "powercontext.outcome": "success",
        "powercontext.attempts": 2,
        "http.response.status_code": 200,
    }
    assert [span.name for span in attempts] == ["GET /v1/operations/{operation_id}"] * 2
    assert all(span.parent is not None and span.parent.span_id == call.context.span_id for span in attempts)
    assert dict(attempts[0].attributes or {}) == {
        "http.request.method": "GET",
        "url.template": "/v1/operations/{operation_id}",
        "server.address": "127.0.0.1",
        "server.port": 8000,
        "http.response.status_code": 503,
        "error.type": "503",
    }
    assert attempts[0].status.status_code == StatusCode.ERROR
    assert (attempts[1].attributes or {})["http.request.resend_count"] == 1
    assert "error.type" not in (attempts[1].attributes or {})
    # Each attempt carries its own span's traceparent.
    assert [value.split("-")[1:3] for value in sent] == [[f"{span.context.trace_id:032x}", f"{span.context.span_id:016x}"] for span in attempts]
    # The wait is an event of the call's span, between the two attempts.
    (backoff,) = call.events
    assert backoff.name == "powercontext.retry.backoff"
    assert dict(backoff.attributes or {}) == {"powercontext.retry.attempt": 1, "powercontext.retry.reason": "status_503", "powercontext.retry.wait_ms": 2000.0}
    assert attempts[0].end_time is not None and attempts[1].start_time is not None
    assert attempts[0].end_time <= backoff.timestamp <= attempts[1].start_time
    assert "secret-token" not in repr([(span.attributes, span.events) for span in spans])


async def test_each_poll_is_a_traced_call(script: Script, sleeps: Sleeps) -> None:
    client, exporter = traced(script, sleeps)
    script.then(202, operation_body("op_1", "queued"), {"location": "/v1/operations/op_1", "retry-after": "0"})
    script.then(200, operation_body("op_1", "succeeded", 2, result=FLUSH_RESULT))
    await client.flush_memory({"scope_id": "team"})
    names = [(span.name, (span.attributes or {}).get("http.response.status_code")) for span in exporter.get_finished_spans()]
    assert names == [
        ("POST /v1/memory/flush", 202),
        ("PowerContextClient flush_memory", 202),
        ("GET /v1/operations/{operation_id}", 200),
        ("PowerContextClient get_operation", 200),
    ]


async def test_a_failed_call_marks_its_spans(script: Script, sleeps: Sleeps) -> None:
    client, exporter = traced(script, sleeps)
    script.then(404, {"error": {"code": "operation_not_found", "message": "no", "details": None}})
    with pytest.raises(NotFoundError):
        await client.get_operation("op_missing")
    attempt, call = exporter.get_finished_spans()
    assert (attempt.attributes or {})["error.type"] == "404"
    assert (call.attributes or {})["powercontext.outcome"] == "failure"
    assert (call.attributes or {})["error.type"] == "NotFoundError"
    assert call.status.status_code == StatusCode.ERROR


async def test_without_a_tracer_nothing_is_traced(client: Client, script: Script) -> None:
    script.then(200, operation_body("op_1", "queued"))
    await client.get_operation("op_1")
    assert "traceparent" not in script.requests[0].headers
