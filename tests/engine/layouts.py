"""Hand-made positions for the engine tests, written without asking the engine.

The won layout is spelled out here from docs/RULES.md (rows of 2..K of one suit, a gap in
column 12), and test positions are made from it, so each fixture reads as "the won table,
except ...": except these rows (:func:`won_except`), or with these slots exchanged
(:func:`won_with`).
"""

from games.engine import Position

RANKS_ON_TABLE = "23456789TJQK"  # the twelve ranks that stay on the table; aces never do


def won_rows(suits: str = "SHDC") -> list[list[str]]:
    """The won table as 4 lists of 13 tokens: row i is 2..K of suits[i], then a gap."""
    return [[rank + suit for rank in RANKS_ON_TABLE] + ["--"] for suit in suits]


def notation(rows: list[list[str]]) -> str:
    """Canonical notation of 4 rows of tokens (docs/RULES.md, "Position notation")."""
    return " / ".join(" ".join(row) for row in rows)


WON_TEXT = notation(won_rows())


def won_except(rows: dict[int, str]) -> Position:
    """The won table with the rows given written out instead: ``{row number: its 13 tokens}``.

    A fixture made this way is its own drawing: the rows that differ, as the table shows them.
    """
    text_rows = [" ".join(row) for row in won_rows()]
    for number, text in rows.items():
        text_rows[number] = text
    return Position.parse(" / ".join(text_rows))


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


# --------------------------------------------------------------------------- positions shared by the engine's tests

# gap (0,5) after 6S: 7S fits; (1,12) (2,12) (3,12) after kings: dead.
ONE_FIT = won_except({0: "2S 3S 4S 5S 6S -- 8S 9S TS JS QS KS 7S"})

# gap (0,4) takes 6S; gap (0,5) is right of a gap: dead, though 7S would follow 6S.
GAP_AFTER_GAP = won_except(
    {
        0: "2S 3S 4S 5S -- -- 8S 9S TS JS QS KS --",
        1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 6S",
        2: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 7S",
    }
)

# the column-0 gap takes any 2, also 2S, 2D, 2C that stand in column 0 already.
COLUMN_0_GAP = won_except({1: "-- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H"})

# one move from a win: KS into (0,11).
NEAR_WON = won_except({0: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS"})

# every gap in column 12, right of a King, yet not won: stuck.  Only (0,11) (0,12) (1,11)
# (1,12) (2,12) (3,12) are unlocked, so a shuffle puts KS and KH into two of those six
# slots: sometimes won, sometimes stuck again, mostly not.
KINGS_SWAPPED = won_except({0: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KH --", 1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KS --"})
