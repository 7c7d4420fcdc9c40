"""Waiting for a background Operation: poll until terminal within one deadline.

Between polls the client waits what the Server's ``Retry-After`` says, or an
interval that grows by half from ``min_interval``; every wait is clamped to
``[min_interval, max_interval]`` and to the time left, so it never busy-loops and
never overshoots the deadline. All durations are seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

from powercontext_ts.errors import (
    OperationCancelledError,
    OperationFailedError,
    OperationPendingError,
)

#: Operation statuses and members (the Operation API's names).
SUCCEEDED, FAILED, CANCELLED = "succeeded", "failed", "cancelled"


@dataclass(frozen=True)
class PollPolicy:
    """Bounds of the wait between two polls, in seconds."""

    min_interval: float = 0.2
    max_interval: float = 5.0

    def clamp(self, seconds: float) -> float:
        return min(self.max_interval, max(self.min_interval, seconds))


def retry_after_seconds(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """``Retry-After`` as seconds (delay-seconds or an HTTP date), or None when absent or unreadable."""

    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


Poll = Callable[[], Awaitable[tuple[Any, Mapping[str, str]]]]


async def wait_until_terminal(
    operation_id: str,
    poll: Poll,
    *,
    deadline_at: float,
    policy: PollPolicy,
    first_wait: float | None = None,
    sleep: Callable[[float], Awaitable[None]] | None = None,
    clock: Callable[[], float] | None = None,
) -> Any:
    """Polls until the Operation succeeded and returns it.

    Args:
        poll: reads the Operation once; returns the model and the response headers.
        deadline_at: ``clock()`` value after which no poll starts.
        first_wait: wait before the first poll (an accepted answer's ``Retry-After``).
        sleep, clock: default ``asyncio.sleep`` and ``time.monotonic``.

    Raises:
        OperationFailedError: it reached ``failed``.
        OperationCancelledError: it reached ``cancelled``.
        OperationPendingError: the deadline passed first (carries the id and the last read).
    """

    sleep = sleep or asyncio.sleep
    clock = clock or time.monotonic
    last_known: Any = None
    interval = policy.min_interval
    wait = 0.0 if first_wait is None else policy.clamp(first_wait)
    while True:
        remaining = deadline_at - clock()
        if remaining <= 0:
            raise OperationPendingError(operation_id, last_known)
        if wait > 0:
            await sleep(min(wait, remaining))
            if deadline_at - clock() <= 0:
                raise OperationPendingError(operation_id, last_known)
        current, headers = await poll()
        last_known = current
        status = _status(current)
        if status == SUCCEEDED:
            return current
        if status == FAILED:
            error = getattr(current, "error", None)
            raise OperationFailedError(operation_id, current, _member(error, "category"), _member(error, "code"))
        if status == CANCELLED:
            raise OperationCancelledError(operation_id, current)
        hinted = retry_after_seconds(headers)
        wait = policy.clamp(interval if hinted is None else hinted)
        interval = min(policy.max_interval, interval * 1.5)


def _status(operation: Any) -> str | None:
    status = getattr(operation, "status", None)
    return getattr(status, "value", status)


def _member(value: Any, name: str) -> str | None:
    found = getattr(value, name, None)
    found = getattr(found, "value", found)
    return found if isinstance(found, str) else None
