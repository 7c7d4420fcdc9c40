"""The runtime under the PowerContext client: retries, the budget, reconciliation, the
polled id, parameters checked before sending, and the token kept out of errors."""

from __future__ import annotations

import json

import httpx
import pytest
from conftest import BASE, FLUSH_RESULT, Script, Sleeps, operation_body
from powercontext_ts import (
    Client,
    InvalidRequestError,
    InvalidResponseError,
    PollPolicy,
    RetryBudget,
    RetryOptions,
    TransportError,
    UnavailableResponseError,
    VersionConflictError,
)

pytestmark = pytest.mark.anyio

UNAVAILABLE = {"error": {"code": "runtime_not_ready", "message": "warming up", "details": None}}


def make(script: Script, sleeps: Sleeps, **options: object) -> Client:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script.handler))
    return Client(BASE, token="secret-token", http_client=http, poll=PollPolicy(0.2, 5.0), clock=sleeps.clock, sleep=sleeps.sleep, **options)  # type: ignore[arg-type]


async def test_the_id_comes_from_location_when_the_body_names_another(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(202, operation_body("op_body", "queued"), {"location": "/v1/operations/op_location"})
    script.then(200, operation_body("op_location", "succeeded", 2, result=FLUSH_RESULT))
    await client.flush_memory({"scope_id": "team"})
    assert script.requests[1].url.path == "/v1/operations/op_location"


@pytest.mark.parametrize("body_id", ["..", ".", "%2e%2E"])
async def test_an_accepted_body_id_that_is_a_dot_segment_is_refused_before_any_poll(client: Client, script: Script, sleeps: Sleeps, body_id: str) -> None:
    script.then(202, operation_body(body_id, "queued"))
    with pytest.raises(InvalidResponseError) as caught:
        await client.flush_memory({"scope_id": "team"})
    assert "path segment" in str(caught.value)
    assert len(script.requests) == 1


async def test_a_safe_read_is_sent_again_after_503_with_its_retry_after(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(503, UNAVAILABLE, {"retry-after": "2"})
    script.then(200, operation_body("op_1", "queued"))
    found = await client.get_operation("op_1")
    assert found.operation_id == "op_1"
    assert len(script.requests) == 2
    assert sleeps.waits == [2.0]


async def test_a_never_operation_is_not_sent_again(script: Script, sleeps: Sleeps) -> None:
    client = make(script, sleeps)
    script.then(503, UNAVAILABLE)
    with pytest.raises(UnavailableResponseError):
        await client.call("remember_memory", {"scope_id": "team", "kind": "note", "text": "x"})
    assert len(script.requests) <= 1


async def test_a_retry_after_above_the_cap_is_not_waited_for(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(503, UNAVAILABLE, {"retry-after": "600"})
    with pytest.raises(UnavailableResponseError) as caught:
        await client.get_operation("op_1")
    assert caught.value.retry_after == 600.0
    assert len(script.requests) == 1 and sleeps.waits == []


async def test_an_empty_retry_budget_ends_the_call_with_its_error(script: Script, sleeps: Sleeps) -> None:
    client = make(script, sleeps, retry_budget=RetryBudget(capacity=5, retry_cost=5), retry=RetryOptions(max_retries=5, jitter="none"))
    for _ in range(3):
        script.then(503, UNAVAILABLE)
    with pytest.raises(UnavailableResponseError) as caught:
        await client.get_operation("op_1")
    assert caught.value.retry_budget_exhausted is True
    assert len(script.requests) == 2


async def test_a_lost_cancel_whose_transition_holds_is_reconciled(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.fail(httpx.ReadError("connection reset"))
    script.then(409, {"error": {"code": "version_conflict", "message": "moved", "details": {"current_version": 4}}})
    script.then(200, operation_body("op_1", "cancelled", 4))
    done = await client.cancel_operation("op_1", expected_version=3)
    assert (done.status.value, done.version) == ("cancelled", 4)
    assert [r.url.path for r in script.requests] == ["/v1/operations/op_1/cancel", "/v1/operations/op_1/cancel", "/v1/operations/op_1"]


async def test_a_lost_cancel_whose_resource_moved_on_is_an_unknown_outcome(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.fail(httpx.ReadError("connection reset"))
    script.then(409, {"error": {"code": "version_conflict", "message": "moved", "details": {"current_version": 6}}})
    script.then(200, operation_body("op_1", "queued", 6))
    with pytest.raises(VersionConflictError) as caught:
        await client.cancel_operation("op_1", expected_version=3)
    assert caught.value.outcome_unknown is True and caught.value.current_version == 6
    assert caught.value.current["version"] == 6


async def test_a_conflict_without_a_lost_attempt_is_not_reconciled(client: Client, script: Script, sleeps: Sleeps) -> None:
    script.then(409, {"error": {"code": "version_conflict", "message": "moved", "details": {"current_version": 4}}})
    with pytest.raises(VersionConflictError) as caught:
        await client.cancel_operation("op_1", expected_version=3)
    assert caught.value.outcome_unknown is False
    assert len(script.requests) == 1


async def test_a_connect_failure_is_sent_again_even_for_a_never_operation(script: Script, sleeps: Sleeps) -> None:
    client = make(script, sleeps)
    script.fail(httpx.ConnectError("refused"))
    script.then(200, {"revision": 1})
    with pytest.raises((InvalidResponseError, TransportError)):
        await client.call("remember_memory", {"scope_id": "team", "kind": "note", "text": "x"})
    assert len(script.requests) == 2


@pytest.mark.parametrize("filters", [{"limit": 500}, {"limit": "10"}, {"status": "sleeping"}, {"unknown": 1}])
async def test_query_parameters_are_checked_before_anything_is_sent(client: Client, script: Script, filters: dict[str, object]) -> None:
    with pytest.raises(InvalidRequestError):
        await client.list_operations("team", **filters)
    assert script.requests == []


async def test_query_parameters_go_out_by_their_style(client: Client, script: Script) -> None:
    script.then(200, {"operations": [], "next_cursor": None})
    await client.list_operations("team", limit=100, status="failed")
    assert dict(script.requests[0].url.params) == {"scope_id": "team", "limit": "100", "status": "failed"}


async def test_the_token_reflected_by_the_server_appears_in_no_error(client: Client, script: Script) -> None:
    echoed = {"error": {"code": "invalid_request", "message": "bad token secret-token", "details": {"secret-token": "Bearer secret-token"}}}
    script.then(422, echoed, {"x-powercontext-request-id": "req-secret-token"})
    with pytest.raises(Exception) as caught:
        await client.get_operation("op_1")
    error = caught.value
    text = json.dumps([str(error), repr(error), vars(error)], default=str)
    assert "secret-token" not in text
    assert "[REDACTED]" in text


async def test_an_empty_budget_marks_a_transport_failure_too(script: Script, sleeps: Sleeps) -> None:
    client = make(script, sleeps, retry_budget=RetryBudget(capacity=5, retry_cost=5), retry=RetryOptions(max_retries=5, jitter="none"))
    for _ in range(3):
        script.fail(httpx.ConnectError("refused"))
    with pytest.raises(TransportError) as caught:
        await client.get_operation("op_1")
    assert caught.value.retry_budget_exhausted is True and caught.value.phase == "connect"
    assert len(script.requests) == 2


async def test_a_callers_accept_header_replaces_the_default(client: Client, script: Script) -> None:
    script.then(200, operation_body("op_1", "queued"))
    await client.call("get_operation", params={"operation_id": "op_1"}, headers={"accept": "application/json; q=1"})
    assert script.requests[0].headers.get_list("accept") == ["application/json; q=1"]


@pytest.mark.parametrize("token", ["e", "id", "ope", "test"])
async def test_a_success_body_comes_back_as_sent_whatever_the_token_spells(script: Script, sleeps: Sleeps, token: str) -> None:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script.handler))
    client = Client(BASE, token=token, http_client=http, poll=PollPolicy(0.2, 5.0), clock=sleeps.clock, sleep=sleeps.sleep)
    script.then(200, operation_body("op_test_scope_id", "queued"))
    found = await client.get_operation("op_test_scope_id")
    assert found.operation_id == "op_test_scope_id"
    assert found.scope_id == operation_body("op_test_scope_id", "queued")["scope_id"]


async def test_a_short_token_leaves_error_messages_whole_but_not_its_header_spelling(script: Script, sleeps: Sleeps) -> None:
    http = httpx.AsyncClient(transport=httpx.MockTransport(script.handler))
    client = Client(BASE, token="t", http_client=http, poll=PollPolicy(0.2, 5.0), clock=sleeps.clock, sleep=sleeps.sleep)
    echoed = {"error": {"code": "invalid_request", "message": "no step for Bearer t", "details": None}}
    script.then(422, echoed)
    with pytest.raises(Exception) as caught:
        await client.get_operation("op_1")
    assert getattr(caught.value, "server_message", None) == "no step for [REDACTED]"


@pytest.mark.parametrize("token", ["tok-\U0001f600-abc", "tok-\u0100-abc", "caf\u00e9-token", "tok\x00abc", "tok\x7fabc", " tok-abc", "tok-abc\n"])
def test_a_token_no_header_can_carry_is_refused_when_the_client_is_built(token: str) -> None:
    from powercontext_runtime.errors import ConfigurationError

    with pytest.raises(ConfigurationError) as caught:
        Client(BASE, token=token)
    assert "tok" not in str(caught.value).replace("token", "")


@pytest.mark.parametrize("depth", [5_000, 100_000])
async def test_a_success_body_nested_past_the_parser_is_an_invalid_response_not_a_recursion_error(client: Client, script: Script, depth: int) -> None:
    deep = ('{"a":' * depth + "1" + "}" * depth).encode()
    headers = {"content-type": "application/json", "x-powercontext-request-id": "req0000000000001"}
    script.answers.append(lambda request: httpx.Response(200, content=deep, headers=headers))
    with pytest.raises(InvalidResponseError) as caught:
        await client.get_operation("op_1")
    assert "nest" in str(caught.value)


def raw_answer(script: Script, body: bytes, content_type: str) -> None:
    """The next answer: 200 with exactly these bytes and this Content-Type."""

    script.answers.append(lambda request: httpx.Response(200, content=body, headers={"content-type": content_type}))


REPORT = {"selection": {"mode": "exact", "scope_ids": ["team"]}, "format": "markdown"}


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("# Handoff Report\n\nSelection: `exact` — café".encode(), "text/markdown; charset=utf-8"),
        ("# Handoff Report\n\nSelection: `exact` — café".encode("utf-16"), "text/markdown; charset=utf-16"),
        ("# Handoff Report\n\nSelection: `exact` — café".encode("cp1252", errors="replace").replace(b"?", b"-"), "text/markdown; charset=windows-1252"),
        (b"\xef\xbb\xbf" + "# Handoff Report\n\nSelection: `exact` — café".encode(), "text/markdown"),
    ],
)
async def test_a_markdown_report_is_text_decoded_by_its_charset(client: Client, script: Script, body: bytes, content_type: str) -> None:
    raw_answer(script, body, content_type)
    report = await client.call("get_handoff_report", REPORT)
    assert isinstance(report, str)
    assert report.startswith("# Handoff Report\n\nSelection: `exact`")
    assert report.endswith("café")


async def test_a_json_report_is_still_read_as_its_model(client: Client, script: Script) -> None:
    script.then(200, {"report": None, "markdown": "# Handoff Report"})
    with pytest.raises(InvalidResponseError):
        # A JSON body is read as the JSON model: this one lacks what the model requires.
        await client.call("get_handoff_report", {**REPORT, "format": "json"})


async def test_a_text_answer_in_an_unknown_charset_is_an_invalid_response(client: Client, script: Script) -> None:
    raw_answer(script, b"# Handoff Report", "text/markdown; charset=x-unheard-of")
    with pytest.raises(InvalidResponseError) as caught:
        await client.call("get_handoff_report", REPORT)
    assert "charset" in str(caught.value)


async def test_every_request_carries_the_client_headers_unless_the_caller_sets_them(script: Script, sleeps: Sleeps) -> None:
    script.then(200, operation_body("op_1", "queued"))
    script.then(200, operation_body("op_1", "queued"))
    await make(script, sleeps).get_operation("op_1")
    await make(script, sleeps, headers={"x-powercontext-dream-contract": "1"}).get_operation("op_1")
    sent = [request.headers.get_list("X-PowerContext-Dream-Contract") for request in script.requests]
    assert sent == [["2"], ["1"]]


async def test_a_call_header_replaces_the_client_header_of_the_same_name_in_any_case(script: Script, sleeps: Sleeps) -> None:
    script.then(200, operation_body("op_1", "queued"))
    script.then(200, operation_body("op_1", "queued"))
    await make(script, sleeps).call("get_operation", params={"operation_id": "op_1"}, headers={"x-powercontext-dream-contract": "1"})
    await make(script, sleeps, headers={"X-POWERCONTEXT-DREAM-CONTRACT": "3"}).call("get_operation", params={"operation_id": "op_1"}, headers={"x-PowerContext-Dream-Contract": "4"})
    sent = [request.headers.get_list("X-PowerContext-Dream-Contract") for request in script.requests]
    assert sent == [["1"], ["4"]]
