"""The game page's scripts (static/games/): their Node unit tests pass, and production's static
files keep their module imports whole.

The rule and the queue are plain functions of plain data, tested in Node's own test runner
(tests/js/, ``node --test``, no npm packages); Chromium tests (tests/browser/) stay for what
needs a page.  Without ``node`` on PATH the Node tests are skipped, unless
ADDICTION_REQUIRE_NODE=1 (CI), which makes a missing node a failure.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.site.test_static import production_env

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("ADDICTION_REQUIRE_NODE") == "1"
# An import on a line of its own, or after another's semicolon in a minified copy.
IMPORT = re.compile(r"""(?:^|(?<=;))\s*import\b[^;"']*["'](\.[^"']+)["'];""", re.M)


def test_the_pages_rule_and_queue_pass_their_node_tests():
    node = shutil.which("node")
    if node is None:
        if REQUIRED:
            pytest.fail("ADDICTION_REQUIRE_NODE=1, but there is no node on PATH (apt-get install nodejs)")
        pytest.skip("no node on PATH (apt-get install nodejs)")
    run = subprocess.run(
        [node, "--test", "--test-reporter=tap", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    passed = re.search(r"^# pass (\d+)$", run.stdout, re.M)
    assert passed and int(passed.group(1)) > 0, output  # some tests ran, not none


def test_collectstatic_points_the_modules_imports_at_their_hashed_names(tmp_path):
    env = production_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    games = tmp_path / "static" / "games"
    hashed = [path for path in games.glob("*.js") if re.search(r"\.[0-9a-f]{12}\.js$", path.name)]
    entry = [path for path in hashed if path.name.startswith("game.")]
    assert len(entry) == 1, hashed
    imported = {name for path in hashed for name in IMPORT.findall(path.read_text(encoding="utf-8"))}
    modules = {re.sub(r"\.[0-9a-f]{12}\.js$", "", name) for name in imported}
    assert {"./table", "./moves", "./rule", "./queue"} <= modules, modules
    for name in imported:
        assert re.fullmatch(r"\./\w+\.[0-9a-f]{12}\.js", name), name  # a hashed name, kept a year
        assert (games / name).is_file(), name
