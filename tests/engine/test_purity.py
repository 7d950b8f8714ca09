"""The engine is pure Python: importing it loads no Django, and its examples run."""

import doctest
import pathlib
import subprocess
import sys

import games.engine

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_importing_the_engine_loads_no_django():
    code = "import sys; import games.engine; print(sorted(m for m in sys.modules if m.split('.')[0]=='django'))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


def test_the_subprocess_really_imports_the_engine_from_this_repo():
    code = "import games.engine; print(games.engine.__file__)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert pathlib.Path(result.stdout.strip()) == REPO / "games" / "engine.py"


def test_the_engine_doctests_pass():
    failed, attempted = doctest.testmod(games.engine)
    assert attempted > 0
    assert failed == 0
