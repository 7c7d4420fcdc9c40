"""Waiting for a background operation: poll until terminal within one deadline.

Between polls the client waits what the answer's ``Retry-After`` says, or an interval
growing by half from ``min_interval``; every wait is clamped to ``[min_interval,
max_interval]`` and to the time left, so it never busy-loops and never overshoots the
deadline. The resource's status member and terminal states come from the spec
(``x-powercontext-async``). Seconds throughout.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from powercontext_runtime.answers import Redactor
from powercontext_runtime.descriptor import AsyncSpec
from powercontext_runtime.errors import OperationCancelledError, OperationFailedError, OperationPendingError, TimeoutError
from powercontext_runtime.reconcile import member


@dataclass(frozen=True)
class PollPolicy:
    """Bounds of the wait between two polls, in seconds."""

    min_interval: float = 0.2
    max_interval: float = 5.0

    def clamp(self, seconds: float) -> float:
        return min(self.max_interval, max(self.min_interval, seconds))


#: Reads the resource once: returns it and the answer's Retry-After (seconds) or None.
Poll = Callable[[], Awaitable[tuple[Any, float | None]]]


async def wait_until_terminal(
    operation_id: str,
    poll: Poll,
    spec: AsyncSpec,
    *,
    deadline_at: float,
    policy: PollPolicy,
    clock: Callable[[], float],
    sleep: Callable[[float], Awaitable[None]],
    first_wait: float | None = None,
    redactor: Redactor | None = None,
) -> Any:
    """Polls until the resource succeeded and returns it.

    Raises:
        OperationFailedError: it reached a failed state (with its bounded classification).
        OperationCancelledError: it reached a cancelled state.
        OperationPendingError: the deadline passed first (with the id and the last resource read).
    """

    last_known: Any = None
    # An error carries the id and resource without the token; the caller's result stays as sent.
    def shown(value: Any) -> Any:
        return value if redactor is None else redactor.for_error(value)

    interval = policy.min_interval
    wait = 0.0 if first_wait is None else policy.clamp(first_wait)
    while True:
        remaining = deadline_at - clock()
        if remaining <= 0:
            raise OperationPendingError(shown(operation_id), shown(last_known))
        if wait > 0:
            await sleep(min(wait, remaining))
            if deadline_at - clock() <= 0:
                raise OperationPendingError(shown(operation_id), shown(last_known))
        try:
            current, hinted = await poll()
        except TimeoutError as error:
            if error.limit == "deadline":
                raise OperationPendingError(shown(operation_id), shown(last_known)) from None
            raise
        last_known = current
        status = member(current, spec.status_field)
        status = getattr(status, "value", status)
        if status in spec.succeeded:
            return current
        if status in spec.failed:
            error_member = member(current, spec.error_field)
            category, code = member(error_member, "category"), member(error_member, "code")
            raise OperationFailedError(
                shown(operation_id), shown(current), category if isinstance(category, str) else None, code if isinstance(code, str) else None
            )
        if status in spec.cancelled:
            raise OperationCancelledError(shown(operation_id), shown(current))
        wait = policy.clamp(interval if hinted is None else hinted)
        interval = min(policy.max_interval, interval * 1.5)
