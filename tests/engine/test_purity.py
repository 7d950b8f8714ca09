"""The engine and its solver are pure Python: importing them loads no Django, and their examples run."""

import doctest
import pathlib
import subprocess
import sys

import pytest

import games.engine
import games.solver

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", ["engine", "solver"])
def test_importing_loads_no_django(module):
    code = (
        f"import sys; import games.{module}; print(games.{module}.__file__); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    module_file, django_modules = result.stdout.splitlines()
    assert pathlib.Path(module_file) == REPO / "games" / f"{module}.py"  # this repository's, not another copy
    assert django_modules == "[]", result.stdout + result.stderr


@pytest.mark.parametrize("module", [games.engine, games.solver])
def test_the_doctests_pass(module):
    failed, attempted = doctest.testmod(module)
    assert attempted > 0
    assert failed == 0
