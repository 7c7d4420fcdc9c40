"""Run the contract recipes with the released Python PowerContextClient against a real server.

The recipes (``test/parity/recipes/*.yaml``, format in ``test/parity/recipes/README.md``)
call every operation of the release in the order an application would, capturing ids
from earlier answers. This is the Python side of the whole-contract parity run; the
TypeScript side reads the same files and calls ``client.request(operationId, request)``.

    python test/parity/recipes/run_recipes.py --start            # start a 1.4.1 server (SQLite, auth on, loopback)
    python test/parity/recipes/run_recipes.py --base-url URL --token TOKEN
    options: --json (one JSON array of outcomes on stdout), --only OPERATION (repeatable)

For every step it records the HTTP status, the error code of an error envelope, and
whether the client accepted the success body (a model it could build).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from powercontext.client import (
    ClientError,
    InvalidResponseError,
    PowerContextClient,
    ServerResponseError,
    TransportError,
)
from powercontext.http._generated import operations

sys.path.insert(0, str(Path(__file__).resolve().parent))
from recipe_format import MissingValue, capture, load_recipes, substitute  # noqa: E402
from real_server import start_server  # noqa: E402

HERE = Path(__file__).resolve().parent

# How the Python client takes conditional-request headers (keyword argument per header).
HEADER_KEYWORDS = {"If-Match": "expected_etag", "If-None-Match": "if_none_match"}


class Exchange:
    """The last HTTP exchange the client made, seen through an httpx response hook."""

    def __init__(self) -> None:
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.body: Any = None

    async def hook(self, response: httpx.Response) -> None:
        await response.aread()
        self.status = response.status_code
        self.headers = {k.lower(): v for k, v in response.headers.items()}
        try:
            self.body = response.json() if response.content else None
        except ValueError:
            self.body = None


def build_call(operation_id: str, method: Any, request: dict[str, Any], headers: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Positional and keyword arguments for ``method`` from a flat wire request."""
    descriptor = getattr(operations, operation_id.upper())
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    consumed = set(descriptor.path_parameters)
    parameters = list(inspect.signature(method).parameters.values())
    names = {p.name for p in parameters}
    for parameter in parameters:
        if parameter.name in descriptor.path_parameters:
            args.append(request[parameter.name])
        elif parameter.name == "request":
            fields = {k: v for k, v in request.items() if k not in consumed and k not in names - {"request"}}
            args.append(descriptor.request_type.model_validate(fields))
        elif parameter.name in HEADER_KEYWORDS.values():
            header = next(h for h, k in HEADER_KEYWORDS.items() if k == parameter.name)
            if header in headers:
                kwargs[parameter.name] = headers[header]
        elif parameter.name in request:
            kwargs[parameter.name] = request[parameter.name]
    return args, kwargs


class Clients:
    """One PowerContextClient (over one httpx client with the exchange hook) per bearer token.

    Creating an httpx client loads TLS settings (about 0.2 s), so clients are reused."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self._open: dict[str | None, tuple[httpx.AsyncClient, PowerContextClient, Exchange]] = {}

    def get(self, token: str | None) -> tuple[PowerContextClient, Exchange]:
        if token not in self._open:
            exchange = Exchange()
            http = httpx.AsyncClient(timeout=30.0, trust_env=False, event_hooks={"response": [exchange.hook]})
            self._open[token] = (http, PowerContextClient(self.base_url, token=token, http_client=http), exchange)
        _, client, exchange = self._open[token]
        exchange.__init__()
        return client, exchange

    async def aclose(self) -> None:
        for http, client, _ in self._open.values():
            await client.aclose()
            await http.aclose()


async def run_step(clients: Clients, admin_token: str, step: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    started = time.monotonic()
    outcome = await call_step(clients, admin_token, step, values)
    outcome["ms"] = round((time.monotonic() - started) * 1000)
    return outcome


async def call_step(clients: Clients, admin_token: str, step: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    operation_id = step["operation"]
    outcome: dict[str, Any] = {"step": step["id"], "operation": operation_id}
    try:
        request = substitute(step.get("request", {}), values)
        headers = substitute(step.get("headers", {}), values)
        auth = substitute(step.get("auth", "admin"), values)
    except MissingValue as missing:
        return {**outcome, "outcome": "skipped", "status": None, "code": None, "accepted": None, "note": f"needs {missing}", "as_expected": False}
    token = admin_token if auth == "admin" else None if auth == "none" else str(auth)
    client, exchange = clients.get(token)
    method = getattr(client, operation_id)
    try:
        args, kwargs = build_call(operation_id, method, request, headers)
        await method(*args, **kwargs)
        outcome.update(outcome="success", accepted=True, code=None)
    except ServerResponseError as error:
        details = f" {json.dumps(error.details)[:300]}" if error.details else ""
        outcome.update(outcome="server_error", accepted=None, code=error.code, note=f"{error.server_message}{details}")
    except InvalidResponseError as error:
        outcome.update(outcome="invalid_response", accepted=False, code=None, note=str(error).splitlines()[0][:200])
    except TransportError as error:
        outcome.update(outcome="transport", accepted=None, code=None, note=type(error).__name__)
    except ClientError as error:
        outcome.update(outcome=type(error).__name__, accepted=None, code=None)
    except ValueError as error:  # the client's request model refused the input before sending
        outcome.update(outcome="invalid_input", accepted=None, code=None, note=str(error).splitlines()[0])
    outcome["status"] = exchange.status if outcome["outcome"] != "invalid_input" else None
    expect = step.get("expect")
    outcome["as_expected"] = (
        outcome["outcome"] == "success"
        if expect is None
        else outcome["status"] == expect.get("status") and outcome.get("code") == expect.get("code")
    )
    if outcome["outcome"] == "success" and step.get("capture"):
        outcome["body_members"] = sorted(exchange.body) if isinstance(exchange.body, dict) else None
    if outcome["outcome"] == "success":
        values.update(capture(step, exchange.body, exchange.headers))
    return outcome


async def run_all(base_url: str, token: str, only: list[str]) -> list[dict[str, Any]]:
    values: dict[str, Any] = {}
    results = []
    clients = Clients(base_url)
    try:
        for step in load_recipes(HERE):
            if only and step["operation"] not in only and not step.get("setup"):
                continue
            results.append(await run_step(clients, token, step, values))
    finally:
        await clients.aclose()
    return results


def print_table(results: list[dict[str, Any]], verbose: bool) -> None:
    print(f"{'step':40} {'operation':36} {'status':>6}  {'code':36} accepted")
    for r in results:
        accepted = "" if r.get("accepted") is None else str(r["accepted"]).lower()
        print(f"{r['step'][:40]:40} {r['operation'][:36]:36} {str(r.get('status') or '-'):>6}  {str(r.get('code') or r['outcome'])[:36]:36} {accepted}")
        if verbose and r.get("note"):
            print(f"{'':40}   {str(r['note'])[:160]}")
    called = {r["operation"] for r in results if r["outcome"] != "skipped"}
    succeeded = {r["operation"] for r in results if r["outcome"] == "success"}
    unexpected = [r["step"] for r in results if not r.get("as_expected")]
    print(f"operations called: {len(called)}, reaching a success status: {len(succeeded)}, steps: {len(results)}")
    print(f"steps not answered as the recipe expects: {len(unexpected)}{' (' + ', '.join(unexpected) + ')' if unexpected else ''}")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url")
    parser.add_argument("--token")
    parser.add_argument("--start", action="store_true", help="start a 1.4.1 server from this venv for the run")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--verbose", action="store_true", help="print the server's message under a failed step")
    args = parser.parse_args()
    for key in [k for k in os.environ if k.startswith("POWERCONTEXT_CLIENT_") or k.lower().endswith("_proxy")]:
        os.environ.pop(key)
    os.environ["POWERCONTEXT_CLIENT_CONFIG_FILE"] = str(Path(tempfile.mkdtemp(prefix="recipes-")) / "absent.json")
    if args.start:
        async with start_server() as server:
            results = await run_all(server.base_url, server.token, args.only)
    else:
        if not args.base_url or not args.token:
            raise SystemExit("give --base-url and --token, or --start")
        results = await run_all(args.base_url, args.token, args.only)
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
    else:
        print_table(results, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
