"""Fixtures: a scripted in-process server (httpx.MockTransport) behind the client.

The client accepts an injected ``httpx.AsyncClient``; the tests give it one whose
transport answers from a script, so every request the client sends is recorded and every
answer is exact. Nothing listens on a socket. Time is a fake clock that every wait moves.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from powercontext_ts import Client, PollPolicy  # noqa: E402

BASE = "http://127.0.0.1:8000"


def operation_body(operation_id: str, status: str, version: int = 1, **extra: Any) -> dict[str, Any]:
    """An Operation resource as the contract's Operation schema describes it."""

    body: dict[str, Any] = {
        "operation_id": operation_id,
        "kind": "memory_flush",
        "scope_id": "team",
        "status": status,
        "version": version,
        "attempt_count": 1 if status != "queued" else 0,
        "created_at": "2026-12-01T09:00:00Z",
        "updated_at": "2026-12-01T09:00:01Z",
        "started_at": None if status == "queued" else "2026-12-01T09:00:00Z",
        "finished_at": "2026-12-01T09:00:02Z" if status in {"succeeded", "failed", "cancelled"} else None,
        "result": None,
        "error": None,
    }
    body.update(extra)
    return body


FLUSH_RESULT = {
    "status": "processed",
    "previous_cursor": 0,
    "current_cursor": 2,
    "high_watermark": 2,
    "processed_source_count": 2,
    "memory": None,
}


class Script:
    """Answers requests in order; records each request."""

    def __init__(self) -> None:
        self.answers: list[Callable[[httpx.Request], httpx.Response]] = []
        self.requests: list[httpx.Request] = []

    def then(self, status: int, body: Any = None, headers: dict[str, str] | None = None) -> Script:
        content = b"" if body is None else json.dumps(body).encode()
        hdrs = {"content-type": "application/json", "x-powercontext-request-id": f"req{len(self.answers):013d}", **(headers or {})}
        self.answers.append(lambda request: httpx.Response(status, content=content, headers=hdrs))
        return self

    def fail(self, error: Exception) -> Script:
        """The next request fails with ``error`` (an ``httpx`` transport error) instead of an answer."""

        def answer(request: httpx.Request) -> httpx.Response:
            raise error

        self.answers.append(answer)
        return self

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if not self.answers:
            raise AssertionError(f"unexpected request {request.method} {request.url}")
        return self.answers.pop(0)(request)


class Sleeps:
    """A fake sleep and clock: every wait is recorded and advances the clock."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


@pytest.fixture
def script() -> Script:
    return Script()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def client(script: Script, sleeps: Sleeps) -> Client:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script.handler))
    return Client(BASE, token="secret-token", http_client=http, poll=PollPolicy(min_interval=0.2, max_interval=5.0), clock=sleeps.clock, sleep=sleeps.sleep)


@pytest.fixture
def anyio_backend() -> str:
    """Coroutine tests (marked ``anyio``) run on asyncio through anyio's pytest plugin."""

    return "asyncio"

