"""URL converters that refuse numbers no database column can hold, before a view runs."""

from datetime import date


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class DealNumberConverter(IdConverter):
    regex = "[0-9]{1,19}"


class DayConverter:
    """A UTC day, YYYY-MM-DD; a date that does not exist (2026-02-30) matches no URL."""

    regex = "[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> date:
        return date.fromisoformat(value)  # a ValueError here makes the URL not match

    def to_url(self, value: date) -> str:
        return value.isoformat()
