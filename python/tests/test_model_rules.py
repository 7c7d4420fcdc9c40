"""The generated models enforce the contract's model rules (x-powercontext-rules): the shared vectors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test" / "python"))

import model_vectors  # noqa: E402

from powercontext_ts._generated import models  # noqa: E402

VECTORS = model_vectors.load()


def test_every_vector_is_accepted_or_refused_as_it_says() -> None:
    outcomes = model_vectors.run(models, VECTORS)
    assert model_vectors.problems(VECTORS, outcomes, "ours") == []
    assert sum(1 for o in outcomes if not o.accepted) >= 30


def test_every_refusal_comes_from_a_model_rule() -> None:
    plain = model_vectors.without_rules(Path(models.__file__), "plain_generated_models")
    assert model_vectors.not_by_a_rule(VECTORS, model_vectors.run(plain, VECTORS)) == []


@pytest.mark.parametrize("query", ["  hello  ", "\thello\n", "hello"])
def test_a_search_query_is_sent_trimmed(query: str) -> None:
    request = models.SearchArtifactsRequest.model_validate({"query": query})
    assert request.model_dump(mode="json", exclude_unset=True) == {"query": "hello"}
