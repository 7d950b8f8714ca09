"""Hand-made positions for the engine tests, written without asking the engine.

The won layout is spelled out here from RULES.md (rows of 2..K of one suit, a gap in
column 12), and test positions are made from it by exchanging the contents of a few
slots, so each fixture reads as "the won table, except ...".
"""

from games.engine import Position

RANKS_ON_TABLE = "23456789TJQK"  # the twelve ranks that stay on the table; aces never do


def won_rows(suits: str = "SHDC") -> list[list[str]]:
    """The won table as 4 lists of 13 tokens: row i is 2..K of suits[i], then a gap."""
    return [[rank + suit for rank in RANKS_ON_TABLE] + ["--"] for suit in suits]


def notation(rows: list[list[str]]) -> str:
    """Canonical notation of 4 rows of tokens (RULES.md, "Position notation")."""
    return " / ".join(" ".join(row) for row in rows)


WON_TEXT = notation(won_rows())


def won_with(*swaps, suits: str = "SHDC") -> Position:
    """The won table with the contents of each pair of slots exchanged, in order.

    Exchanging a card with a gap moves the card there; exchanging two cards swaps them.
    """
    return Position.parse(notation(rows_with(*swaps, suits=suits)))


def rows_with(*swaps, suits: str = "SHDC") -> list[list[str]]:
    rows = won_rows(suits)
    for (r1, c1), (r2, c2) in swaps:
        rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
    return rows


def tokens(position: Position) -> list[str]:
    """The 52 tokens of ``position`` in slot order, read back from its text."""
    return str(position).replace("/", " ").split()


def cards_of(position: Position) -> list[str]:
    """The cards on the table, sorted: always the same 48 cards."""
    return sorted(t for t in tokens(position) if t != "--")


ALL_48_CARDS = sorted(rank + suit for suit in "SHDC" for rank in RANKS_ON_TABLE)
