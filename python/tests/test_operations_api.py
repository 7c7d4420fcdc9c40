"""The Operation API: wait_for_operation, list, get, cancel and retry with expected_version."""

from __future__ import annotations

import json

import pytest
from conftest import Script, Sleeps, operation_body
from powercontext.client import PowerContextClient, ServerResponseError
from powercontext_ts import Client, OperationPendingError, VersionConflictError
from powercontext_ts._generated import operations

pytestmark = pytest.mark.anyio


async def test_wait_for_operation_returns_the_succeeded_operation(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(200, operation_body("op_1", "running", 2), {"retry-after": "1"})
    script.then(200, operation_body("op_1", "succeeded", 3))
    done = await client.wait_for_operation("op_1", deadline=30)
    assert done.status.value == "succeeded"
    assert sleeps.waits == [1.0]


async def test_wait_for_operation_gives_up_at_its_deadline(client: Client, script: Script, sleeps: Sleeps) -> None:
    for version in range(1, 10):
        script.then(200, operation_body("op_1", "queued", version), {"retry-after": "5"})
    with pytest.raises(OperationPendingError) as caught:
        await client.wait_for_operation("op_1", deadline=7)
    assert caught.value.operation_id == "op_1"
    assert len(script.requests) == 2


async def test_list_operations_sends_only_the_given_filters_as_query(client: Client, script: Script) -> None:
    script.then(200, {"operations": [operation_body("op_1", "failed", 3)], "next_cursor": None})
    page = await client.list_operations("team", status="failed", kind=None, limit=10)
    assert [op.operation_id for op in page.operations] == ["op_1"]
    sent = script.requests[0]
    assert sent.method == "GET" and sent.url.path == "/v1/operations"
    assert dict(sent.url.params) == {"scope_id": "team", "status": "failed", "limit": "10"}


async def test_get_operation_quotes_the_id_into_the_path(client: Client, script: Script) -> None:
    script.then(200, operation_body("op/1", "queued"))
    await client.get_operation("op/1")
    assert script.requests[0].url.raw_path == b"/v1/operations/op%2F1"


@pytest.mark.parametrize("method", ["cancel_operation", "retry_operation"])
async def test_cancel_and_retry_send_expected_version(client: Client, script: Script, method: str) -> None:
    script.then(200, operation_body("op_1", "cancelled" if method == "cancel_operation" else "queued", 4))
    result = await getattr(client, method)("op_1", expected_version=3)
    assert result.version == 4
    sent = script.requests[0]
    assert (sent.method, sent.url.path) == ("POST", f"/v1/operations/op_1/{method.split('_')[0]}")
    assert json.loads(sent.content) == {"expected_version": 3}


async def test_a_version_conflict_is_typed(client: Client, script: Script) -> None:
    script.then(409, {"error": {"code": "version_conflict", "message": "changed", "details": {"current_version": 5}}})
    with pytest.raises(VersionConflictError) as caught:
        await client.retry_operation("op_1", expected_version=3)
    assert caught.value.current_version == 5


async def test_other_errors_stay_the_released_clients(client: Client, script: Script) -> None:
    script.then(404, {"error": {"code": "operation_not_found", "message": "no", "details": None}})
    with pytest.raises(ServerResponseError) as caught:
        await client.get_operation("op_x")
    assert type(caught.value) is ServerResponseError
    assert caught.value.code == "operation_not_found"


async def test_calls_go_through_the_released_client_unpatched(client: Client, script: Script) -> None:
    original = PowerContextClient._request
    script.then(200, operation_body("op_1", "queued"))
    await client.get_operation("op_1")
    assert PowerContextClient._request is original
    assert isinstance(client.base, PowerContextClient)
    assert "_request" not in vars(client.base)


def test_every_generated_operation_is_an_operation_of_the_released_format() -> None:
    from powercontext.http._generated.operations import Operation as ReleasedOperation

    generated = [v for v in vars(operations).values() if isinstance(v, operations.Operation)]
    assert generated, "the generated layer has no operations"
    assert set(operations.Operation.model_fields) == set(ReleasedOperation.model_fields)
