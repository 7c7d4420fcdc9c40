"""Say, for each request read from standard input, whether the installed release's own
request model of its operation accepts it: what the release's Python client does before
sending (it sends only a request model it could build) and what the server's access layer
does first.

Input (JSON; the bare words NaN and Infinity are allowed): [{"id", "operation", "request"}],
where "request" is the flat request (path, query and header parameters by wire name beside
the body's members). Output: {"<id>": "accept" | "refuse" | "absent"} (absent: the release has no such operation, or no request model for it). Nothing of the release is
printed or kept: only the verdicts.
"""

from __future__ import annotations

import json
import sys

from pydantic import ValidationError

import powercontext.http._generated.operations as operations


def operation(name: str):
    for value in vars(operations).values():
        if getattr(value, "operation_id", None) == name:
            return value
    return None


def verdict(case: dict) -> str:
    op = operation(case["operation"])
    if op is None or op.request_type is None:
        return "absent"
    request = {k: v for k, v in case["request"].items() if k not in op.path_parameters}
    try:
        op.request_type.model_validate(request)
    except (ValidationError, ValueError):
        return "refuse"
    return "accept"


def main() -> None:
    cases = json.loads(sys.stdin.read())
    json.dump({case["id"]: verdict(case) for case in cases}, sys.stdout)


if __name__ == "__main__":
    main()
