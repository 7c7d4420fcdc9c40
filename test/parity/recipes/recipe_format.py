"""Reading the contract recipes: files, templates and captures (Python side).

The TypeScript side (test/parity/recipes/recipe-format.ts) implements the same rules;
test/parity/recipes/README.md is the reference for both.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

try:
    import yaml  # PyYAML, installed with schemathesis by scripts/ci/python-env.sh
except ImportError as error:  # pragma: no cover - the message is the point
    raise SystemExit("the recipes need PyYAML in the venv (run: bash scripts/ci/python-env.sh)") from error

STEP_KEYS = {"id", "operation", "request", "headers", "auth", "capture", "capture_headers", "expect", "why", "setup"}
WHOLE = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\|([^}]*))?\}$")
PART = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\|([^}]*))?\}")


class MissingValue(Exception):
    """A template names a value no earlier step captured."""


def load_recipes(directory: Path) -> list[dict[str, Any]]:
    """Every step of ``directory/*.yaml`` in file-name order; ids default to the operationId."""
    steps: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in sorted(directory.glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for index, step in enumerate(document.get("steps", [])):
            where = f"{path.name} step {index + 1}"
            unknown = set(step) - STEP_KEYS
            if unknown or "operation" not in step:
                raise SystemExit(f"{where}: needs operation; unknown members {sorted(unknown)}")
            if "expect" in step and not step.get("why"):
                raise SystemExit(f"{where}: a step with expect needs why")
            step = {**step, "id": step.get("id", step["operation"]), "file": path.name}
            if step["id"] in seen:
                raise SystemExit(f"{where}: id {step['id']} is used twice; give the step an id")
            seen.add(step["id"])
            steps.append(step)
    return steps


def substitute(node: Any, values: dict[str, Any]) -> Any:
    """Replace ``${name}`` (or ``${name|fallback}``): a whole string becomes the captured value
    (any JSON type), a part is interpolated; the fallback string stands in for a value no step captured."""
    if isinstance(node, dict):
        return {k: substitute(v, values) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute(v, values) for v in node]
    if not isinstance(node, str):
        return node
    whole = WHOLE.match(node)
    if whole:
        return lookup(whole, values)

    def part(match: re.Match[str]) -> str:
        value = lookup(match, values)
        return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))

    return PART.sub(part, node)


def lookup(match: re.Match[str], values: dict[str, Any]) -> Any:
    name, fallback = match.group(1), match.group(2)
    if name in values:
        return values[name]
    if fallback is not None:
        return fallback
    raise MissingValue(name)


def pointer_get(body: Any, pointer: str) -> Any:
    """The value at an RFC 6901 pointer, or raise KeyError."""
    node = body
    for raw in pointer.split("/")[1:] if pointer else []:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(key)]
        elif isinstance(node, dict):
            node = node[key]
        else:
            raise KeyError(pointer)
    return node


def capture(step: dict[str, Any], body: Any, headers: dict[str, str]) -> dict[str, Any]:
    """Values a successful step captures: JSON pointers into the body, header names (any case)."""
    found: dict[str, Any] = {}
    for name, pointer in (step.get("capture") or {}).items():
        try:
            found[name] = pointer_get(body, pointer)
        except (KeyError, IndexError, ValueError):
            pass  # absent: later steps that need it are skipped on both sides alike
    for name, header in (step.get("capture_headers") or {}).items():
        if header.lower() in headers:
            found[name] = headers[header.lower()]
    return found
