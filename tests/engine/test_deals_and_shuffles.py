"""Deals, shuffles and their randomness (docs/RULES.md, "Deal", "Shuffles").

The deals are checked twice: against a separate, plain reference implementation written
here from the documented definition, and against literal layouts pinned below (made
once with that reference implementation), so that any change of the algorithm fails.
"""

import hashlib

import pytest

from games.engine import MAX_DEAL, Position, SplitMix64, deal, fisher_yates, shuffle_seed
from tests.engine.layouts import ALL_48_CARDS, cards_of, won_with

# --------------------------------------------------------------------------- reference implementation

TWO_64 = 2**64


def ref_splitmix64(seed):
    """SplitMix64 (Steele, Lea and Flood 2014; Vigna's splitmix64.c), one output per next()."""
    state = seed % TWO_64
    while True:
        state = (state + 0x9E3779B97F4A7C15) % TWO_64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % TWO_64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % TWO_64
        yield z ^ (z >> 31)


def ref_below(outputs, n):
    """Unbiased 0..n-1: redraw while x >= 2**64 - (2**64 % n), then x % n."""
    while True:
        x = next(outputs)
        if x < TWO_64 - (TWO_64 % n):
            return x % n


def ref_fisher_yates(items, outputs):
    for i in range(len(items) - 1, 0, -1):
        j = ref_below(outputs, i + 1)
        items[i], items[j] = items[j], items[i]


DECK = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]


def ref_text(tokens):
    return " / ".join(" ".join(tokens[r * 13 : (r + 1) * 13]) for r in range(4))


def ref_deal(number):
    deck = list(DECK)
    ref_fisher_yates(deck, ref_splitmix64(number))
    return ref_text(["--" if card[0] == "A" else card for card in deck])


def ref_locked(tokens):
    """Slot indices of the runs 2, 3, 4, ... of one suit from column 0 (docs/RULES.md, "Locked cards")."""
    locked = set()
    for row in range(4):
        expected = None
        for col in range(13):
            token = tokens[row * 13 + col]
            if col == 0:
                if token[0] != "2":
                    break
                expected = token
            elif token != expected:
                break
            locked.add(row * 13 + col)
            rank = "23456789TJQK".find(token[0]) + 1
            expected = "23456789TJQK"[rank] + token[1] if rank < 12 else None
    return locked


def ref_shuffle(text, seed):
    """The shuffle as documented: the unlocked cards and the four aces, in deck order,
    are shuffled with SplitMix64(seed) and dealt in slot order into the unlocked slots."""
    tokens = text.replace("/", " ").split()
    locked = ref_locked(tokens)
    free = [i for i in range(52) if i not in locked]
    cards = [tokens[i] for i in free if tokens[i] != "--"] + ["AS", "AH", "AD", "AC"]
    cards.sort(key=DECK.index)
    ref_fisher_yates(cards, ref_splitmix64(seed))
    for i, card in zip(free, cards, strict=True):
        tokens[i] = "--" if card[0] == "A" else card
    return ref_text(tokens)


# --------------------------------------------------------------------------- SplitMix64


def test_splitmix64_seed_0_gives_the_published_outputs():
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize("seed", [1, 2, 12345, 2**63 - 1, 2**64 - 1, 0xDEADBEEF])
def test_splitmix64_agrees_with_the_reference(seed):
    rng, outputs = SplitMix64(seed), ref_splitmix64(seed)
    assert [rng.next() for _ in range(100)] == [next(outputs) for _ in range(100)]


def test_splitmix64_seed_is_taken_modulo_2_64():
    a, b = SplitMix64(5), SplitMix64(5 + 2**64)
    assert [a.next() for _ in range(5)] == [b.next() for _ in range(5)]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 52, 2**32 + 1, 2**63 + 1, 3 * 2**62 + 1])
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_below_agrees_with_the_reference_including_redraws(n, seed):
    # For n = 2**63 + 1 about half of all draws are redrawn; for 3 * 2**62 + 1 a quarter.
    rng, outputs = SplitMix64(seed), ref_splitmix64(seed)
    got = [rng.below(n) for _ in range(50)]
    assert got == [ref_below(outputs, n) for _ in range(50)]
    assert all(0 <= x < n for x in got)
    # the generator consumed exactly as many outputs as the reference did
    assert rng.next() == next(outputs)


def test_below_redraws_a_biased_draw():
    n = 2**63 + 1  # 2**64 % n == 2**63 - 1, so every draw >= n is redrawn
    for seed in range(50):
        outputs = ref_splitmix64(seed)
        first, second = next(outputs), next(outputs)
        if first >= n > second:
            assert SplitMix64(seed).below(n) == second % n != first % n
            return
    pytest.fail("no seed in 0..49 starts with a redraw")


class Scripted(SplitMix64):
    """A generator whose outputs are given, to hit the edge of the rejection limit."""

    __slots__ = ("outputs",)

    def __init__(self, outputs):
        super().__init__(0)
        self.outputs = list(outputs)

    def next(self):
        return self.outputs.pop(0)


@pytest.mark.parametrize(
    "n, outputs, expected, draws",
    [
        # 2**64 % 3 == 1: only 2**64 - 1 is redrawn
        (3, [2**64 - 1, 2**64 - 2], 2, 2),
        (3, [2**64 - 2, 2**64 - 1], 2, 1),
        # 2**64 % 52 == 16: draws from 2**64 - 16 up are redrawn; (2**64 - 17) % 52 == 51
        (52, [2**64 - 16, 2**64 - 1, 2**64 - 17], 51, 3),
        (52, [2**64 - 17, 0], 51, 1),
        (52, [104 + 5, 0], 5, 1),
        # 2**64 % 2 == 0: nothing is redrawn
        (2, [2**64 - 1, 0], 1, 1),
        (1, [2**64 - 1, 0], 0, 1),
    ],
)
def test_below_rejection_limit_exactly(n, outputs, expected, draws):
    rng = Scripted(outputs)
    assert rng.below(n) == expected
    assert len(rng.outputs) == len(outputs) - draws


# --------------------------------------------------------------------------- Fisher-Yates


@pytest.mark.parametrize("length", [0, 1, 2, 3, 13, 52, 100])
@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 - 1])
def test_fisher_yates_is_exactly_repeated_below(length, seed):
    items = list(range(length))
    rng = SplitMix64(seed)
    fisher_yates(items, rng)

    expected = list(range(length))
    by_hand = SplitMix64(seed)
    for i in range(length - 1, 0, -1):
        j = by_hand.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]

    assert items == expected
    assert rng.state == by_hand.state  # and leaves the generator where the calls leave it


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_fisher_yates_agrees_with_the_reference(seed):
    items, expected = list(DECK), list(DECK)
    fisher_yates(items, SplitMix64(seed))
    ref_fisher_yates(expected, ref_splitmix64(seed))
    assert items == expected
    assert sorted(items) == sorted(DECK)


# --------------------------------------------------------------------------- deals

PINNED_DEALS = {
    1: "7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S / 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC / "
    "TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD / QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C",
    2: "QD 3C 4S 5D 7D 2H KD TH -- 6S 7C 3S QS / 7H 6D JD TS 9C JH 8S 4H 5C 2C 4D -- QH / "
    "6C 8D 3D 9H 6H JC -- 5S JS -- KS 2D 7S / 4C 9S TD 5H TC QC KC 8C KH 3H 2S 8H 9D",
    12345: "6D 9D 6C 9C -- TS KH 8C 7H TH 2H 5S 8H / 3H QH 7C 8S 3S 9S 9H 4S 4H JS QC TC 3C / "
    "-- JH 8D 5H JC 4C TD KC -- 3D 7S 6H -- / KS QD 4D 2S 5C KD 5D QS 2D 7D 6S JD 2C",
    2**63 - 1: "5S JS 8D -- TH 9D 2S TS 8C QD 3D 3S TC / QS 8H -- 2H 7H 7D JC KD 3H 9C QH KS JD / "
    "7S 5H 6H 9H -- 6C 6S 2C 4C 9S 5C 6D TD / 4H -- 7C 8S KH 3C 4D JH 2D 4S QC 5D KC",
}


@pytest.mark.parametrize("number", sorted(PINNED_DEALS))
def test_deal_layout_is_pinned_forever(number):
    assert str(deal(number)) == PINNED_DEALS[number]


@pytest.mark.parametrize("number", [*sorted(PINNED_DEALS), 3, 4, 5, 42, 1000, 2**32, 2**40 + 7, 2**62, MAX_DEAL - 1])
def test_deal_agrees_with_the_reference(number):
    assert str(deal(number)) == ref_deal(number)


@pytest.mark.parametrize("number", [1, 2, 777, MAX_DEAL])
def test_a_deal_has_the_48_cards_and_4_gaps(number):
    p = deal(number)
    assert cards_of(p) == ALL_48_CARDS
    assert len(p.gaps()) == 4
    assert p == deal(number) and p is not deal(number)


def test_different_numbers_give_different_deals():
    assert len({str(deal(n)) for n in range(1, 51)}) == 50


@pytest.mark.parametrize("number", [0, -1, -(2**63), 2**63, 2**64, True, False, 1.0, "1", None, 2.5])
def test_deal_refuses_what_is_not_a_deal_number(number):
    with pytest.raises(ValueError):
        deal(number)


# --------------------------------------------------------------------------- shuffles

MANY_LOCKED = Position.parse(
    "2S 3S 4S 5H 6S 7S 8S 9S TS JS QS KS 9H / "  # locked: 2S 3S 4S
    "2H 3H 4H 5S 6H 7H 8H -- TH JH QH KH -- / "  # locked: 2H 3H 4H
    "2D 3D 4D 5D 6D 7D KC 9D TD 3C QD KD 6C / "  # locked: 2D..7D
    "2C JD 4C 5C -- 7C 8C 9C TC JC QC 8D --"  # locked: 2C
)

SHUFFLE_POSITIONS = {
    "deal-1": deal(1),
    "deal-12345": deal(12345),
    "many-locked": MANY_LOCKED,
    # row 1: -- 3H ... KH 2H   (a column-0 gap; the 2H run is not locked)
    "column-0-gap": won_with(((1, 0), (1, 12))),
}

SEEDS = [0, 1, 2, 2**63, 2**64 - 1, shuffle_seed(42, 0)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(SHUFFLE_POSITIONS))
def test_shuffle_agrees_with_the_documented_definition(name, seed):
    position = SHUFFLE_POSITIONS[name]
    assert str(position.shuffle(seed)) == ref_shuffle(str(position), seed)


def test_a_shuffle_is_pinned():
    # made once with ref_shuffle; a change of the shuffle algorithm must fail here
    assert str(deal(1).shuffle(1)) == PINNED_SHUFFLE_OF_DEAL_1_SEED_1
    assert str(MANY_LOCKED.shuffle(2024)) == PINNED_SHUFFLE_OF_MANY_LOCKED_SEED_2024
    assert ref_shuffle(str(deal(1)), 1) == PINNED_SHUFFLE_OF_DEAL_1_SEED_1
    assert ref_shuffle(str(MANY_LOCKED), 2024) == PINNED_SHUFFLE_OF_MANY_LOCKED_SEED_2024


PINNED_SHUFFLE_OF_DEAL_1_SEED_1 = (
    "6C 3D TH JH 9C 5H 6S TD 4D 5D QC 4C 4S / 2H 5C 7D 3C -- 3H QD 3S JS 7S 6H 2C TS / "
    "9D 7H KD 8S KH -- 9S 8D 2S 8C QH JD KC / TC 6D KS 5S 2D -- -- 9H JC QS 4H 8H 7C"
)
PINNED_SHUFFLE_OF_MANY_LOCKED_SEED_2024 = (
    "2S 3S 4S 8H 8D -- 4C -- 7H 8S QC KS -- / 2H 3H 4H 9D 7C 7S 9S 6C 3C 8C JC 9H KC / "
    "2D 3D 4D 5D 6D 7D 6S JH JS TD TH 5S 5C / 2C 5H TS TC 6H 9C KD -- QH QD JD QS KH"
)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(SHUFFLE_POSITIONS))
def test_shuffle_is_a_function_of_position_and_seed(name, seed):
    position = SHUFFLE_POSITIONS[name]
    copy = Position.parse(str(position))
    assert position.shuffle(seed) == copy.shuffle(seed) == position.shuffle(seed)
    assert position == copy  # and the original is untouched


@pytest.mark.parametrize("name", sorted(SHUFFLE_POSITIONS))
def test_different_seeds_give_different_shuffles(name):
    position = SHUFFLE_POSITIONS[name]
    assert len({position.shuffle(seed) for seed in range(20)}) == 20


@pytest.mark.parametrize("seed", SEEDS + list(range(3, 40)))
@pytest.mark.parametrize("name", sorted(SHUFFLE_POSITIONS))
def test_shuffle_keeps_locked_cards_the_48_cards_and_4_gaps(name, seed):
    position = SHUFFLE_POSITIONS[name]
    after = position.shuffle(seed)
    for slot in position.locked():
        assert after.card_at(slot) == position.card_at(slot)
    assert cards_of(after) == ALL_48_CARDS
    assert len(after.gaps()) == 4
    assert not set(after.gaps()) & position.locked()
    assert after.locked() >= position.locked()  # a card may become locked by chance, none unlocked


def test_gaps_land_anywhere_unlocked_not_only_after_runs():
    landed = set()
    for seed in range(200):
        landed.update(MANY_LOCKED.shuffle(seed).gaps())
    unlocked = {(r, c) for r in range(4) for c in range(13)} - MANY_LOCKED.locked()
    assert landed <= unlocked
    assert len(landed) > len(unlocked) * 3 // 4
    # including slots that are not right after a run
    assert (3, 12) in landed and (0, 7) in landed


def test_shuffle_of_a_won_position_keeps_it_won():
    won = won_with()
    for seed in range(10):
        # only the four gaps are unlocked, so the aces all land back in them
        assert won.shuffle(seed) == won


# --------------------------------------------------------------------------- shuffle seeds


@pytest.mark.parametrize("game_seed", [0, 1, 42, 2**63 - 1, 2**64 + 5, 10**40])
@pytest.mark.parametrize("index", [0, 1, 2])
def test_shuffle_seed_is_the_first_8_bytes_of_sha256(game_seed, index):
    digest = hashlib.sha256(f"{game_seed}:{index}".encode("ascii")).hexdigest()
    assert shuffle_seed(game_seed, index) == int(digest[:16], 16)


def test_shuffle_seed_pinned():
    # sha256(b"42:0") begins 8 bytes that, read big-endian, are this number
    assert shuffle_seed(42, 0) == int.from_bytes(hashlib.sha256(b"42:0").digest()[:8], "big")
    assert shuffle_seed(42, 0) == SHUFFLE_SEED_42_0


def test_shuffle_seeds_differ_by_index_and_seed():
    seeds = {shuffle_seed(s, i) for s in range(10) for i in range(3)}
    assert len(seeds) == 30
    assert all(0 <= s < 2**64 for s in seeds)


SHUFFLE_SEED_42_0 = 0x547345CAE1CEF372
