"""The Operation API: wait_for_operation, list, get, cancel and retry with expected_version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Script, Sleeps, operation_body
from powercontext_ts import Client, NotFoundError, OperationNotServedError, OperationPendingError, VersionConflictError
from powercontext_ts._generated import operations

pytestmark = pytest.mark.anyio

SRC = Path(__file__).resolve().parents[1] / "src"


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


async def test_an_unknown_operation_is_a_not_found_with_its_code(client: Client, script: Script) -> None:
    script.then(404, {"error": {"code": "operation_not_found", "message": "no", "details": None}})
    with pytest.raises(NotFoundError) as caught:
        await client.get_operation("op_x")
    assert not isinstance(caught.value, OperationNotServedError)
    assert (caught.value.status_code, caught.value.code) == (404, "operation_not_found")


@pytest.mark.parametrize("call", ["get", "list", "cancel", "retry", "wait"])
async def test_a_server_without_the_operation_api_is_said_in_words(client: Client, script: Script, call: str) -> None:
    script.then(404, {"detail": "Not Found"})
    calls = {
        "get": lambda: client.get_operation("op_1"),
        "list": lambda: client.list_operations("team"),
        "cancel": lambda: client.cancel_operation("op_1", 1),
        "retry": lambda: client.retry_operation("op_1", 1),
        "wait": lambda: client.wait_for_operation("op_1"),
    }
    with pytest.raises(OperationNotServedError) as caught:
        await calls[call]()
    assert isinstance(caught.value, NotFoundError) and caught.value.code is None
    assert "Operation API" in str(caught.value)
    assert len(script.requests) == 1


def test_the_client_imports_nothing_of_the_released_package() -> None:
    code = "import sys, powercontext_ts; print(sorted(m for m in sys.modules if m == 'powercontext' or m.startswith('powercontext.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(SRC)})
    assert out.stdout.strip() == "[]"


def test_every_generated_operation_is_an_operation_of_the_released_format() -> None:
    released = pytest.importorskip("powercontext.http._generated.operations")
    ReleasedOperation = released.Operation  # noqa: N806

    generated = [v for v in vars(operations).values() if isinstance(v, operations.Operation)]
    assert generated, "the generated layer has no operations"
    assert set(operations.Operation.model_fields) == set(ReleasedOperation.model_fields)
