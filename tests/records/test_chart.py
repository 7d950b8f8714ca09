"""The profile chart: coordinates that any locale leaves alone, and at most CHART_WINS points."""

import re
from datetime import UTC, datetime, timedelta

from records.selectors import CHART_WINS, chart_points
from tests.helpers import parse_html
from tests.winning import quick_win, recorded_win, user_owner

START = datetime(2026, 1, 1, tzinfo=UTC)


def wins(count: int) -> list[tuple[datetime, int]]:
    return [(START + timedelta(days=i), 60_000 + (i * 7919) % 50_000) for i in range(count)]


def test_the_chart_keeps_the_latest_wins_only():
    chart = chart_points(wins(CHART_WINS + 50))
    assert len(chart["points"]) == CHART_WINS
    assert chart["first"] == START + timedelta(days=50)


def test_coordinates_are_plain_decimal_text():
    chart = chart_points(wins(7))
    for x, y in chart["points"]:
        assert re.fullmatch(r"\d+\.\d", x) and re.fullmatch(r"\d+\.\d", y)


def test_dots_stay_valid_svg_in_a_comma_decimal_language(client, django_user_model):
    player = django_user_model.objects.create_user("dario")
    recorded_win(user_owner(player), quick_win(), finished_at=START)
    page = parse_html(client.get("/players/dario/", headers={"Accept-Language": "it"}))
    circles = [(circle["cx"], circle["cy"]) for circle in page.find_all("circle")]
    assert circles and all(re.fullmatch(r"\d+\.\d", v) for pair in circles for v in pair)
