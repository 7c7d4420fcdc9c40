"""flush_memory: the synchronous meaning over 200, 202 + polling, deadlines and 409 operation_blocked."""

from __future__ import annotations

import json

import pytest
from conftest import FLUSH_RESULT, Script, Sleeps, operation_body
from powercontext_ts import (
    Client,
    InvalidRequestError,
    InvalidResponseError,
    OperationBlockedError,
    OperationCancelledError,
    OperationFailedError,
    OperationPendingError,
    ServerResponseError,
)
from powercontext_ts._generated.models import FlushMemoryResponse

pytestmark = pytest.mark.anyio

ACCEPTED = {"location": "/v1/operations/op_1", "retry-after": "2"}


async def test_a_200_is_the_answer_without_polling(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(200, FLUSH_RESULT)
    result = await client.flush_memory({"scope_id": "team"})
    assert isinstance(result, FlushMemoryResponse)
    assert result.processed_source_count == 2
    assert len(script.requests) == 1
    assert sleeps.waits == []
    sent = script.requests[0]
    assert (sent.method, sent.url.path) == ("POST", "/v1/memory/flush")
    assert json.loads(sent.content) == {"scope_id": "team"}
    assert sent.headers["authorization"] == "Bearer secret-token"


async def test_a_202_is_polled_honouring_retry_after_until_it_succeeded(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_1", "queued"), ACCEPTED)
    script.then(200, operation_body("op_1", "running", 2), {"retry-after": "3"})
    script.then(200, operation_body("op_1", "succeeded", 3, result=FLUSH_RESULT))
    result = await client.flush_memory({"scope_id": "team"}, deadline=60)
    assert isinstance(result, FlushMemoryResponse)
    assert result.model_dump(mode="json", exclude_unset=True) == FLUSH_RESULT
    assert [r.url.path for r in script.requests] == ["/v1/memory/flush", "/v1/operations/op_1", "/v1/operations/op_1"]
    assert sleeps.waits == [2.0, 3.0]


async def test_without_retry_after_the_wait_grows_and_stays_within_bounds(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_1", "queued"), {"location": "/v1/operations/op_1"})
    for version in range(2, 7):
        script.then(200, operation_body("op_1", "running", version))
    script.then(200, operation_body("op_1", "succeeded", 7, result=FLUSH_RESULT))
    await client.flush_memory({"scope_id": "team"})
    assert sleeps.waits[0] == 0.0 or sleeps.waits[0] >= 0.2
    assert all(0.2 <= w <= 5.0 for w in sleeps.waits)
    assert sleeps.waits == sorted(sleeps.waits)
    assert sleeps.waits[-1] > sleeps.waits[0]


async def test_past_the_deadline_operation_pending_error_carries_the_id(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_9", "queued"), {"location": "/v1/operations/op_9", "retry-after": "1"})
    for version in range(2, 40):
        script.then(200, operation_body("op_9", "running", version), {"retry-after": "1"})
    with pytest.raises(OperationPendingError) as caught:
        await client.flush_memory({"scope_id": "team"}, deadline=4.5)
    assert caught.value.operation_id == "op_9"
    assert caught.value.last_known.status.value == "running"
    # one poll per Retry-After second, never a busy loop, never past the deadline
    assert sum(sleeps.waits) <= 4.5
    assert len(script.requests) <= 6


async def test_409_operation_blocked_carries_the_blocking_operation(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(409, {"error": {"code": "operation_blocked", "message": "held", "details": {"operation_id": "op_7"}}})
    with pytest.raises(OperationBlockedError) as caught:
        await client.flush_memory({"scope_id": "team"})
    assert caught.value.operation_id == "op_7"
    assert isinstance(caught.value, ServerResponseError)
    assert (caught.value.status_code, caught.value.code) == (409, "operation_blocked")
    assert caught.value.request_id == "req0000000000000"


async def test_a_failed_operation_raises_with_its_classification(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_1", "queued"), ACCEPTED)
    error = {"category": "model_provider", "code": "provider_unavailable"}
    script.then(200, operation_body("op_1", "failed", 3, error=error))
    with pytest.raises(OperationFailedError) as caught:
        await client.flush_memory({"scope_id": "team"})
    assert (caught.value.operation_id, caught.value.category, caught.value.code) == ("op_1", "model_provider", "provider_unavailable")


async def test_a_cancelled_operation_raises(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_1", "queued"), ACCEPTED)
    script.then(200, operation_body("op_1", "cancelled", 2))
    with pytest.raises(OperationCancelledError):
        await client.flush_memory({"scope_id": "team"})


async def test_the_id_comes_from_the_body_when_location_is_missing(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_body", "queued"))
    script.then(200, operation_body("op_body", "succeeded", 2, result=FLUSH_RESULT))
    await client.flush_memory({"scope_id": "team"})
    assert script.requests[1].url.path == "/v1/operations/op_body"


async def test_a_202_that_is_not_an_operation_is_an_invalid_response(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, {"accepted": True}, ACCEPTED)
    with pytest.raises(InvalidResponseError):
        await client.flush_memory({"scope_id": "team"})
    assert len(script.requests) == 1


async def test_a_bad_argument_fails_before_anything_is_sent(client: Client, script: Script, sleeps: Sleeps) -> None:
    with pytest.raises(InvalidRequestError):
        await client.flush_memory({"scope_id": "team", "unknown_member": 1})
    assert script.requests == []


async def test_the_token_appears_in_no_error(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(409, {"error": {"code": "operation_blocked", "message": "held", "details": {"operation_id": "op_7"}}})
    with pytest.raises(OperationBlockedError) as caught:
        await client.flush_memory({"scope_id": "team"})
    assert "secret-token" not in repr(caught.value) and "secret-token" not in str(caught.value)
