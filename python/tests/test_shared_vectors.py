"""The runtime behaviour vectors both languages run (test/vectors/runtime/*.json).

The TypeScript runtime runs the same files in test/vectors/runtime-vectors.test.ts; a
vector that one runtime passes and the other fails is a difference between the clients.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import powercontext_runtime
import pytest
from conftest import Sleeps
from powercontext_runtime.descriptor import ErrorCode, ReconcileSpec
from powercontext_runtime.errors import InvalidRequestError
from powercontext_runtime.reconcile import shows_requested_transition
from powercontext_runtime.retry import RetryBudget, RetryOptions, StatusOutcome, TransportOutcome, decide_retry, parse_retry_after
from powercontext_runtime.url import encode_path_segment
from powercontext_ts import Client, PollPolicy
from powercontext_ts._generated import errors as contract_errors
from pydantic import BaseModel

VECTORS = Path(__file__).resolve().parents[2] / "test" / "vectors" / "runtime"
RETRY = json.loads((VECTORS / "retry.json").read_text(encoding="utf-8"))
RECONCILE = json.loads((VECTORS / "reconcile.json").read_text(encoding="utf-8"))
SEGMENTS = json.loads((VECTORS / "path-segments.json").read_text(encoding="utf-8"))
EXCHANGES = json.loads((VECTORS / "exchanges.json").read_text(encoding="utf-8"))


def options_of(overrides: dict[str, Any]) -> RetryOptions:
    given = {**RETRY["options"], **overrides}
    return RetryOptions(
        max_retries=given["max_retries"],
        base_delay=given["base_delay_ms"] / 1000,
        max_delay=given["max_delay_ms"] / 1000,
        jitter=given["jitter"],
        max_retry_after=given["max_retry_after_ms"] / 1000,
    )


def outcome_of(outcome: dict[str, Any]) -> TransportOutcome | StatusOutcome:
    if "transport" in outcome:
        kind = outcome["transport"]
        return TransportOutcome("connect" if kind == "connect" else "exchange", timeout=kind == "timeout")
    retry_after = outcome["retry_after_ms"]
    return StatusOutcome(outcome["status"], None if retry_after is None else retry_after / 1000, outcome["code"])


@pytest.mark.parametrize("vector", RETRY["decisions"], ids=lambda v: v["why"])
def test_retry_decisions(vector: dict[str, Any]) -> None:
    codes = {code: ErrorCode(row["status"], row["transient"]) for code, row in RETRY["error_codes"].items()}
    decision = decide_retry(vector["retry_class"], outcome_of(vector["outcome"]), vector["attempt"], options_of(vector.get("options", {})), codes, lambda: vector["random"])
    expect = vector["expect"]
    assert decision.retry is expect["retry"]
    if expect["retry"]:
        assert (round(decision.delay * 1000), decision.reason) == (expect["delay_ms"], expect["reason"])


@pytest.mark.parametrize("vector", RETRY["retry_after"], ids=lambda v: repr(v["value"]))
def test_retry_after(vector: dict[str, Any]) -> None:
    seconds = parse_retry_after(vector["value"], now=RETRY["retry_after_now_ms"] / 1000)
    assert (None if seconds is None else round(seconds * 1000)) == vector["expect_ms"]


@pytest.mark.parametrize("vector", RETRY["budget"], ids=lambda v: v["why"])
def test_retry_budget(vector: dict[str, Any]) -> None:
    budget = RetryBudget(**vector["options"])
    for step in vector["steps"]:
        if "spend" in step:
            assert budget.spend(step["spend"]) == step["expect"]
        else:
            budget.succeeded(step["succeeded"])
        assert budget.available == step["available"]


@pytest.mark.parametrize("vector", RECONCILE["cases"], ids=lambda v: v["why"])
def test_reconcile_transitions(vector: dict[str, Any]) -> None:
    spec = ReconcileSpec("get", "id", tuple(vector["holds_when"]), version_field=RECONCILE["fields"]["version_field"], status_field=RECONCILE["fields"]["status_field"])
    assert shows_requested_transition(vector["resource"], spec, vector["expected_version"]) is vector["holds"]


@pytest.mark.parametrize("vector", SEGMENTS["segments"], ids=lambda v: repr(v["value"]))
def test_path_segments(vector: dict[str, Any]) -> None:
    if vector["refused"]:
        with pytest.raises(InvalidRequestError):
            encode_path_segment("op", "id", vector["value"])
    else:
        assert encode_path_segment("op", "id", vector["value"]) == vector["encoded"]


def error_class(name: str) -> type[BaseException]:
    found = getattr(powercontext_runtime, name, None) or getattr(contract_errors, name, None)
    assert isinstance(found, type), f"no class {name} in powercontext_runtime or the generated errors"
    return found


class Scripted:
    """Answers from a list (the last repeats); records each request and when it came."""

    def __init__(self, answers: list[dict[str, Any]], sleeps: Sleeps) -> None:
        self.answers = answers
        self.sleeps = sleeps
        self.start = sleeps.now
        self.seen: list[tuple[str, int]] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.seen.append((f"{request.method} {request.url.raw_path.decode().split('?')[0]}", round((self.sleeps.now - self.start) * 1000)))
        answer = self.answers[min(len(self.seen) - 1, len(self.answers) - 1)]
        if answer.get("fail") == "connect":
            raise httpx.ConnectError("connection refused", request=request)
        if answer.get("fail") == "reset":
            raise httpx.ReadError("connection reset", request=request)
        return httpx.Response(answer["status"], headers={"content-type": "application/json", **answer["headers"]}, content=answer["body"].encode())


def client_for(script: Scripted, sleeps: Sleeps, settings: dict[str, Any]) -> Client:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script.handler))
    retry = RetryOptions(max_retries=settings.get("max_retries", 2), base_delay=0.1, jitter="none")
    return Client(SEGMENTS["base_url"], token="secret-token", http_client=http, retry=retry, poll=PollPolicy(0.2, 5.0), clock=sleeps.clock, sleep=sleeps.sleep)


async def run_call(client: Client, operation: str, flat: dict[str, Any], deadline_ms: int | None) -> Any:
    extensions = client.layer.extension(operation)
    names = {p.name for p in extensions.parameters} if extensions is not None else set()
    params = {k: v for k, v in flat.items() if k in names}
    body = {k: v for k, v in flat.items() if k not in names} or None
    return await client.call(operation, body, params=params or None, deadline=None if deadline_ms is None else deadline_ms / 1000)


def json_of(value: Any) -> Any:
    return value.model_dump(mode="json", by_alias=True, exclude_unset=True) if isinstance(value, BaseModel) else value


def check_error(error: BaseException, expect: dict[str, Any]) -> None:
    assert isinstance(error, error_class(expect["class"])), f"{type(error).__name__} is not a {expect['class']}"
    members = {"status": "status_code", "code": "code", "server_message": "server_message", "details": "details", "request_id": "request_id", "body": "body", "operation_id": "operation_id", "category": "category", "outcome_unknown": "outcome_unknown"}
    for key, attribute in members.items():
        if key in expect:
            assert getattr(error, attribute) == expect[key], key
    if "retry_after_ms" in expect:
        assert round(getattr(error, "retry_after") * 1000) == expect["retry_after_ms"]


@pytest.mark.anyio
@pytest.mark.parametrize("scenario", EXCHANGES["scenarios"], ids=lambda v: v["name"])
async def test_exchanges(scenario: dict[str, Any], sleeps: Sleeps) -> None:
    script = Scripted(scenario["answers"], sleeps)
    client = client_for(script, sleeps, scenario["client"])
    expect = scenario["expect"]
    try:
        result = await run_call(client, scenario["operation"], scenario["request"], scenario["client"].get("operation_deadline_ms"))
    except Exception as error:  # noqa: BLE001 - the vector says which error
        assert "error" in expect, f"raised {error!r}"
        check_error(error, expect["error"])
    else:
        assert "result" in expect, f"returned {result!r}"
        assert json_of(result) == expect["result"]
    assert [method_path for method_path, _ in script.seen] == expect["requests"]
    assert [at for _, at in script.seen] == expect["at_ms"]


@pytest.mark.anyio
@pytest.mark.parametrize("vector", SEGMENTS["accepted"], ids=lambda v: v["why"])
async def test_the_operation_an_accepted_answer_names(vector: dict[str, Any], sleeps: Sleeps) -> None:
    body = {**SEGMENTS["accepted_body"], "operation_id": vector["body_id"]}
    headers = {} if vector["location"] is None else {"location": vector["location"]}
    answers = [{"status": 202, "headers": headers, "body": json.dumps(body)}, {"status": 200, "headers": {}, "body": json.dumps(SEGMENTS["succeeded"])}]
    script = Scripted(answers, sleeps)
    client = client_for(script, sleeps, {})
    if "error" in vector["expect"]:
        with pytest.raises(error_class(vector["expect"]["error"])):
            await client.flush_memory({"scope_id": "team"})
        assert len(script.seen) == 1
    else:
        await client.flush_memory({"scope_id": "team"})
        assert script.seen[1][0] == f"GET {vector['expect']['polls']}"


@pytest.mark.anyio
@pytest.mark.parametrize("vector", SEGMENTS["caller_ids"], ids=lambda v: v["why"])
async def test_a_callers_id(vector: dict[str, Any], sleeps: Sleeps) -> None:
    script = Scripted([{"status": 200, "headers": {}, "body": json.dumps(SEGMENTS["succeeded"])}], sleeps)
    client = client_for(script, sleeps, {})
    if "error" in vector:
        with pytest.raises(error_class(vector["error"])):
            await client.get_operation(vector["operation_id"])
        assert script.seen == []
    else:
        await client.get_operation(vector["operation_id"])
        assert script.seen[0][0] == f"GET {vector['polls']}"
