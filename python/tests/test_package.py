"""The package is pip-installable, ships its generated layer and runtime typed, and needs no release."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]


def test_a_wheel_builds_and_holds_the_generated_layer(tmp_path: Path) -> None:
    # built offline with the environment's own setuptools and wheel (scripts/ci/python-env.sh installs them)
    pytest.importorskip("setuptools")
    pytest.importorskip("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(tmp_path), str(PROJECT)],
        check=True,
        timeout=180,
    )
    wheels = list(tmp_path.glob("powercontext_ts-*.whl"))
    assert len(wheels) == 1
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    for module in ("models", "operations", "schema", "extensions", "parameters", "errors"):
        assert f"powercontext_ts/_generated/{module}.py" in names
    assert "powercontext_ts/client.py" in names
    assert {"powercontext_ts/py.typed", "powercontext_runtime/py.typed", "powercontext_runtime/client.py"} <= names
    metadata = next(n for n in names if n.endswith("/METADATA"))
    requires = [line for line in zipfile.ZipFile(wheels[0]).read(metadata).decode().splitlines() if line.startswith("Requires-Dist:")]
    assert not any("powercontext" in line.lower() for line in requires), requires
