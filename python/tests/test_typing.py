"""The sources type-check under mypy --strict (pyproject's [tool.mypy]), the generated layer included."""

from __future__ import annotations

import pytest

from test_package import PROJECT


def test_mypy_strict_finds_no_issue_in_the_sources() -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is installed by scripts/ci/python-env.sh")
    stdout, stderr, status = api.run(["--config-file", str(PROJECT / "pyproject.toml"), "--no-incremental", str(PROJECT / "src")])
    assert status == 0, stdout + stderr
    assert stdout.startswith("Success: no issues found")
