"""The model-rule vectors (test/vectors/model-rules.json) run against a ``models`` module.

Each vector names a schema, a value and whether the model accepts it; ``sent``, when
given, is what the model holds afterwards (JSON, by wire name, members as sent). The
yardstick runs them on the release's models and ours and requires both to agree with
the vector; python/tests runs them on ours.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ValidationError

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "model-rules.json"
FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def decoded(value: Any) -> Any:
    """The vector's value with ``{"$float": ...}`` read as that float."""

    if isinstance(value, dict):
        if set(value) == {"$float"}:
            return FLOATS[value["$float"]]
        return {key: decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [decoded(item) for item in value]
    return value


@dataclass(frozen=True)
class Outcome:
    schema: str
    why: str
    accepted: bool
    sent: Any


def load() -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]
    return vectors


def run(models: ModuleType, vectors: list[dict[str, Any]]) -> list[Outcome]:
    """Validates every vector's value with the model of its schema in ``models``."""

    outcomes = []
    for vector in vectors:
        model: type[BaseModel] = getattr(models, vector["schema"])
        try:
            instance = model.model_validate(decoded(vector["value"]))
        except ValidationError:
            outcomes.append(Outcome(vector["schema"], vector["why"], False, None))
            continue
        sent = instance.model_dump(mode="json", by_alias=True, exclude_unset=True)
        outcomes.append(Outcome(vector["schema"], vector["why"], True, sent))
    return outcomes


def problems(vectors: list[dict[str, Any]], outcomes: list[Outcome], who: str) -> list[str]:
    """Where ``outcomes`` disagree with what the vectors expect."""

    found = []
    for vector, outcome in zip(vectors, outcomes, strict=True):
        label = f"{who} {vector['schema']} ({vector['why']})"
        if outcome.accepted != vector["valid"]:
            found.append(f"{label}: {'accepted' if outcome.accepted else 'refused'}, the vector says {'valid' if vector['valid'] else 'invalid'}")
        elif "sent" in vector and outcome.sent != vector["sent"]:
            found.append(f"{label}: holds {outcome.sent!r}, the vector says {vector['sent']!r}")
    return found


def without_rules(path: Path, name: str) -> ModuleType:
    """The models module at ``path`` with every method removed from its classes: the
    schema's checks without the model rules, to show that an invalid vector breaks a rule."""

    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            node.body = [s for s in node.body if not isinstance(s, ast.FunctionDef)] or [ast.Pass()]
    module = ModuleType(name)
    sys.modules[name] = module
    exec(compile(tree, str(path), "exec"), module.__dict__)  # our own generated file, parsed above
    return module


def not_by_a_rule(vectors: list[dict[str, Any]], plain: list[Outcome]) -> list[str]:
    """Invalid vectors that the models without rules refuse too: they test no rule."""

    return [f"{v['schema']} ({v['why']}): refused without the model rules too" for v, o in zip(vectors, plain, strict=True) if not v["valid"] and not o.accepted]
