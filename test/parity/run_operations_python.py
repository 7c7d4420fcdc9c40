"""Run one Operation parity vector with our Python client (python/, powercontext_ts.Client).

    python test/parity/run_operations_python.py --run FILE URL [--run FILE URL ...]

Each vector FILE runs against its own server at URL; the server (the embedded mock server, prepared by test/parity/operations-parity.test.ts
as the vector's setup says) answers; the outcome of every step is printed as one JSON array, in
the same terms as the TypeScript side, which runs the same vector with our SDK:
``{vector name: [{step, outcome, status_code?, code?, operation_id?, result?}, ...]}``. A string argument
``$step.path`` is the value at ``path`` in that earlier step's outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python" / "src"))

from powercontext_ts import (  # noqa: E402
    Client,
    ClientError,
    InvalidResponseError,
    OperationBlockedError,
    OperationCancelledError,
    OperationFailedError,
    OperationPendingError,
    ServerResponseError,
    TransportError,
)


def resolve(value: Any, outcomes: dict[str, dict[str, Any]]) -> Any:
    if isinstance(value, str) and value.startswith("$"):
        step, _, path = value[1:].partition(".")
        current: Any = outcomes[step]
        for part in path.split("."):
            current = current[part]
        return current
    if isinstance(value, dict):
        return {k: resolve(v, outcomes) for k, v in value.items()}
    return value


def dumped(value: Any) -> Any:
    return value.model_dump(mode="json", by_alias=True, exclude_unset=True) if hasattr(value, "model_dump") else value


async def call(client: Client, name: str, args: dict[str, Any]) -> Any:
    if name == "flush_memory":
        return await client.flush_memory(args["request"], deadline=args["deadline_s"])
    if name == "wait_for_operation":
        return await client.wait_for_operation(args["operation_id"], deadline=args["deadline_s"])
    if name == "get_operation":
        return await client.get_operation(args["operation_id"])
    if name == "list_operations":
        return await client.list_operations(args["scope_id"], **{k: v for k, v in args.items() if k != "scope_id"})
    if name in {"cancel_operation", "retry_operation"}:
        return await getattr(client, name)(args["operation_id"], args["expected_version"])
    raise SystemExit(f"unknown call {name}")


def outcome_of(step: str, error: ClientError) -> dict[str, Any]:
    if isinstance(error, ServerResponseError):
        out: dict[str, Any] = {"step": step, "outcome": "ServerResponseError", "status_code": error.status_code, "code": error.code}
        if isinstance(error, OperationBlockedError):
            out["operation_id"] = error.operation_id
        return out
    if isinstance(error, OperationPendingError):
        return {"step": step, "outcome": "OperationPendingError", "operation_id": error.operation_id}
    if isinstance(error, OperationFailedError):
        return {"step": step, "outcome": "OperationFailedError", "operation_id": error.operation_id, "code": error.code}
    if isinstance(error, OperationCancelledError):
        return {"step": step, "outcome": "OperationCancelledError", "operation_id": error.operation_id}
    for cls in (InvalidResponseError, TransportError):
        if isinstance(error, cls):
            return {"step": step, "outcome": cls.__name__}
    return {"step": step, "outcome": type(error).__name__}


async def run(vector: dict[str, Any], base_url: str) -> list[dict[str, Any]]:
    outcomes: dict[str, dict[str, Any]] = {}
    ordered: list[dict[str, Any]] = []
    for step in vector["steps"]:
        args = resolve(step["args"], outcomes)
        async with Client(base_url, token=step["token"], timeout=5.0) as client:
            try:
                result = dumped(await call(client, step["call"], args))
                out: dict[str, Any] = {"step": step["name"], "outcome": "success", "result": result}
                if isinstance(result, dict) and isinstance(result.get("operation_id"), str):
                    out["operation_id"] = result["operation_id"]
            except ClientError as error:
                out = outcome_of(step["name"], error)
        outcomes[step["name"]] = out
        ordered.append(out)
    return ordered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", nargs=2, action="append", metavar=("FILE", "URL"), required=True)
    args = parser.parse_args()
    # neither a proxy nor a host settings file of the machine may change what the client does
    for key in [k for k in os.environ if k.lower() in {"http_proxy", "https_proxy", "all_proxy"} or k.startswith("POWERCONTEXT_CLIENT_")]:
        os.environ.pop(key)
    os.environ["POWERCONTEXT_CLIENT_CONFIG_FILE"] = str(Path(tempfile.mkdtemp(prefix="parity-")) / "absent.json")
    results: dict[str, list[dict[str, Any]]] = {}
    for file, url in args.run:
        vector = json.loads(Path(file).read_text(encoding="utf-8"))
        results[vector["name"]] = asyncio.run(run(vector, url))
    print(json.dumps(results, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
