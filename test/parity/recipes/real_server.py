"""Start the released server for a recipe run: loopback, SQLite in a temporary folder,
static bearer authentication on, metrics off (the same settings as test/real/server.ts)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import yaml

SETTINGS = Path(__file__).resolve().parent / "server.yaml"


@dataclass(frozen=True)
class Server:
    base_url: str
    token: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def start_server(ready_timeout: float = 60.0) -> AsyncIterator[Server]:
    data = Path(tempfile.mkdtemp(prefix="powercontext-recipes-"))
    (data / "home").mkdir()
    (data / "workspace").mkdir()
    token = f"pc-recipes-{secrets.token_hex(18)}"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POWERCONTEXT_", "OTEL_"))}
    env.update(
        POWERCONTEXT_HOME=str(data / "home"),
        POWERCONTEXT_SERVER_DATABASE=json.dumps({"kind": "sqlite", "url": f"sqlite+aiosqlite:///{data / 'powercontext.db'}"}),
        POWERCONTEXT_SERVER_METRICS_ENABLED="false",
        POWERCONTEXT_SERVER_LOGGING_FORMAT="json",
        POWERCONTEXT_SERVER_AUTH_ENABLED="true",
        POWERCONTEXT_SERVER_AUTH_TOKEN=token,
    )
    env.update({k: str(v) for k, v in (yaml.safe_load(SETTINGS.read_text(encoding="utf-8")) or {}).get("env", {}).items()})
    binary = Path(sys.executable).with_name("powercontext")
    # RECIPES_SERVER_LOG=path keeps the server's output for diagnosis; otherwise it is dropped
    log_path = os.environ.get("RECIPES_SERVER_LOG")
    log = open(log_path, "wb") if log_path else None  # noqa: SIM115 - closed in finally
    process = await asyncio.create_subprocess_exec(
        str(binary), "server", "run", "--host", "127.0.0.1", "--port", str(port), "--no-env-file",
        cwd=data / "workspace", env=env,
        stdout=log or asyncio.subprocess.DEVNULL, stderr=log or asyncio.subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = asyncio.get_running_loop().time() + ready_timeout
        async with httpx.AsyncClient(trust_env=False, timeout=2.0) as probe:
            while True:
                if process.returncode is not None:
                    raise SystemExit(f"powercontext server run exited with {process.returncode}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await probe.get(f"{base_url}/health/ready")).status_code == 200:
                        break
                if asyncio.get_running_loop().time() > deadline:
                    raise SystemExit(f"the server at {base_url} was not ready in {ready_timeout:.0f} s")
                await asyncio.sleep(0.25)
        yield Server(base_url, token)
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except asyncio.TimeoutError:
                process.kill()
                await process.wait()
        if log is not None:
            log.close()
        shutil.rmtree(data, ignore_errors=True)
