"""Every package an install takes comes from a lock, pinned and hashed (issue 30), the build
backend of the editable install included: dev.py installs it from the lock and builds
without isolation, which would otherwise fetch setuptools unpinned."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^setuptools==(?P<version>[0-9.]+) \\\n    --hash=sha256:[0-9a-f]{64}", re.MULTILINE)


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_the_build_backend_is_pinned_and_hashed_in_every_lock_and_meets_the_build_requirement():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (requirement,) = project["build-system"]["requires"]
    floor = version(requirement.removeprefix("setuptools>="))
    for lock in ("base.txt", "sentry.txt", "dev.txt"):
        found = PIN.search((ROOT / "requirements" / lock).read_text())
        assert found, f"setuptools is not pinned with its hash in requirements/{lock}"
        assert version(found["version"]) >= floor


def test_the_editable_install_builds_with_the_locked_backend():
    source = (ROOT / "dev.py").read_text()
    install = next(line for line in source.splitlines() if '"-e", "."' in line)
    assert '"--no-build-isolation"' in install and '"--no-deps"' in install
