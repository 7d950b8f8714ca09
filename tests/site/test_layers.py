"""The layers the import contracts cannot see: a view parses the request and renders, and
asks the selectors and services for everything stored (pyproject.toml, [tool.importlinter],
holds the rest; README.md, "Layout", says what each layer is for)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VIEWS = sorted(path for app in ("games", "records", "daily", "accounts") for path in (ROOT / app).glob("views*.py"))
# What only a query set, a manager or a database connection answers to.
QUERYING = {
    "objects", "filter", "exclude", "select_for_update", "values_list", "annotate", "aggregate", "order_by",
    "select_related", "prefetch_related", "bulk_create", "get_or_create", "update_or_create", "exists", "raw",
    "cursor", "only", "defer",
}  # fmt: skip
# The load benchmark's baseline is by design one raw UPDATE in a view (games/views_benchmark.py).
ALLOWED = {("views_benchmark.py", "cursor")}


def queries_in(path: Path) -> list[str]:
    """Each attribute of a query that ``path`` reads, as "views.py:LINE .name"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr in QUERYING and (path.name, node.attr) not in ALLOWED:
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
    return sorted(found)


def test_every_app_has_its_views_module():
    assert {path.parent.name for path in VIEWS} == {"games", "records", "daily", "accounts"}


@pytest.mark.parametrize("path", VIEWS, ids=lambda path: str(path.relative_to(ROOT)))
def test_views_ask_the_selectors_and_services_for_what_is_stored(path):
    assert queries_in(path) == []


def test_the_check_finds_a_query_in_a_view(tmp_path):
    leaky = tmp_path / "views.py"
    leaky.write_text("def page(request):\n    return Game.objects.filter(owner=request.user).first()\n")
    assert queries_in(leaky) == ["views.py:2 .filter", "views.py:2 .objects"]
