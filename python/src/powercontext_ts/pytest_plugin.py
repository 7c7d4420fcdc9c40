"""The pytest fixture ``powercontext_mock``: the embedded mock for the tests of one module.

Installed with this package (entry point ``pytest11``), so any test may ask for it::

    def test_lists_scopes(powercontext_mock):
        client = Client(powercontext_mock.url, token=powercontext_mock.token)

Node.js 20.19 or later and ``powercontext-mock`` must be found (:mod:`powercontext_ts.mock`);
without them the fixture fails with :class:`~powercontext_ts.mock.MockUnavailableError`.
Mark a module with ``@pytest.mark.powercontext_mock(seed=7, inference="off")`` to choose the
seed and the face.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from powercontext_ts.mock import RunningMock, start_mock


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "powercontext_mock(seed=1, inference='on'): options of the powercontext_mock fixture"
    )


@pytest.fixture(scope="module")
def powercontext_mock(request: pytest.FixtureRequest) -> Iterator[RunningMock]:
    """A running mock (``url``, ``token``), started once per module and stopped after it."""

    marker = request.node.get_closest_marker("powercontext_mock")
    options = dict(marker.kwargs) if marker is not None else {}
    with start_mock(seed=int(options.get("seed", 1)), inference=options.get("inference", "on")) as mock:
        yield mock
