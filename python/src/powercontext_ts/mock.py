"""The embedded PowerContext mock (``powercontext-mock serve`` of ``@powercontext/msw``) for an app's tests.

The mock is a Node program: Node.js 20.19 or later must be on ``PATH``. The command is
found in this order: the ``POWERCONTEXT_MOCK`` environment variable (the path of
``powercontext-mock.js``, or of an executable), then ``powercontext-mock`` on ``PATH``
(``npm install --global @powercontext/msw``, or ``node_modules/.bin`` of a project).
It listens on a free loopback port; its URL is what it prints first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from dataclasses import dataclass, field
from types import TracebackType
from typing import Literal

DEFAULT_TOKEN = "pc-admin"
"""The administrator token of the mock's documented default principals."""

START_TIMEOUT = 30.0
"""Longest wait for the mock to print its URL, in seconds."""


class MockUnavailableError(RuntimeError):
    """The mock cannot start: Node or ``powercontext-mock`` is missing, or it exited first."""


def _command() -> list[str]:
    node = shutil.which("node")
    if node is None:
        raise MockUnavailableError(
            "the PowerContext mock is a Node program: install Node.js 20.19 or later and put `node` on PATH"
        )
    configured = os.environ.get("POWERCONTEXT_MOCK")
    found = configured or shutil.which("powercontext-mock")
    if not found:
        raise MockUnavailableError(
            "powercontext-mock not found: `npm install --global @powercontext/msw`, or set POWERCONTEXT_MOCK "
            "to the path of powercontext-mock.js"
        )
    return [node, found] if found.endswith((".js", ".mjs")) else [found]


@dataclass
class RunningMock:
    """A running mock: its base URL (no trailing slash) and the bearer token to send."""

    url: str
    token: str
    process: subprocess.Popen[str] = field(repr=False)

    def close(self) -> None:
        """Stops the mock (SIGTERM, then SIGKILL after 5 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def __enter__(self) -> RunningMock:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def start_mock(seed: int = 1, inference: Literal["on", "off"] = "on") -> RunningMock:
    """Starts ``powercontext-mock serve --port 0`` and waits for its URL.

    ``inference="off"`` answers as a default 1.4.1 install without a model. Raises
    :class:`MockUnavailableError` when Node or the mock is missing, or the mock exits or
    prints no URL within :data:`START_TIMEOUT` seconds.
    """

    command = [*_command(), "serve", "--port", "0", "--seed", str(seed), "--inference", inference]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(START_TIMEOUT, process.kill)
    timer.start()
    try:
        line = process.stdout.readline().strip() if process.stdout is not None else ""
    finally:
        timer.cancel()
    if not line.startswith("http://"):
        process.kill()
        _, errors = process.communicate()
        raise MockUnavailableError(f"powercontext-mock printed no URL: {errors.strip()[-500:]}")
    return RunningMock(url=line, token=DEFAULT_TOKEN, process=process)
