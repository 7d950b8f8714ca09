"""Games are read and written through the ORM only: no raw SQL and no private Django API
in games/ (its migrations aside), so a Django upgrade cannot break a hidden second way in.

The one exception is games/views_benchmark.py, the load benchmark's deliberately minimal
baseline (one raw UPDATE), which is routed only in the server the benchmark starts.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
BENCHMARK = GAMES / "views_benchmark.py"
FORBIDDEN = {
    "a raw cursor": re.compile(r"\bconnection\.cursor\b|\bconnections\[[^\]]*\]\.cursor\b"),
    "raw SQL run": re.compile(r"\.execute\(|\.executemany\(|\.raw\(|\bRawSQL\b|\.extra\("),
    "rows turned into models by hand": re.compile(r"\bfrom_db\(|\bget_db_converters\b"),
    "SQL built from a model's table name": re.compile(r"\._meta\.db_table\b"),
}


def found(path: Path) -> dict[str, list[str]]:
    """What of FORBIDDEN the module at ``path`` holds."""
    text = path.read_text(encoding="utf-8")
    hits = {what: pattern.findall(text) for what, pattern in FORBIDDEN.items()}
    return {what: matches for what, matches in hits.items() if matches}


SOURCES = sorted(
    path for path in GAMES.rglob("*.py") if "migrations" not in path.relative_to(GAMES).parts and path != BENCHMARK
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_of_games_runs_sql_of_its_own(path):
    assert found(path) == {}


def routes(benchmark: str | None) -> list[str]:
    """The names of the site's URL patterns in a fresh process, with ADDICTION_BENCHMARK as given."""
    env = {key: value for key, value in os.environ.items() if key != "ADDICTION_BENCHMARK"}
    env.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    if benchmark is not None:
        env["ADDICTION_BENCHMARK"] = benchmark
    code = "import django; django.setup(); from games.urls import urlpatterns; print(*[p.name for p in urlpatterns])"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    return result.stdout.split()


def test_the_benchmarks_raw_update_is_routed_only_for_it():
    assert "benchmark_update" not in routes(None)
    assert "benchmark_update" not in routes("0")
    assert "benchmark_update" in routes("1")
    assert found(BENCHMARK) == {"a raw cursor": ["connection.cursor"], "raw SQL run": [".execute("]}
