"""URL converters that refuse numbers no database column can hold, before a view runs."""


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class DealNumberConverter(IdConverter):
    regex = "[0-9]{1,19}"
