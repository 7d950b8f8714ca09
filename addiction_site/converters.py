"""URL converters that refuse numbers no database column can hold, before a view runs.

Registered here, once, as ``id``, ``deal`` and ``day``: every app's urls.py imports this
module before its patterns."""

from datetime import date

from django.urls import register_converter

from games.engine import DEAL_NUMBERS


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class DealNumberConverter(IdConverter):
    """A deal's number, one of engine.DEAL_NUMBERS: any other number matches no URL (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number not in DEAL_NUMBERS:
            raise ValueError(f"no deal has the number {number}")
        return number


class DayConverter:
    """A UTC day, YYYY-MM-DD; a date that does not exist (2026-02-30) matches no URL."""

    regex = "[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)  # a ValueError here makes the URL not match

    def to_url(self, value: date) -> str:
        return value.isoformat()


register_converter(IdConverter, "id")
register_converter(DealNumberConverter, "deal")
register_converter(DayConverter, "day")
