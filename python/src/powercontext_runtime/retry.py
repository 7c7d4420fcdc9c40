"""When a failed attempt is sent again, and after how long (the TypeScript runtime's rules).

| class | connect failure | other transport failure, timeout, 429, 502, 503, 504 | anything else |
| --- | --- | --- | --- |
| safe, replay, guarded | retry | retry | stop |
| never | retry | stop | stop |

A 429/502/503/504 whose envelope code the spec's registry marks ``transient: False`` is
never re-sent. The wait is the answer's ``Retry-After`` (stop when it is above the cap),
else exponential backoff with jitter. Durations are seconds.
"""

from __future__ import annotations

import math
import random as random_module
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timezone
from email.utils import parsedate_to_datetime
from typing import Literal

from powercontext_runtime.descriptor import ErrorCode, RetryClass

RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})
RESENDABLE: frozenset[str] = frozenset({"safe", "replay", "guarded"})
#: The three forms of an HTTP date (RFC 9110 5.6.7): IMF-fixdate and RFC 850 end in GMT; asctime has no zone.
HTTP_DATE = re.compile(r"^[A-Za-z]{3,9}, .* GMT$|^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$")
#: The longest Retry-After read at all: one day.
MAX_RETRY_AFTER = 24 * 60 * 60.0


@dataclass(frozen=True)
class TransportOutcome:
    """No valid answer: ``phase`` ``connect`` (never left) or ``exchange``; ``timeout`` when the attempt timed out."""

    phase: Literal["connect", "exchange"]
    timeout: bool = False


@dataclass(frozen=True)
class StatusOutcome:
    """An error status, its ``Retry-After`` (seconds) and its envelope code."""

    status_code: int
    retry_after: float | None = None
    code: str | None = None


Outcome = TransportOutcome | StatusOutcome


@dataclass(frozen=True)
class RetryOptions:
    """Retries after the first attempt (default 2), backoff (seconds) and the Retry-After cap."""

    max_retries: int = 2
    base_delay: float = 0.25
    max_delay: float = 8.0
    jitter: Literal["full", "equal", "none"] = "full"
    max_retry_after: float | None = 30.0


@dataclass(frozen=True)
class RetryDecision:
    """``retry`` with ``delay`` seconds first, for ``reason``; or stop."""

    retry: bool
    delay: float = 0.0
    reason: str = ""


def is_permanent_code(outcome: Outcome, error_codes: Mapping[str, ErrorCode] | None) -> bool:
    """True when the registry marks the answer's code non-transient at the status it came with."""

    if not isinstance(outcome, StatusOutcome) or error_codes is None or outcome.code is None:
        return False
    row = error_codes.get(outcome.code)
    return row is not None and row.status == outcome.status_code and not row.transient


def backoff_delay(retry: int, options: RetryOptions, random: Callable[[], float] = random_module.random) -> float:
    """``min(max_delay, base_delay * 2**(retry-1))``, jittered; whole milliseconds, as the TypeScript runtime."""

    capped = min(options.max_delay * 1000, options.base_delay * 1000 * 2.0 ** max(0, min(retry - 1, 30)))
    draw = min(max(random(), 0.0), 1.0)
    if options.jitter == "full":
        value = capped * draw
    elif options.jitter == "equal":
        value = capped / 2 + capped / 2 * draw
    else:
        value = capped
    return math.floor(value) / 1000


def reason_of(outcome: Outcome) -> str:
    if isinstance(outcome, StatusOutcome):
        return f"status_{outcome.status_code}"
    if outcome.phase == "connect":
        return "connect_error"
    return "timeout" if outcome.timeout else "transport_error"


def decide_retry(
    retry_class: RetryClass,
    outcome: Outcome,
    attempt: int,
    options: RetryOptions,
    error_codes: Mapping[str, ErrorCode] | None = None,
    random: Callable[[], float] = random_module.random,
) -> RetryDecision:
    """The verdict for the ``attempt``-th (1-based) failed attempt of a call (see the module's table)."""

    if attempt > options.max_retries:
        return RetryDecision(False)
    if isinstance(outcome, TransportOutcome):
        eligible = outcome.phase == "connect" or retry_class in RESENDABLE
    else:
        eligible = retry_class in RESENDABLE and outcome.status_code in RETRYABLE_STATUSES and not is_permanent_code(outcome, error_codes)
    if not eligible:
        return RetryDecision(False)
    retry_after = outcome.retry_after if isinstance(outcome, StatusOutcome) else None
    if retry_after is not None and options.max_retry_after is not None and retry_after > options.max_retry_after:
        return RetryDecision(False)
    delay = retry_after if retry_after is not None else backoff_delay(attempt, options, random)
    return RetryDecision(True, delay, reason_of(outcome))


def is_uncertain(outcome: Outcome) -> bool:
    """True when the server may have acted although no success was seen (reconciliation keys off it)."""

    if isinstance(outcome, TransportOutcome):
        return outcome.phase == "exchange"
    return outcome.status_code in (502, 504)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds: delay-seconds, or an HTTP date (any of the three forms HTTP
    allows; a past date is 0). Absent, negative, fractional or unreadable: None. At most a day.

    Args:
        now: the current time, seconds since the epoch (default ``time.time()``).
    """

    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return min(float(int(text)), MAX_RETRY_AFTER)
    if not HTTP_DATE.match(text):
        return None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)  # asctime carries no zone; HTTP dates are GMT
    current = time.time() if now is None else now
    return min(max(0.0, when.timestamp() - current), MAX_RETRY_AFTER)


class RetryBudget:
    """A client-wide token bucket that pays for every retry (the TypeScript runtime's ADR 0007).

    A full bucket holds ``capacity`` tokens; a retry costs ``retry_cost`` (``timeout_retry_cost``
    after a timeout); a success puts back what its last retry cost, or ``success_refund``.
    When the bucket cannot pay, the call ends with its error instead of retrying.
    """

    def __init__(self, capacity: float = 500, retry_cost: float = 5, timeout_retry_cost: float = 10, success_refund: float = 1) -> None:
        for name, value in (("capacity", capacity), ("retry_cost", retry_cost), ("timeout_retry_cost", timeout_retry_cost), ("success_refund", success_refund)):
            if not isinstance(value, int | float) or isinstance(value, bool) or not value >= 0 or value == float("inf") or (name == "capacity" and value == 0):
                from powercontext_runtime.errors import ConfigurationError

                raise ConfigurationError(f"retry budget {name} must be a {'positive' if name == 'capacity' else 'non-negative'} finite number of tokens")
        self.capacity = float(capacity)
        self.retry_cost = float(retry_cost)
        self.timeout_retry_cost = float(timeout_retry_cost)
        self.success_refund = float(success_refund)
        self.available = float(capacity)

    def spend(self, after_timeout: bool) -> float | None:
        """Takes the cost of one retry; None (nothing taken) when the bucket holds less."""

        cost = self.timeout_retry_cost if after_timeout else self.retry_cost
        if cost > self.available:
            return None
        self.available -= cost
        return cost

    def succeeded(self, last_retry_cost: float) -> None:
        """Puts back ``last_retry_cost``, or ``success_refund`` when the call needed no retry."""

        refund = last_retry_cost if last_retry_cost > 0 else self.success_refund
        self.available = min(self.capacity, self.available + refund)
