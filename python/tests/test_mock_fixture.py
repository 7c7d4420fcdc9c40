"""The pytest fixture that starts the embedded mock (Node program) for an app's tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest

from powercontext_ts.mock import MockUnavailableError, RunningMock, start_mock
from powercontext_ts.pytest_plugin import powercontext_mock  # noqa: F401  (the fixture under test)

ENTRY = Path(__file__).resolve().parents[2] / "packages" / "msw" / "bin" / "powercontext-mock.js"
BUILT = ENTRY.parent.parent / "dist" / "server" / "cli.js"

if "POWERCONTEXT_MOCK" not in os.environ:
    os.environ["POWERCONTEXT_MOCK"] = str(ENTRY)

# the fixture is started once per module: the module's mark chooses its seed and face
pytestmark = pytest.mark.powercontext_mock(seed=3, inference="off")

needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not BUILT.exists(), reason="needs node on PATH and a built @powercontext/msw"
)


@needs_node
def test_the_fixture_hands_over_a_running_mock_with_its_url_and_token(powercontext_mock: RunningMock) -> None:  # noqa: F811
    assert powercontext_mock.url.startswith("http://127.0.0.1:")
    headers = {"authorization": f"Bearer {powercontext_mock.token}"}
    listed = httpx.get(f"{powercontext_mock.url}/v1/scopes", headers=headers)
    assert listed.status_code == 200
    capabilities = httpx.get(f"{powercontext_mock.url}/v1/capabilities", headers=headers).json()
    assert capabilities["memory_extraction"] is False
    refused = httpx.get(f"{powercontext_mock.url}/v1/scopes", headers={"authorization": "Bearer nope"})
    assert refused.status_code == 401


@needs_node
def test_a_closed_mock_stops_listening() -> None:
    with start_mock() as mock:
        url = mock.url
        assert httpx.get(f"{url}/v1/scopes", headers={"authorization": f"Bearer {mock.token}"}).status_code == 200
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{url}/v1/scopes")


def test_without_node_on_path_it_fails_naming_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    with pytest.raises(MockUnavailableError, match="Node.js 20.19 or later"):
        start_mock()


def test_a_command_that_is_no_mock_fails_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("needs node on PATH")
    script = tmp_path / "not-a-mock.js"
    script.write_text("process.stderr.write('no such subcommand\\n'); process.exit(1);\n")
    monkeypatch.setenv("POWERCONTEXT_MOCK", str(script))
    with pytest.raises(MockUnavailableError, match="printed no URL: no such subcommand"):
        start_mock()
