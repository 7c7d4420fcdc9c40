"""Make a fresh virtual environment that holds powercontext-ts and what it needs, nothing else.

    python fresh_venv.py TARGET    (run with an interpreter that has httpx and pydantic installed)

The new environment gets the distributions httpx and pydantic need (copied file by file
from this interpreter's, so nothing is downloaded) and the wheel of python/ (built here
offline, installed with the new environment's pip, without dependencies). The released
``powercontext`` package is not among them. Prints the new interpreter's path.
"""

from __future__ import annotations

import importlib.metadata as metadata
import re
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[3] / "python"


def requirement_names(name: str, seen: set[str]) -> set[str]:
    """``name`` and every distribution it requires (markers for extras left out), transitively."""

    key = name.lower().replace("_", "-")
    if key in seen:
        return seen
    seen.add(key)
    for requirement in metadata.requires(name) or []:
        if "extra ==" in requirement:
            continue
        match = re.match(r"[A-Za-z0-9._-]+", requirement)
        if match:
            requirement_names(match.group(0), seen)
    return seen


def main() -> int:
    target = Path(sys.argv[1])
    venv.EnvBuilder(with_pip=True, clear=True).create(target)
    python = target / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    needed = requirement_names("httpx", set()) | requirement_names("pydantic", set())
    assert "powercontext" not in needed
    for name in sorted(needed):
        dist = metadata.distribution(name)
        for file in dist.files or []:
            source = Path(str(dist.locate_file(file)))
            if source.is_file() and ".." not in file.parts:
                destination = site / file
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination)
    with tempfile.TemporaryDirectory() as wheels:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", wheels, str(PROJECT)], check=True)
        wheel = next(Path(wheels).glob("powercontext_ts-*.whl"))
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--disable-pip-version-check", str(wheel)], check=True)
    print(python)
    return 0


if __name__ == "__main__":
    sys.exit(main())
