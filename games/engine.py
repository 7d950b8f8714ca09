"""The rules of Addiction Solitaire (docs/RULES.md) as pure values: no Django, no I/O.

Vocabulary, in the game's own words:

- a *card* is written as its token, rank then suit: ``"7H"``, ``"TD"``;
- a *slot* is ``(row, col)`` with row 0..3 from the top and col 0..12 from the left;
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
suits in the order S H D C) and a slot is the index ``row * 13 + col``.  A position
keeps its 52 slots as 52 bytes, so copying, comparing and hashing one is a single
C call; that, and building each :class:`Move` once, is what makes the engine fast.
"""

from __future__ import annotations

import enum
import hashlib
from typing import NamedTuple

__all__ = [
    "COLS",
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
SLOTS = ROWS * COLS
SUITS = "SHDC"
RANKS = "A23456789TJQK"
GAP = 0xFF
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
_ACES_TO_GAPS = bytes(GAP if code < 52 and code % 13 == 0 else code for code in range(256))
_COLUMN_0 = frozenset(range(0, SLOTS, COLS))
_SLOT_OF = tuple((i // COLS, i % COLS) for i in range(SLOTS))
_SLOT_NAMES = tuple(f"{row}-{col}" for row, col in _SLOT_OF)
_SLOT_NAMED = {name: slot for name, slot in zip(_SLOT_NAMES, _SLOT_OF, strict=True)}
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


def _token(code: int) -> str:
    return GAP_TOKEN if code == GAP else _TOKENS[code]


def _index(slot: Slot) -> int:
    row, col = slot
    if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < ROWS and 0 <= col < COLS):
        raise ValueError(f"not a slot: {slot!r} (row 0..{ROWS - 1}, col 0..{COLS - 1})")
    return row * COLS + col


def slot_name(slot: Slot) -> str:
    """A slot in the notation of docs/RULES.md, ``ROW-COL`` (python-chess's ``square_name``).

    >>> slot_name((1, 12))
    '1-12'
    """
    return _SLOT_NAMES[_index(slot)]


def parse_slot(text: str) -> Slot:
    """The slot that ``ROW-COL`` names (python-chess's ``parse_square``); anything else,
    ``01-2`` or ``4-0`` among them, is InvalidNotation.

    >>> parse_slot("3-0")
    (3, 0)
    """
    slot = _SLOT_NAMED.get(text)
    if slot is None:
        raise InvalidNotation(f"not a slot: {text!r} (expected ROW-COL, row 0..{ROWS - 1}, col 0..{COLS - 1})")
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

    def __new__(cls, card: str, src: Slot, dst: Slot) -> Move:
        code = _CODE_OF.get(card.upper()) if isinstance(card, str) else None
        if code is None or code in _ACES:
            raise ValueError(f"not a card on the table: {card!r}")
        return _move(code, _index(src), _index(dst))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read the text form ``CARD:ROW-COL>ROW-COL`` written by ``str(move)``."""
        known = _PARSED.get(text)  # a stored game's whole undo history is read on each request
        if known is not None:
            return known
        try:
            card, rest = text.strip().split(":")
            src, dst = rest.split(">")
            move = cls(card, parse_slot(src), parse_slot(dst))
        except (ValueError, TypeError, AttributeError) as error:
            raise InvalidNotation(f"not a move: {text!r} (expected like '7H:1-4>1-5')") from error
        if text == move._text:  # only canonical texts, so the table holds at most one per move
            _PARSED[text] = move
        return move

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    def __reduce__(self):
        return (Move, (self.card, self.src, self.dst))

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


# --------------------------------------------------------------------------- positions


class Position:
    """One layout of the table: 52 slots holding 48 cards and 4 gaps. Immutable.

    >>> p = Position.parse(WON)
    >>> p.is_won(), p.legal_moves()
    (True, [])
    """

    __slots__ = ("_layout", "_gaps")
    _layout: bytes
    _gaps: tuple[int, int, int, int]

    def __init__(self, text: str):
        layout = _parse_layout(text)
        _set_layout(self, layout)
        _set_gaps(self, tuple(i for i, c in enumerate(layout) if c == GAP))

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the position notation; raise :class:`InvalidNotation` saying what is wrong and where."""
        return cls(text)

    @staticmethod
    def _make(layout: bytes, gaps: tuple) -> Position:
        position = _new_position(Position)
        _set_layout(position, layout)
        _set_gaps(position, gaps)
        return position

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable")

    def __reduce__(self):
        return (Position, (str(self),))

    # ---- values

    def __eq__(self, other) -> bool:
        return isinstance(other, Position) and self._layout == other._layout

    def __hash__(self) -> int:
        return hash(self._layout)

    def __str__(self) -> str:
        tokens = [_token(c) for c in self._layout]
        return " / ".join(" ".join(tokens[r * COLS : (r + 1) * COLS]) for r in range(ROWS))

    def __repr__(self) -> str:
        return f"Position({str(self)!r})"

    # ---- reading the table

    def card_at(self, slot: Slot) -> str | None:
        """The card token at ``slot``, or None for a gap."""
        code = self._layout[_index(slot)]
        return None if code == GAP else _TOKENS[code]

    def slot_of(self, card: str) -> Slot:
        """Where ``card`` lies; an ace, which is never on the table, raises ValueError."""
        code = _CODE_OF.get(card.upper()) if isinstance(card, str) else None
        index = -1 if code is None else self._layout.find(code)
        if index < 0:
            raise ValueError(f"{card} is not on the table")
        return _SLOT_OF[index]

    def gaps(self) -> list[Slot]:
        """The four gaps, in slot order."""
        return [_SLOT_OF[g] for g in self._gaps]

    def rows(self) -> list[list[str | None]]:
        """The table as 4 lists of 13 tokens, None for a gap."""
        cells = [None if c == GAP else _TOKENS[c] for c in self._layout]
        return [cells[r * COLS : (r + 1) * COLS] for r in range(ROWS)]

    # ---- moves

    def legal_moves(self) -> list[Move]:
        """Every legal move, by gap slot, then by source slot."""
        layout = self._layout
        find = layout.find
        cached = _MOVES.get
        moves = []
        for gap in self._gaps:
            if gap in _COLUMN_0:
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
            or (code % 13 != 1 if dst % COLS == 0 else _NEXT[layout[dst - 1]] != code)
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
        return Position._make(bytes(new), tuple(gaps))

    def _why_illegal(self, move: Move) -> tuple[Refusal, str]:
        layout = self._layout
        code, src, dst = move._c, move._s, move._d
        at = _SLOT_NAMES.__getitem__
        if layout[dst] != GAP:
            return Refusal.NOT_A_GAP, f"slot {at(dst)} is not a gap (it holds {_TOKENS[layout[dst]]})"
        if layout[src] != code:
            return Refusal.CARD_NOT_THERE, f"{move.card} is not at {at(src)}"
        if dst % COLS == 0:
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
        index = _index(slot)
        moves = self.legal_moves()
        if self._layout[index] == GAP:
            fits = [m for m in moves if m._d == index]
            if index % COLS == 0:
                fits = [m for m in fits if m._s % COLS != 0]
            return fits[0] if fits else None
        return next((m for m in moves if m._s == index), None)

    # ---- the state of the game

    def _locked_runs(self) -> list[int]:
        """For each row, how many cards from column 0 are in correct position."""
        layout = self._layout
        runs = []
        for start in range(0, SLOTS, COLS):
            i = start
            if layout[i] in _TWOS:
                i += 1
                while i < start + COLS and layout[i] != GAP and layout[i] == _NEXT[layout[i - 1]]:
                    i += 1
            runs.append(i - start)
        return runs

    def _locked_indices(self) -> list[int]:
        return [r * COLS + c for r, run in enumerate(self._locked_runs()) for c in range(run)]

    def locked(self) -> frozenset[Slot]:
        """The slots whose cards are in correct position (runs 2, 3, 4, ... from column 0)."""
        return frozenset(_SLOT_OF[i] for i in self._locked_indices())

    def is_won(self) -> bool:
        """Every row holds 2..K of one suit in columns 0..11."""
        return self._gaps == (12, 25, 38, 51) and len(self._locked_indices()) == 48

    def is_stuck(self) -> bool:
        """No card can move: every gap is right of a King or of another gap."""
        layout = self._layout
        return all(g % COLS != 0 and _NEXT[layout[g - 1]] == GAP for g in self._gaps)

    def dead_gaps(self) -> list[Slot]:
        """Gaps nothing can fill: right of a King or of another gap."""
        layout = self._layout
        return [_SLOT_OF[g] for g in self._gaps if g % COLS != 0 and _NEXT[layout[g - 1]] == GAP]

    def shuffle(self, seed: int) -> Position:
        """The position after one shuffle, decided entirely by ``seed``.

        Locked cards stay.  The other cards and the four aces, in deck order (suits
        S H D C, ranks A..K), are shuffled by :func:`fisher_yates` with
        ``SplitMix64(seed)`` and dealt in slot order into the slots that are not
        locked; the slots that receive an ace become the gaps.
        """
        layout = self._layout
        runs = self._locked_runs()
        locked_cards = {layout[r * COLS + c] for r, run in enumerate(runs) for c in range(run)}
        cards = [code for code in range(52) if code not in locked_cards]
        fisher_yates(cards, SplitMix64(seed))
        dealt = bytes(cards).translate(_ACES_TO_GAPS)
        new = bytearray(layout)
        taken = 0
        for r, run in enumerate(runs):
            width = COLS - run
            new[r * COLS + run : (r + 1) * COLS] = dealt[taken : taken + width]
            taken += width
        find = new.find
        a = find(GAP)
        b = find(GAP, a + 1)
        c = find(GAP, b + 1)
        return Position._make(bytes(new), (a, b, c, find(GAP, c + 1)))


# Setting the slots through their descriptors skips the refusing __setattr__ at C speed.
_new_position = object.__new__
_set_layout = Position.__dict__["_layout"].__set__
_set_gaps = Position.__dict__["_gaps"].__set__


def _parse_layout(text: str) -> bytes:
    if not isinstance(text, str):
        raise InvalidNotation(f"a position is text, not {type(text).__name__}")
    rows = [row.split() for row in text.upper().split("/")]
    if len(rows) == ROWS and all(len(row) == COLS for row in rows):
        try:  # the common case, a valid position, in a few C calls; anything odd is explained below
            layout = bytes([_BYTE_OF[token] for row in rows for token in row])
            cards = layout.replace(_GAP_BYTE, b"")
            if len(cards) == 48 and len(set(cards)) == 48:
                return layout
        except KeyError:
            pass
    raise _why_invalid(text)


# Every token a position may hold, by byte; aces and "/" are in none.
_BYTE_OF = {**{token: code for code, token in enumerate(_TOKENS) if code not in _ACES}, GAP_TOKEN: GAP}
_GAP_BYTE = bytes([GAP])


def _why_invalid(text: str) -> InvalidNotation:
    """The error that says what is wrong with ``text``, and where."""
    rows = text.split("/")
    if len(rows) != ROWS:
        return InvalidNotation(f"a position has {ROWS} rows separated by '/', this has {len(rows)}")
    seen: dict[int, Slot] = {}
    gaps = 0
    for r, row in enumerate(rows):
        tokens = row.split()
        if len(tokens) != COLS:
            return InvalidNotation(f"row {r} has {len(tokens)} slots, not {COLS}")
        for c, token in enumerate(tokens):
            upper = token.upper()
            if upper == GAP_TOKEN:
                gaps += 1
                continue
            code = _CODE_OF.get(upper)
            if code is None:
                return InvalidNotation(f"row {r}, column {c}: unknown token {token!r}")
            if code in _ACES:
                return InvalidNotation(f"row {r}, column {c}: an ace ({upper}) is never on the table")
            if code in seen:
                first = seen[code]
                return InvalidNotation(
                    f"row {r}, column {c}: duplicate card {upper} (also at row {first[0]}, column {first[1]})"
                )
            seen[code] = (r, c)
    return InvalidNotation(f"a position has exactly 4 gaps, this has {gaps}")


def deal(number: int) -> Position:
    """The opening position of deal ``number`` (1 .. 2**63-1); the same forever.

    The deck in deck order (suits S H D C, ranks A..K) is shuffled by
    :func:`fisher_yates` with ``SplitMix64(number)``, laid out row by row, and the
    aces are taken out.
    """
    if isinstance(number, bool) or not isinstance(number, int) or number not in DEAL_NUMBERS:
        raise ValueError(f"a deal number is an integer from 1 to {MAX_DEAL}, not {number!r}")
    deck = list(range(52))
    fisher_yates(deck, SplitMix64(number))
    layout = bytes(GAP if code % 13 == 0 else code for code in deck)
    return Position._make(layout, tuple(i for i, c in enumerate(layout) if c == GAP))


WON = " / ".join(" ".join(_TOKENS[s * 13 + r] for r in range(1, 13)) + " --" for s in range(4))


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


SHUFFLES = 3


def shuffles_left(shuffles_used: int) -> int:
    """The shuffles a game has left after ``shuffles_used``: three a game (docs/RULES.md, "Shuffles")."""
    return SHUFFLES - shuffles_used


MAX_ACTIONS = 5_000
"""The most actions (moves, undos, redos and shuffles) a game may have: the action that reaches it
ends the game as lost (docs/RULES.md, "End of the game").  Real games take a few hundred."""
_PLAYING, _WON, _LOST = Status.PLAYING, Status.WON, Status.LOST
_WON_GAPS = (12, 25, 38, 51)


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
    def start(cls, *, deal_number: int, seed: int) -> GameState:
        """A new game of deal ``deal_number`` whose shuffles come from the secret ``seed``."""
        return cls(deal(deal_number), seed, deal_number)

    @property
    def shuffles_left(self) -> int:
        return shuffles_left(self.shuffles_used)

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
        if to is not None:
            card = self.position.card_at(slot)
            if card is None:
                raise IllegalMove(Refusal.CANNOT_MOVE, f"slot {slot_name(slot)} holds no card")
            return Move(card, slot, to)
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
        if position._gaps == _WON_GAPS or self.shuffles_used == SHUFFLES or state.actions >= MAX_ACTIONS:
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
        """Use one of the three shuffles; it can never be undone, nor can any move before it."""
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
    def parse(cls, text: str) -> Hint:
        if text == HintKind.SHUFFLE.value:
            return SHUFFLE_NOW
        if text == HintKind.NOTHING.value:
            return NOTHING_HELPS
        try:
            src, dst = text.split(">")
        except ValueError:
            raise InvalidNotation(f"not a hint: {text!r} (expected like '1-4>1-5', 'shuffle' or 'none')") from None
        return cls(HintKind.MOVE, parse_slot(src), parse_slot(dst))

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
    if position._gaps == _WON_GAPS and position.is_won():
        return state._replace(status=_WON)
    if state.shuffles_used == SHUFFLES and position.is_stuck():
        return state._replace(status=_LOST)
    if state.moves + state.shuffles_used >= MAX_ACTIONS:
        return state._replace(status=_LOST)
    return state
