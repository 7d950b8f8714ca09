"""The rules of Addiction Solitaire and its family (docs/RULES.md) as pure values: no Django, no I/O.

Vocabulary, in the game's own words:

- a *card* is written as its token, rank then suit: ``"7H"``, ``"TD"``;
- a *slot* is ``(row, col)`` with row 0..3 from the top and col 0..12 from the left
  (0..13 on the 14-column table of Blue Moon and Red Moon);
- a :class:`Variant` is one game of the family (Addiction, Montana, Spaces, Blue Moon,
  Red Moon): the width of its table, whether the aces stay, its shuffles and where they
  put the gaps; every position knows its variant;
- a *gap* is an empty slot, written ``--``;
- a :class:`Position` is one layout of the table, a :class:`Move` takes one card
  into one gap, and :class:`GameState` adds what the rules count (moves, shuffles,
  undo, the end of the game); :meth:`GameState.act` applies any action, and is what
  live play, replay and verification all call.

>>> p = deal(1)
>>> len(p.gaps())
4
>>> p == Position.parse(str(p))
True

Internally a card is a code ``suit * 13 + rank`` (rank 0 is the ace, 12 the king;
suits in the order S H D C) and a slot is the index ``row * 14 + col`` whatever the
variant, so that a :class:`Move` means the same on every table.  A position keeps its
slots as 56 bytes (on a 13-column table, column 13 holds a wall byte that is no card
and no gap), so copying, comparing and hashing one is a single C call; that, and
building each :class:`Move` once, is what makes the engine fast.
"""

from __future__ import annotations

import enum
import hashlib
from typing import NamedTuple

__all__ = [
    "ADDICTION",
    "BLUE_MOON",
    "CARD_TOKENS",
    "COLS",
    "DEFAULT_VARIANT",
    "GAP",
    "MAX_COLS",
    "ROW_STARTS",
    "RUN_HEADS",
    "STRIDE",
    "TWOS",
    "WALL",
    "MONTANA",
    "RED_MOON",
    "SPACES",
    "VARIANTS",
    "Variant",
    "variant_of",
    "ROWS",
    "ActionKind",
    "GameState",
    "Hint",
    "HintKind",
    "IllegalAction",
    "IllegalMove",
    "InvalidNotation",
    "NOTHING_HELPS",
    "SHUFFLE_NOW",
    "Move",
    "Position",
    "Refusal",
    "SplitMix64",
    "Status",
    "Tops",
    "deal",
    "fisher_yates",
    "parse_slot",
    "shuffle_seed",
    "slot_name",
    "tops_after",
]

ROWS = 4
COLS = 13
"""The width of Addiction's table (and Montana's and Spaces'); a variant says its own (Variant.cols)."""
MAX_COLS = 14
STRIDE = MAX_COLS  # slot index = row * STRIDE + col, on every table
SLOTS = ROWS * STRIDE
SUITS = "SHDC"
RANKS = "A23456789TJQK"
GAP = 0xFF
WALL = 0xFE  # column 13 of a 13-column table: no card, no gap
GAP_TOKEN = "--"
MAX_DEAL = 2**63 - 1
DEAL_NUMBERS = range(1, MAX_DEAL + 1)
"""The numbers a deal can have (docs/RULES.md, "Deal"): the engine, the new-game form and the
URLs' converter all ask this range; the largest fits a signed 64-bit column."""

DRAWN_DEALS = 999_999_999
"""A random deal's number, and a daily deal's, is one of 1 .. this (docs/RULES.md, "Deal"):
short enough to read and share.  Any number up to MAX_DEAL can still be chosen."""
MASK64 = 2**64 - 1

Slot = tuple[int, int]

_TOKENS = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_CODE_OF = {token: code for code, token in enumerate(_TOKENS)}
_ACES = tuple(s * 13 for s in range(4))
_TWOS = frozenset(s * 13 + 1 for s in range(4))
CARD_TOKENS = _TOKENS
"""A card's token by its code, the byte a layout holds (:attr:`Position.layout`): ``suit * 13 + rank``."""
TWOS = tuple(sorted(_TWOS))
"""The codes of the 2s, spades first."""
RUN_HEADS = frozenset(_ACES) | _TWOS
"""The codes of the cards that may head a row's run in column 0: a 2, or an ace where the aces
stay (where they are out, no ace is on the table, so one set serves every variant)."""
_ACES_TO_GAPS = bytes(GAP if code < 52 and code % 13 == 0 else code for code in range(256))
_COLUMN_0 = frozenset(range(0, SLOTS, STRIDE))
_ROW_STARTS = tuple(range(0, SLOTS, STRIDE))
ROW_STARTS = _ROW_STARTS
"""The layout's index of each row's column 0."""
_SLOT_OF = tuple(divmod(i, STRIDE) for i in range(SLOTS))
_SLOT_NAMES = tuple(f"{row}-{col}" for row, col in _SLOT_OF)
_SLOT_NAMED = {name: slot for name, slot in zip(_SLOT_NAMES, _SLOT_OF, strict=True)}
_WALL_BYTE = bytes([WALL])
# _NEXT[byte] is the card that may follow it to its right, or GAP (after a king or a gap).
_NEXT = bytes((c + 1) if c < 52 and c % 13 != 12 else GAP for c in range(256))


class InvalidNotation(ValueError):
    """Text that is not a position (or a move) in the notation of docs/RULES.md."""


class Refusal(enum.Enum):
    """Why the rules refuse an action: a code that the site puts in the player's words."""

    GAME_OVER = "game over"
    NOTHING_TO_UNDO = "nothing to undo"
    NO_SHUFFLE_LEFT = "no shuffle left"
    NOT_A_GAP = "not a gap"
    CARD_NOT_THERE = "card not there"
    ONLY_A_TWO = "only a 2 goes to column 0"
    RIGHT_OF_GAP = "right of a gap"
    RIGHT_OF_KING = "right of a King"
    DOES_NOT_FOLLOW = "does not follow"
    NOTHING_FITS = "nothing fits that gap"
    CANNOT_MOVE = "that card cannot move"
    UNDO_MISMATCH = "undo of another move"
    NOTHING_TO_REDO = "nothing to redo"
    REDO_MISMATCH = "redo of another move"


class IllegalAction(ValueError):
    """An action the rules refuse: ``reason`` is a :class:`Refusal`, the message says it in English."""

    def __init__(self, reason: Refusal, message: str):
        super().__init__(message)
        self.reason = reason


class IllegalMove(IllegalAction):
    """A move the rules refuse."""


# Each byte's token for the notation, and for rows() (None for a gap); a wall's is never read.
_TEXT_OF_BYTE = tuple(_TOKENS[c] if c < 52 else GAP_TOKEN for c in range(256))
_CELL_OF_BYTE = tuple(_TOKENS[c] if c < 52 else None for c in range(256))


def _index(slot: Slot, cols: int = COLS) -> int:
    row, col = slot
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < ROWS and 0 <= col < cols):
        raise ValueError(f"not a slot: {slot!r} (row 0..{ROWS - 1}, col 0..{cols - 1})")
    return row * STRIDE + col


def slot_name(slot: Slot) -> str:
    """A slot in the notation of docs/RULES.md, ``ROW-COL`` (python-chess's ``square_name``).

    >>> slot_name((1, 12))
    '1-12'
    """
    return _SLOT_NAMES[_index(slot, MAX_COLS)]


def parse_slot(text: str, cols: int = COLS) -> Slot:
    """The slot that ``ROW-COL`` names on a table ``cols`` wide (python-chess's
    ``parse_square``); anything else, ``01-2`` or ``4-0`` among them, is InvalidNotation.

    >>> parse_slot("3-0")
    (3, 0)
    >>> parse_slot("3-13", cols=14)
    (3, 13)
    """
    slot = _SLOT_NAMED.get(text)
    if slot is None or slot[1] >= cols:
        raise InvalidNotation(f"not a slot: {text!r} (expected ROW-COL, row 0..{ROWS - 1}, col 0..{cols - 1})")
    return slot


# --------------------------------------------------------------------------- moves


class Move:
    """One card taken from slot ``src`` into the gap at slot ``dst``.

    Moves are interned: equal moves are the same object, so building the list of
    legal moves allocates nothing once a move has been seen.

    >>> m = Move("7H", (1, 4), (1, 5))
    >>> str(m)
    '7H:1-4>1-5'
    >>> Move.parse(str(m)) is m
    True
    """

    __slots__ = ("card", "src", "dst", "_c", "_s", "_d", "_text")
    card: str
    src: Slot
    dst: Slot
    _c: int  # the card's code, and the indexes of its source and destination slots
    _s: int
    _d: int
    _text: str

    def __new__(cls, card: str, src: Slot, dst: Slot, cols: int = COLS) -> Move:
        """``cols`` is the width of the table the move is for (14 for Blue Moon and Red Moon)."""
        code = _CODE_OF.get(card.upper()) if isinstance(card, str) else None
        if code is None or code in _ACES:
            raise ValueError(f"not a card that moves: {card!r} (an ace never moves)")
        return _move(code, _index(src, cols), _index(dst, cols))

    @classmethod
    def parse(cls, text: str, cols: int = COLS) -> Move:
        """Read the text form ``CARD:ROW-COL>ROW-COL`` written by ``str(move)``, for a table ``cols`` wide."""
        known = _PARSED.get(text)  # a stored game's whole undo history is read on each request
        if known is not None and (known._s % STRIDE < cols and known._d % STRIDE < cols):
            return known
        try:
            card, rest = text.strip().split(":")
            src, dst = rest.split(">")
            move = cls(card, parse_slot(src, cols), parse_slot(dst, cols), cols)
        except (ValueError, TypeError, AttributeError) as error:
            raise InvalidNotation(f"not a move: {text!r} (expected like '7H:1-4>1-5')") from error
        if text == move._text:  # only canonical texts, so the table holds at most one per move
            _PARSED[text] = move
        return move

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    def __reduce__(self):
        return (Move, (self.card, self.src, self.dst, MAX_COLS))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Move({self.card!r}, {self.src!r}, {self.dst!r})"


_MOVES: dict[int, Move] = {}
_PARSED: dict[str, Move] = {}


def _move(code: int, src: int, dst: int) -> Move:
    key = (code << 12) | (src << 6) | dst
    move = _MOVES.get(key)
    if move is None:
        move = object.__new__(Move)
        for name, value in (
            ("card", _TOKENS[code]),
            ("src", _SLOT_OF[src]),
            ("dst", _SLOT_OF[dst]),
            ("_c", code),
            ("_s", src),
            ("_d", dst),
            ("_text", f"{_TOKENS[code]}:{_SLOT_NAMES[src]}>{_SLOT_NAMES[dst]}"),
        ):
            object.__setattr__(move, name, value)
        _MOVES[key] = move
    return move


# --------------------------------------------------------------------------- randomness


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood, 2014), exactly as published.

    >>> SplitMix64(0).next()
    16294208416658607535
    """

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``; draws that would bias the result are redrawn."""
        limit = (MASK64 + 1) - (MASK64 + 1) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def fisher_yates(items: list, rng: SplitMix64) -> None:
    """Shuffle ``items`` in place: for i from the last index down to 1, swap i with rng.below(i + 1).

    The generator's steps are written out here rather than called, for speed; a
    test checks that this gives exactly what calling ``rng.below`` gives.
    """
    state = rng.state
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < 64 else (MASK64 + 1) - (MASK64 + 1) % n
        while True:
            state = z = (state + 0x9E3779B97F4A7C15) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    rng.state = state


# The rejection limit of below(n) for the small n that deals and shuffles use.
_LIMITS = tuple((MASK64 + 1) - (MASK64 + 1) % n if n else 0 for n in range(64))


def shuffle_seed(game_seed: int, index: int) -> int:
    """The seed of a game's shuffle number ``index`` (0, 1, 2).

    The first 8 bytes, big-endian, of SHA-256 of the text ``"<game_seed>:<index>"``.
    """
    digest = hashlib.sha256(f"{game_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --------------------------------------------------------------------------- variants


def gettext_noop(text: str) -> str:
    """``text`` as it is, marked for translation where it is written (Django's makemessages
    looks for this name): the engine speaks no language, and the site translates the names it
    shows (games/models.py)."""
    return text


class Variant:
    """One game of the family (docs/RULES.md, "The variants"): what its table and its shuffles are.

    ``key`` names it in URLs, forms and the database; ``cols`` is the table's width (13, or 14
    when the aces stay); ``aces_stay`` says whether the aces head the rows in column 0 (Blue
    Moon, Red Moon) or are taken out (the others); ``shuffles`` how many a game has;
    ``gaps_after_runs`` where a shuffle puts the gaps: right after each row's run (Montana and
    the moons) or wherever an ace is dealt (Addiction, Spaces); ``opening`` how a deal lays the
    cards out (:func:`deal`).  Variants are compared by identity: there is one of each.

    ``name`` is its English name, which the site translates; ``default`` says whether it is the
    variant played when none is named (:data:`DEFAULT_VARIANT`); ``wide`` whether its table has
    the widest rows (14 columns), as the pages draw it.

    >>> MONTANA.shuffles, MONTANA.cols, BLUE_MOON.cols, BLUE_MOON.cards
    (2, 13, 14, 52)
    >>> ADDICTION.default, MONTANA.default, RED_MOON.wide, SPACES.wide
    (True, False, True, False)
    """

    __slots__ = (
        "key", "name", "cols", "aces_stay", "shuffles", "gaps_after_runs", "opening",
        "cards", "heads", "full_run", "won_gaps", "won",
    )  # fmt: skip
    key: str
    name: str
    cols: int
    aces_stay: bool
    shuffles: int
    gaps_after_runs: bool
    opening: str
    cards: int  # cards on the table: 48, or 52 when the aces stay
    heads: frozenset[int]  # the cards that start a row's run in column 0: the 2s, or the aces
    full_run: int  # the run of a finished row: 2..K (12), or A..K (13)
    won_gaps: tuple[int, int, int, int]
    won: str  # the notation of the won table, suits S H D C from the top

    def __init__(self, key, name, *, cols, aces_stay, shuffles, gaps_after_runs, opening):
        for field, value in (
            ("key", key),
            ("name", name),
            ("cols", cols),
            ("aces_stay", aces_stay),
            ("shuffles", shuffles),
            ("gaps_after_runs", gaps_after_runs),
            ("opening", opening),
            ("cards", 52 if aces_stay else 48),
            ("heads", frozenset(_ACES if aces_stay else _TWOS)),
            ("full_run", cols - 1),
            ("won_gaps", tuple(start + cols - 1 for start in _ROW_STARTS)),
            (
                "won",
                " / ".join(
                    " ".join(_TOKENS[s * 13 + r] for r in range(0 if aces_stay else 1, 13)) + " --" for s in range(4)
                ),
            ),
        ):
            object.__setattr__(self, field, value)

    def __setattr__(self, name, value):
        raise AttributeError("Variant is immutable")

    @property
    def default(self) -> bool:
        return self is DEFAULT_VARIANT

    @property
    def wide(self) -> bool:
        return self.cols == MAX_COLS

    def __reduce__(self):
        return (variant_of, (self.key,))

    def __repr__(self) -> str:
        return f"<Variant {self.key}>"

    def __str__(self) -> str:
        return self.key


ADDICTION = Variant("addiction", gettext_noop("Addiction"), cols=13, aces_stay=False, shuffles=3,
                    gaps_after_runs=False, opening="aces out")  # fmt: skip
MONTANA = Variant("montana", gettext_noop("Montana"), cols=13, aces_stay=False, shuffles=2,
                  gaps_after_runs=True, opening="aces out")  # fmt: skip
SPACES = Variant("spaces", gettext_noop("Spaces"), cols=13, aces_stay=False, shuffles=2,
                 gaps_after_runs=False, opening="aces out")  # fmt: skip
BLUE_MOON = Variant("blue-moon", gettext_noop("Blue Moon"), cols=14, aces_stay=True, shuffles=2,
                    gaps_after_runs=True, opening="aces moved")  # fmt: skip
RED_MOON = Variant("red-moon", gettext_noop("Red Moon"), cols=14, aces_stay=True, shuffles=2,
                   gaps_after_runs=True, opening="aces first")  # fmt: skip
VARIANTS = {variant.key: variant for variant in (ADDICTION, MONTANA, SPACES, BLUE_MOON, RED_MOON)}
"""Every variant by its key, Addiction (the default) first."""
DEFAULT_VARIANT = ADDICTION
"""The variant played when none is named: its pages and boards keep the addresses and scopes
they had before the family came (docs/RULES.md, "The variants")."""


def variant_of(key: Variant | str | None) -> Variant:
    """The variant named ``key`` (a Variant is itself; None is Addiction); another name is ValueError.

    >>> variant_of("red-moon") is RED_MOON
    True
    """
    if key is None:
        return ADDICTION
    if isinstance(key, Variant):
        return key
    try:
        return VARIANTS[key]
    except (KeyError, TypeError):
        raise ValueError(f"not a variant: {key!r} (one of {', '.join(VARIANTS)})") from None


# --------------------------------------------------------------------------- positions


class Position:
    """One layout of the table: 48 cards and 4 gaps in 4 rows of 13 slots (52 cards in 4 rows
    of 14 when the aces stay), of one :class:`Variant`. Immutable.

    >>> p = Position.parse(WON)
    >>> p.is_won(), p.legal_moves()
    (True, [])
    >>> Position.parse(BLUE_MOON.won, BLUE_MOON).is_won()
    True
    """

    __slots__ = ("_layout", "_gaps", "_variant")
    _layout: bytes
    _gaps: tuple[int, int, int, int]
    _variant: Variant

    def __init__(self, text: str, variant: Variant | str | None = None):
        variant = variant_of(variant)
        layout = _parse_layout(text, variant)
        _set_layout(self, layout)
        _set_gaps(self, tuple(i for i, c in enumerate(layout) if c == GAP))
        _set_variant(self, variant)

    @classmethod
    def parse(cls, text: str, variant: Variant | str | None = None) -> Position:
        """Read the position notation of ``variant`` (Addiction when not given); raise
        :class:`InvalidNotation` saying what is wrong and where."""
        return cls(text, variant)

    @staticmethod
    def _make(layout: bytes, gaps: tuple, variant: Variant) -> Position:
        position = _new_position(Position)
        _set_layout(position, layout)
        _set_gaps(position, gaps)
        _set_variant(position, variant)
        return position

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable")

    def __reduce__(self):
        return (Position, (str(self), self._variant.key))

    # ---- values

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def layout(self) -> bytes:
        """The table as the engine and the search read it: the byte of slot ``(row, col)`` at
        ``row * STRIDE + col``, a card's code (:data:`CARD_TOKENS`), :data:`GAP`, or the
        :data:`WALL` that closes each row of a 13-column table."""
        return self._layout

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and self._layout == other._layout and self._variant is other._variant

    def __hash__(self) -> int:
        return hash(self._layout)

    def __str__(self) -> str:
        tokens = [_TEXT_OF_BYTE[c] for c in self._layout]
        cols = self._variant.cols
        return " / ".join(" ".join(tokens[start : start + cols]) for start in _ROW_STARTS)

    def __repr__(self) -> str:
        if self._variant is ADDICTION:
            return f"Position({str(self)!r})"
        return f"Position({str(self)!r}, {self._variant.key!r})"

    # ---- reading the table

    def _slot_index(self, slot: Slot) -> int:
        return _index(slot, self._variant.cols)

    def card_at(self, slot: Slot) -> str | None:
        """The card token at ``slot``, or None for a gap."""
        code = self._layout[self._slot_index(slot)]
        return None if code == GAP else _TOKENS[code]

    def slot_of(self, card: str) -> Slot:
        """Where ``card`` lies; a card not on the table (an ace, in Addiction) raises ValueError."""
        code = _CODE_OF.get(card.upper()) if isinstance(card, str) else None
        index = -1 if code is None else self._layout.find(code)
        if index < 0:
            raise ValueError(f"{card} is not on the table")
        return _SLOT_OF[index]

    def gaps(self) -> list[Slot]:
        """The four gaps, in slot order."""
        return [_SLOT_OF[g] for g in self._gaps]

    def rows(self) -> list[list[str | None]]:
        """The table as 4 lists of 13 tokens (14 when the aces stay), None for a gap."""
        cells = [_CELL_OF_BYTE[c] for c in self._layout]
        cols = self._variant.cols
        return [cells[start : start + cols] for start in _ROW_STARTS]

    # ---- moves

    def legal_moves(self) -> list[Move]:
        """Every legal move, by gap slot, then by source slot."""
        layout = self._layout
        find = layout.find
        cached = _MOVES.get
        moves = []
        for gap in self._gaps:
            if gap in _COLUMN_0:  # only where the aces are out: where they stay, column 0 holds them
                for src in sorted((find(1), find(14), find(27), find(40))):
                    code = layout[src]
                    moves.append(cached((code << 12) | (src << 6) | gap) or _move(code, src, gap))
            else:
                code = _NEXT[layout[gap - 1]]
                if code != GAP:
                    src = find(code)
                    moves.append(cached((code << 12) | (src << 6) | gap) or _move(code, src, gap))
        return moves

    def play(self, move: Move) -> Position:
        """The position after ``move``; raise :class:`IllegalMove` saying why it is refused."""
        layout = self._layout
        code, src, dst = move._c, move._s, move._d
        if (
            layout[dst] != GAP
            or layout[src] != code
            or (code % 13 != 1 if dst % STRIDE == 0 else _NEXT[layout[dst - 1]] != code)
        ):
            raise IllegalMove(*self._why_illegal(move))
        new = bytearray(layout)
        new[dst] = code
        new[src] = GAP
        gaps = list(self._gaps)
        gaps[gaps.index(dst)] = src
        gaps.sort()
        position = _new_position(Position)
        _set_layout(position, bytes(new))
        _set_gaps(position, tuple(gaps))
        _set_variant(position, self._variant)
        return position

    def _moved(self, code: int, src: int, dst: int) -> Position:
        """The position with ``code`` taken from ``src`` into the gap ``dst``, no questions asked.

        Undo uses it to take a move back, which is rarely a legal move itself;
        ``play`` repeats these lines inline because it is the hot path.
        """
        new = bytearray(self._layout)
        new[dst] = code
        new[src] = GAP
        gaps = list(self._gaps)
        gaps[gaps.index(dst)] = src
        gaps.sort()
        return Position._make(bytes(new), tuple(gaps), self._variant)

    def _why_illegal(self, move: Move) -> tuple[Refusal, str]:
        layout = self._layout
        code, src, dst = move._c, move._s, move._d
        at = _SLOT_NAMES.__getitem__
        if layout[dst] == WALL:
            return Refusal.NOT_A_GAP, f"slot {at(dst)} is not on this table"
        if layout[dst] != GAP:
            return Refusal.NOT_A_GAP, f"slot {at(dst)} is not a gap (it holds {_TOKENS[layout[dst]]})"
        if layout[src] != code:
            return Refusal.CARD_NOT_THERE, f"{move.card} is not at {at(src)}"
        if dst % STRIDE == 0:
            return Refusal.ONLY_A_TWO, f"only a 2 goes to column 0, and {move.card} is not a 2"
        left = layout[dst - 1]
        if left == GAP:
            return Refusal.RIGHT_OF_GAP, f"nothing goes right of a gap (slot {at(dst - 1)} is a gap)"
        if left % 13 == 12:
            return Refusal.RIGHT_OF_KING, f"nothing goes right of a King ({_TOKENS[left]} is left of {at(dst)})"
        return (
            Refusal.DOES_NOT_FOLLOW,
            f"{move.card} does not follow {_TOKENS[left]}; only {_TOKENS[left + 1]} goes there",
        )

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` can be played here."""
        try:
            self.play(move)
        except IllegalMove:
            return False
        return True

    def move_for_slot(self, slot: Slot) -> Move | None:
        """The move a click on ``slot`` makes, or None when that slot can do nothing.

        A card goes to the gap it fits; a 2 that fits several column-0 gaps goes to the
        topmost.  A gap is filled by the one card that fits it; a column-0 gap takes the
        topmost 2 that is not already in column 0 (with a gap in column 0, at most three
        2s stand there, so there always is one).
        """
        index = self._slot_index(slot)
        moves = self.legal_moves()
        if self._layout[index] == GAP:
            fits = [m for m in moves if m._d == index]
            if index % STRIDE == 0:
                fits = [m for m in fits if m._s % STRIDE != 0]
            return fits[0] if fits else None
        return next((m for m in moves if m._s == index), None)

    # ---- the state of the game

    def _locked_runs(self) -> list[int]:
        """For each row, how many cards from column 0 are in correct position."""
        layout = self._layout
        heads = self._variant.heads
        cols = self._variant.cols
        runs = []
        for start in _ROW_STARTS:
            i = start
            if layout[i] in heads:
                i += 1
                while i < start + cols and layout[i] != GAP and layout[i] == _NEXT[layout[i - 1]]:
                    i += 1
            runs.append(i - start)
        return runs

    def _locked_indices(self) -> list[int]:
        return [start + c for start, run in zip(_ROW_STARTS, self._locked_runs(), strict=True) for c in range(run)]

    def locked(self) -> frozenset[Slot]:
        """The slots whose cards are in correct position (runs 2, 3, 4, ... from column 0;
        A, 2, 3, ... where the aces stay)."""
        return frozenset(_SLOT_OF[i] for i in self._locked_indices())

    def is_won(self) -> bool:
        """Every row holds 2..K of one suit in columns 0..11 (A..K in columns 0..12 where the aces stay)."""
        return self._gaps == self._variant.won_gaps and len(self._locked_indices()) == self._variant.cards

    def is_stuck(self) -> bool:
        """No card can move: every gap is right of a King or of another gap."""
        layout = self._layout
        return all(g % STRIDE != 0 and _NEXT[layout[g - 1]] == GAP for g in self._gaps)

    def dead_gaps(self) -> list[Slot]:
        """Gaps nothing can fill: right of a King or of another gap."""
        layout = self._layout
        return [_SLOT_OF[g] for g in self._gaps if g % STRIDE != 0 and _NEXT[layout[g - 1]] == GAP]

    def shuffle(self, seed: int) -> Position:
        """The position after one shuffle, decided entirely by ``seed`` (docs/RULES.md, "Shuffles").

        Locked cards stay.  Where the gaps go depends on the variant:

        - scattered (Addiction, Spaces): the other cards and the four aces, in deck order
          (suits S H D C, ranks A..K), are shuffled by :func:`fisher_yates` with
          ``SplitMix64(seed)`` and dealt in slot order into the slots that are not locked;
          the slots that receive an ace become the gaps;
        - after the runs (Montana, Blue Moon, Red Moon): the cards that are not locked, in
          deck order, are shuffled the same way and dealt in slot order into the slots that
          are not locked, except the first of each row, right after its run, which is its gap.
        """
        variant = self._variant
        layout = self._layout
        cols = variant.cols
        runs = self._locked_runs()
        locked_cards = {layout[start + c] for start, run in zip(_ROW_STARTS, runs, strict=True) for c in range(run)}
        new = bytearray(layout)
        if variant.gaps_after_runs:
            cards = [code for code in range(52) if code not in locked_cards and code in layout]
            fisher_yates(cards, SplitMix64(seed))
            taken = 0
            for start, run in zip(_ROW_STARTS, runs, strict=True):
                width = cols - run - 1
                new[start + run] = GAP
                new[start + run + 1 : start + cols] = bytes(cards[taken : taken + width])
                taken += width
            return Position._make(
                bytes(new), tuple(start + run for start, run in zip(_ROW_STARTS, runs, strict=True)), variant
            )
        cards = [code for code in range(52) if code not in locked_cards]
        fisher_yates(cards, SplitMix64(seed))
        dealt = bytes(cards).translate(_ACES_TO_GAPS)
        taken = 0
        for start, run in zip(_ROW_STARTS, runs, strict=True):
            width = cols - run
            new[start + run : start + cols] = dealt[taken : taken + width]
            taken += width
        find = new.find
        a = find(GAP)
        b = find(GAP, a + 1)
        c = find(GAP, b + 1)
        return Position._make(bytes(new), (a, b, c, find(GAP, c + 1)), variant)


# Setting the slots through their descriptors skips the refusing __setattr__ at C speed.
_new_position = object.__new__
_set_layout = Position.__dict__["_layout"].__set__
_set_gaps = Position.__dict__["_gaps"].__set__
_set_variant = Position.__dict__["_variant"].__set__


def _walled(cells: bytes) -> bytes:
    """4 rows of 13 cells as the 56 bytes of a position: a wall closes each row."""
    return b"".join(cells[r * 13 : r * 13 + 13] + _WALL_BYTE for r in range(ROWS))


def _parse_layout(text: str, variant: Variant) -> bytes:
    if not isinstance(text, str):
        raise InvalidNotation(f"a position is text, not {type(text).__name__}")
    cols = variant.cols
    rows = [row.split() for row in text.upper().split("/")]
    if len(rows) == ROWS and all(len(row) == cols for row in rows):
        byte_of = _BYTE_OF_MOON if variant.aces_stay else _BYTE_OF
        try:  # the common case, a valid position, in a few C calls; anything odd is explained below
            cells = bytes([byte_of[token] for row in rows for token in row])
            cards = cells.replace(_GAP_BYTE, b"")
            if (
                len(cards) == variant.cards
                and len(set(cards)) == variant.cards
                and (not variant.aces_stay or sorted(cells[::cols]) == list(_ACES))
            ):
                return _walled(cells) if cols == 13 else cells
        except KeyError:
            pass
    raise _why_invalid(text, variant)


# Every token a position may hold, by byte; "/" is in none, and aces only where they stay.
_BYTE_OF = {**{token: code for code, token in enumerate(_TOKENS) if code not in _ACES}, GAP_TOKEN: GAP}
_BYTE_OF_MOON = {**{token: code for code, token in enumerate(_TOKENS)}, GAP_TOKEN: GAP}
_GAP_BYTE = bytes([GAP])


def _why_invalid(text: str, variant: Variant) -> InvalidNotation:
    """The error that says what is wrong with ``text``, and where."""
    cols = variant.cols
    rows = text.split("/")
    if len(rows) != ROWS:
        return InvalidNotation(f"a position has {ROWS} rows separated by '/', this has {len(rows)}")
    seen: dict[int, Slot] = {}
    gaps = 0
    for r, row in enumerate(rows):
        tokens = row.split()
        if len(tokens) != cols:
            return InvalidNotation(f"row {r} has {len(tokens)} slots, not {cols}")
        for c, token in enumerate(tokens):
            upper = token.upper()
            if upper == GAP_TOKEN:
                if variant.aces_stay and c == 0:
                    return InvalidNotation(f"row {r}, column 0: in {variant.name} an ace stands there, never a gap")
                gaps += 1
                continue
            code = _CODE_OF.get(upper)
            if code is None:
                return InvalidNotation(f"row {r}, column {c}: unknown token {token!r}")
            if code in _ACES and not variant.aces_stay:
                return InvalidNotation(f"row {r}, column {c}: an ace ({upper}) is never on the table")
            if variant.aces_stay and (code in _ACES) != (c == 0):
                return InvalidNotation(
                    f"row {r}, column {c}: in {variant.name} the aces, and only they, stand in column 0"
                )
            if code in seen:
                first = seen[code]
                return InvalidNotation(
                    f"row {r}, column {c}: duplicate card {upper} (also at row {first[0]}, column {first[1]})"
                )
            seen[code] = (r, c)
    return InvalidNotation(f"a position has exactly 4 gaps, this has {gaps}")


def deal(number: int, variant: Variant | str | None = None) -> Position:
    """The opening position of deal ``number`` (1 .. 2**63-1) of ``variant`` (Addiction when
    not given); the same forever (docs/RULES.md, "Deal").

    The deck in deck order (suits S H D C, ranks A..K) is shuffled by :func:`fisher_yates`
    with ``SplitMix64(number)``; then, by the variant's opening:

    - aces out (Addiction, Montana, Spaces): laid out row by row, and the aces taken out;
    - aces moved (Blue Moon): laid out row by row in columns 1..13, then the aces, in slot
      order, moved to column 0 of rows 0, 1, 2, 3; the slots they left are the gaps;
    - aces first (Red Moon): the aces head the rows in column 0 in suit order (S H D C from
      the top), column 1 is the four gaps, and the other 48 cards, in the shuffled order,
      are laid out row by row in columns 2..13.
    """
    variant = variant_of(variant)
    if isinstance(number, bool) or not isinstance(number, int) or number not in DEAL_NUMBERS:
        raise ValueError(f"a deal number is an integer from 1 to {MAX_DEAL}, not {number!r}")
    deck = list(range(52))
    fisher_yates(deck, SplitMix64(number))
    if variant.opening == "aces out":
        layout = _walled(bytes(GAP if code % 13 == 0 else code for code in deck))
    elif variant.opening == "aces moved":
        new = bytearray()
        for r in range(ROWS):
            new += bytes([GAP]) + bytes(deck[r * 13 : r * 13 + 13])
        aces = [i for i, code in enumerate(new) if code in _ACES]
        for row, i in enumerate(aces):
            new[row * STRIDE] = new[i]
            new[i] = GAP
        layout = bytes(new)
    else:
        rest = [code for code in deck if code not in _ACES]
        layout = b"".join(bytes([ace, GAP, *rest[r * 12 : r * 12 + 12]]) for r, ace in enumerate(_ACES))
    return Position._make(layout, tuple(i for i, c in enumerate(layout) if c == GAP), variant)


WON = ADDICTION.won
"""The won table of Addiction (and Montana and Spaces); each variant has its own, Variant.won."""


# --------------------------------------------------------------------------- games


class Status(str, enum.Enum):
    """Where a game stands; the database keeps the value."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"

    @property
    def over(self) -> bool:
        """Won or lost: no action is allowed any more."""
        return self is not Status.PLAYING


class ActionKind(str, enum.Enum):
    """The five things a player can do; the database's log keeps the value."""

    MOVE = "move"
    UNDO = "undo"
    REDO = "redo"
    SHUFFLE = "shuffle"
    RESIGN = "resign"


SHUFFLES = ADDICTION.shuffles
"""Addiction's shuffles, three, the most any variant has."""


def shuffles_left(shuffles_used: int, variant: Variant | str | None = None) -> int:
    """The shuffles a game of ``variant`` has left after ``shuffles_used``: three a game of
    Addiction, two of the others (docs/RULES.md, "Shuffles")."""
    return variant_of(variant).shuffles - shuffles_used


MAX_ACTIONS = 5_000
"""The most actions (moves, undos, redos and shuffles) a game may have: the action that reaches it
ends the game as lost (docs/RULES.md, "End of the game").  Real games take a few hundred."""
_PLAYING, _WON, _LOST = Status.PLAYING, Status.WON, Status.LOST


class GameState(NamedTuple):
    """A game as the rules count it: position, moves, shuffles, undo history, status.

    Every action returns a new state (a named tuple: immutable, and cheap to make);
    a refused one raises :class:`IllegalAction`.  ``history`` holds the moves that
    undo can still take back, oldest first; ``undone`` the moves undo took back since the
    last move, which redo plays again, the most recently undone last.

    >>> g = GameState.start(deal_number=1, seed=42)
    >>> g = g.play(g.position.legal_moves()[0])
    >>> g.moves, g.can_undo
    (1, True)
    >>> g = g.undo()
    >>> g.moves, g.can_undo, g.position == deal(1)
    (2, False, True)
    """

    position: Position
    seed: int
    deal_number: int = 0
    moves: int = 0
    shuffles_used: int = 0
    history: tuple[Move, ...] = ()
    status: Status = Status.PLAYING
    resigned: bool = False
    undone: tuple[Move, ...] = ()

    @classmethod
    def start(cls, *, deal_number: int, seed: int, variant: Variant | str | None = None) -> GameState:
        """A new game of deal ``deal_number`` of ``variant`` (Addiction when not given) whose
        shuffles come from the secret ``seed``."""
        return cls(deal(deal_number, variant), seed, deal_number)

    @property
    def variant(self) -> Variant:
        return self.position._variant

    @property
    def shuffles_left(self) -> int:
        return self.position._variant.shuffles - self.shuffles_used

    @property
    def can_undo(self) -> bool:
        return self.status is _PLAYING and bool(self.history)

    @property
    def can_redo(self) -> bool:
        return self.status is _PLAYING and bool(self.undone)

    @property
    def is_over(self) -> bool:
        return self.status.over

    @property
    def actions(self) -> int:
        """How many actions the game has had: each move, undo, redo and shuffle (giving up ends it)."""
        return self.moves + self.shuffles_used

    @property
    def out_of_actions(self) -> bool:
        """Lost because it reached :data:`MAX_ACTIONS`."""
        return self.status is _LOST and not self.resigned and self.actions >= MAX_ACTIONS

    def act(
        self, kind: ActionKind, *, slot: Slot | None = None, to: Slot | None = None, move: Move | None = None
    ) -> tuple[GameState, Move | None]:
        """Apply one action: the one entry point of live play, replay and verification.

        A move is the ``move`` a log recorded, or the card at ``slot`` into the gap ``to``
        (a hint played exactly), or else the move a click on ``slot`` makes
        (:meth:`Position.move_for_slot`).  An undo (a redo) given a ``move`` checks that it
        takes back (plays again) that very move, as the log records it.  Returns the new
        state and the move to log: the one played, taken back or played again, None for a
        shuffle or giving up.
        Raises :class:`IllegalAction`, whose ``reason`` says why.

        >>> g = GameState.start(deal_number=1, seed=42)
        >>> g, move = g.act(ActionKind.MOVE, slot=(1, 6))
        >>> move, g.moves
        (Move('3S', (0, 12), (1, 6)), 1)
        >>> g.act(ActionKind.MOVE, slot=(0, 0))
        Traceback (most recent call last):
        ...
        games.engine.IllegalMove: 7H at 0-0 fits no gap
        """
        kind = ActionKind(kind)
        self._check_playing()
        if kind is ActionKind.MOVE:
            move = move or self._move_at(slot, to)
            return self.play(move), move
        if kind is ActionKind.UNDO:
            taken = self.history[-1] if self.history else None
            if move is not None and taken is not None and move != taken:
                raise IllegalAction(Refusal.UNDO_MISMATCH, f"the move to take back is {taken}, not {move}")
            return self.undo(), taken
        if kind is ActionKind.REDO:
            again = self.undone[-1] if self.undone else None
            if move is not None and again is not None and move != again:
                raise IllegalAction(Refusal.REDO_MISMATCH, f"the move to play again is {again}, not {move}")
            return self.redo(), again
        if kind is ActionKind.SHUFFLE:
            return self.shuffle(), None
        return self.resign(), None

    def _move_at(self, slot: Slot | None, to: Slot | None = None) -> Move:
        if slot is None:
            raise ValueError("a move needs the move or the slot clicked")
        cols = self.position._variant.cols
        for named in (slot, to):
            if named is not None and named[1] >= cols:
                raise IllegalMove(Refusal.NOT_A_GAP, f"slot {slot_name(named)} is not on this table")
        if to is not None:
            card = self.position.card_at(slot)
            if card is None:
                raise IllegalMove(Refusal.CANNOT_MOVE, f"slot {slot_name(slot)} holds no card")
            if card[0] == "A":
                raise IllegalMove(Refusal.CANNOT_MOVE, f"{card} at {slot_name(slot)} never moves")
            return Move(card, slot, to, cols)
        move = self.position.move_for_slot(slot)
        if move is not None:
            return move
        token = self.position.card_at(slot)
        where = slot_name(slot)
        if token is None:
            raise IllegalMove(Refusal.NOTHING_FITS, f"no card fits the gap at {where}")
        raise IllegalMove(Refusal.CANNOT_MOVE, f"{token} at {where} fits no gap")

    def play(self, move: Move) -> GameState:
        """Play ``move``; raise :class:`IllegalMove` if the rules refuse it."""
        if self.status is not _PLAYING:
            raise IllegalAction(Refusal.GAME_OVER, f"the game is over ({self.status.value})")
        position = self.position.play(move)
        state = self._replace(position=position, moves=self.moves + 1, history=(*self.history, move), undone=())
        variant = position._variant
        if position._gaps == variant.won_gaps or self.shuffles_used == variant.shuffles or state.actions >= MAX_ACTIONS:
            return _settled(state)
        return state

    def undo(self) -> GameState:
        """Take back the last move since the most recent shuffle; it counts as a move."""
        self._check_playing()
        if not self.history:
            raise IllegalAction(Refusal.NOTHING_TO_UNDO, "nothing to undo since the last shuffle")
        move = self.history[-1]
        position = self.position._moved(move._c, move._d, move._s)
        return _settled(
            self._replace(
                position=position, moves=self.moves + 1, history=self.history[:-1], undone=self.undone + (move,)
            )
        )

    def redo(self) -> GameState:
        """Play again the move the last undo took back, until the next move or shuffle; it
        counts as a move, as undo does."""
        self._check_playing()
        if not self.undone:
            raise IllegalAction(Refusal.NOTHING_TO_REDO, "nothing to redo since the last move")
        move = self.undone[-1]
        state = self.play(move)
        return state._replace(undone=self.undone[:-1]) if state.status is _PLAYING else state

    def shuffle(self) -> GameState:
        """Use one of the game's shuffles; it can never be undone, nor can any move before it."""
        self._check_playing()
        if self.shuffles_left <= 0:
            raise IllegalAction(Refusal.NO_SHUFFLE_LEFT, "no shuffle left")
        position = self.position.shuffle(shuffle_seed(self.seed, self.shuffles_used))
        return _settled(self._replace(position=position, shuffles_used=self.shuffles_used + 1, history=(), undone=()))

    def resign(self) -> GameState:
        """Give up; the game counts as lost."""
        self._check_playing()
        return self._replace(status=_LOST, resigned=True)

    def _check_playing(self) -> None:
        if self.status is not _PLAYING:
            raise IllegalAction(Refusal.GAME_OVER, f"the game is over ({self.status.value})")


class Tops(NamedTuple):
    """Where undo and redo stand in a game's numbered log (docs/RULES.md, "Undo and redo").

    ``undo`` is the number of the action whose move undo takes back next, ``redo`` the number
    of the undo whose move redo plays again next; 0 when there is none.  A stored game keeps
    them in its row and each logged action the ones that followed it, so an undo or a redo
    reads two log rows whatever the game's length: the action a top names (its move) and the
    one before it (the top from before that action: ``below`` in :func:`tops_after`).
    """

    undo: int = 0
    redo: int = 0

    def can_undo(self, status: Status) -> bool:
        return not status.over and self.undo > 0

    def can_redo(self, status: Status) -> bool:
        return not status.over and self.redo > 0


def tops_after(kind: ActionKind, number: int, tops: Tops, below: int = 0) -> Tops:
    """The tops once action ``number`` of ``kind`` is played from ``tops``: the one rule that
    live play (services.game_act), replay and verification (games/replay.py) all follow.

    ``below`` is, for an undo, the undo top from before the action it takes back (so undo
    walks down the moves), and for a redo the redo top from before the undo it plays again.

    >>> tops_after(ActionKind.MOVE, 7, Tops(5, 6))
    Tops(undo=7, redo=0)
    >>> tops_after(ActionKind.UNDO, 8, Tops(7, 0), below=5)
    Tops(undo=5, redo=8)
    >>> tops_after(ActionKind.REDO, 9, Tops(5, 8), below=0)
    Tops(undo=9, redo=0)
    """
    if kind is ActionKind.MOVE:
        return Tops(number, 0)
    if kind is ActionKind.UNDO:
        return Tops(below, number)
    if kind is ActionKind.REDO:
        return Tops(number, below)
    if kind is ActionKind.SHUFFLE:
        return Tops(0, 0)  # a shuffle ends what undo and redo could reach
    return tops


class HintKind(str, enum.Enum):
    MOVE = "move"
    SHUFFLE = "shuffle"
    NOTHING = "none"


class Hint(NamedTuple):
    """What a hint says (docs/RULES.md, "Hints and assisted games"): move the card at ``src`` into the gap at
    ``dst``, or shuffle now, or nothing helps.  Its text, which a game keeps and the grid's
    ``data-hint`` carries (docs/TABLE.md), is ``R-C>R-C`` in the slot notation, ``shuffle`` or
    ``none``; :meth:`parse` reads it back.

    >>> str(Hint.of(Move("7H", (1, 4), (1, 5))))
    '1-4>1-5'
    >>> Hint.parse("shuffle") == SHUFFLE_NOW, Hint.parse("1-4>1-5").dst
    (True, (1, 5))
    """

    kind: HintKind
    src: Slot | None = None
    dst: Slot | None = None

    @classmethod
    def of(cls, advice: Move | str | None) -> Hint:
        """The solver's advice (solver.hint: a Move, solver.SHUFFLE, or None) as a hint."""
        if advice is None:
            return NOTHING_HELPS
        if isinstance(advice, Move):
            return cls(HintKind.MOVE, advice.src, advice.dst)
        return SHUFFLE_NOW

    @classmethod
    def parse(cls, text: str, cols: int = COLS) -> Hint:
        """Read a hint's text for a table ``cols`` wide."""
        if text == HintKind.SHUFFLE.value:
            return SHUFFLE_NOW
        if text == HintKind.NOTHING.value:
            return NOTHING_HELPS
        try:
            src, dst = text.split(">")
        except ValueError:
            raise InvalidNotation(f"not a hint: {text!r} (expected like '1-4>1-5', 'shuffle' or 'none')") from None
        return cls(HintKind.MOVE, parse_slot(src, cols), parse_slot(dst, cols))

    def __str__(self) -> str:
        if self.kind is HintKind.MOVE:
            return f"{slot_name(self.src)}>{slot_name(self.dst)}"  # type: ignore[arg-type]
        return self.kind.value


SHUFFLE_NOW = Hint(HintKind.SHUFFLE)
NOTHING_HELPS = Hint(HintKind.NOTHING)


def _settled(state: GameState) -> GameState:
    """Apply the rules that end a game by themselves: a win, stuck with no shuffle left, or
    the game's :data:`MAX_ACTIONS`-th action."""
    position = state.position
    variant = position._variant
    if position._gaps == variant.won_gaps and position.is_won():
        return state._replace(status=_WON)
    if state.shuffles_used == variant.shuffles and position.is_stuck():
        return state._replace(status=_LOST)
    if state.moves + state.shuffles_used >= MAX_ACTIONS:
        return state._replace(status=_LOST)
    return state
