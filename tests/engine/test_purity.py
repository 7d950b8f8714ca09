"""The engine is pure Python: importing it loads no Django, and its examples run."""

import doctest
import pathlib
import subprocess
import sys

import games.engine

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys; import games.engine; print(games.engine.__file__); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    engine_file, django_modules = result.stdout.splitlines()
    assert pathlib.Path(engine_file) == REPO / "games" / "engine.py"  # this repository's, not another copy
    assert django_modules == "[]", result.stdout + result.stderr


def test_the_engine_doctests_pass():
    failed, attempted = doctest.testmod(games.engine)
    assert attempted > 0
    assert failed == 0
