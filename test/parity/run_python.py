"""Run the parity vectors with the released Python PowerContextClient.

Each vector's request goes to the scripted loopback server (test/parity/scripted-server.ts),
which answers as the vector says; the outcome the Python client produces is printed.

    python test/parity/run_python.py                      # starts the scripted server itself
    python test/parity/run_python.py --base-url URL       # use a server that is already running
    python test/parity/run_python.py --json               # machine-readable outcomes on stdout
    python test/parity/run_python.py --check              # exit 1 when an outcome differs from "expect"
    python test/parity/run_python.py --steps FILE --base-url URL
        # run a scenario (JSON list of {name, operation, token, request}) against a server as it
        # is, for example the embedded mock server; prints the outcomes as JSON
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from powercontext.client import (
    ClientError,
    InvalidResponseError,
    PowerContextClient,
    ServerResponseError,
    TransportError,
)
from powercontext.http._generated import operations

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TOKEN = "parity-token"
BASE_CLASSES = (ServerResponseError, InvalidResponseError, TransportError)


def load_vectors(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.json"))]


def base_class(error: ClientError) -> str:
    for cls in BASE_CLASSES:
        if isinstance(error, cls):
            return cls.__name__
    return type(error).__name__


async def run_vector(base_url: str, vector: dict[str, Any]) -> dict[str, Any]:
    return await run_call(f"{base_url}/__vectors/{vector['name']}", vector, TOKEN)


async def run_call(
    base_url: str, vector: dict[str, Any], token: str | None, *, exclude_unset: bool = False
) -> dict[str, Any]:
    name = vector["name"]
    operation = getattr(operations, vector["operation"].upper())
    if operation.path_parameters:
        raise SystemExit(f"{name}: operations with path parameters are not supported by this runner")
    async with PowerContextClient(base_url, token=token, timeout=5.0) as client:
        method = getattr(client, vector["operation"])
        args = []
        if operation.request_type is not None:
            args.append(operation.request_type.model_validate(vector["request"]))
        try:
            result = await method(*args)
        except ClientError as error:
            outcome: dict[str, Any] = {
                "vector": name,
                "outcome": base_class(error),
                "error_class": type(error).__name__,
                "request_id": error.request_id,
            }
            if isinstance(error, ServerResponseError):
                outcome.update(
                    status_code=error.status_code,
                    code=error.code,
                    message=error.server_message,
                    details=error.details,
                )
            return outcome
    dumped = (
        result.model_dump(mode="json", by_alias=True, exclude_unset=exclude_unset)
        if hasattr(result, "model_dump")
        else result
    )
    return {"vector": name, "outcome": "success", "request_id": None, "result": dumped}


def differences(expect: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    problems = []
    for key, wanted in expect.items():
        if key == "result":
            got = actual.get("result") or {}
            for field, value in wanted.items():
                if got.get(field) != value:
                    problems.append(f"result.{field}: expected {value!r}, got {got.get(field)!r}")
        elif key == "request_id" and actual["outcome"] == "success":
            continue  # a success carries no request id in the Python client
        elif actual.get(key) != wanted:
            problems.append(f"{key}: expected {wanted!r}, got {actual.get(key)!r}")
    return problems


def start_scripted_server(vectors_dir: Path) -> tuple[subprocess.Popen[str], str]:
    node = os.environ.get("PARITY_NODE", "node")
    process = subprocess.Popen(
        [node, "--import", "tsx", str(HERE / "scripted-server.ts"), str(vectors_dir)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line.startswith("http://127.0.0.1:"):
        process.kill()
        raise SystemExit(f"scripted server did not start (got {line!r})")
    return process, line


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="scripted server already listening (default: start one)")
    parser.add_argument("--vectors", type=Path, default=HERE / "vectors")
    parser.add_argument("--only", action="append", default=[], help="run only this vector (repeatable)")
    parser.add_argument("--json", action="store_true", help="print outcomes as one JSON array")
    parser.add_argument("--check", action="store_true", help="exit 1 when an outcome differs from its expectation")
    parser.add_argument("--steps", type=Path, help="run this scenario against --base-url as it is (JSON outcomes)")
    args = parser.parse_args()

    vectors = load_vectors(args.vectors)
    if args.only:
        vectors = [v for v in vectors if v["name"] in args.only]
    # a proxy from the environment must never see loopback parity traffic
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        os.environ.pop(key, None)
    for key in [k for k in os.environ if k.startswith("POWERCONTEXT_CLIENT_")]:
        os.environ.pop(key)
    # a host settings file of the machine must not change the client's behaviour: point at none
    os.environ["POWERCONTEXT_CLIENT_CONFIG_FILE"] = str(Path(tempfile.mkdtemp(prefix="parity-")) / "absent.json")

    if args.steps is not None:
        if args.base_url is None:
            raise SystemExit("--steps needs --base-url")
        steps = json.loads(args.steps.read_text(encoding="utf-8"))
        # the members a server sent, exactly: defaults of the client's models are left out
        results = [await run_call(args.base_url, step, step.get("token"), exclude_unset=True) for step in steps]
        print(json.dumps(results, indent=2, sort_keys=True))
        return 0

    process = None
    base_url = args.base_url
    if base_url is None:
        process, base_url = start_scripted_server(args.vectors)
    try:
        outcomes = [await run_vector(base_url, vector) for vector in vectors]
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=10)

    failed = 0
    if args.json:
        print(json.dumps(outcomes, indent=2, sort_keys=True))
    for vector, outcome in zip(vectors, outcomes):
        problems = differences(vector["expect"], outcome)
        failed += bool(problems)
        if not args.json:
            fields = {k: v for k, v in outcome.items() if k not in {"vector", "result"}}
            mark = "ok  " if not problems else "DIFF"
            print(f"{mark} {vector['name']}: {json.dumps(fields, sort_keys=True)}")
            for problem in problems:
                print(f"       {problem}")
    if not args.json:
        print(f"python parity: {len(vectors) - failed} passed, {failed} failed")
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
