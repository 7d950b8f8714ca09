"""A finished game's analysis in words (docs/RULES.md, "Analysis"): each stretch's verdict,
its winning line and where the win slipped away, for the end screen, the analysis's page and
the replay."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext as _

from games import engine
from games.models import Game
from games.presenters.words import line_words
from games.selectors import game_analysis


class StretchWords(NamedTuple):
    """One stretch of a finished game's analysis, in words (docs/RULES.md, "Analysis")."""

    start: int  # the replay step it starts at: the deal (0) or a shuffle
    label: str  # "From the deal", "After shuffle 2"
    verdict: str  # solver.Verdict's value: won, proved_lost, unknown
    line: list[str]  # a winning line from its start, in words
    slip: int | None  # the replay step after which no win was left, if one was
    played: str  # what the player did at that step
    instead: str  # a move that kept the win there
    slip_words: str = ""  # the slip in one plain sentence: which stretch, what was played, what kept the win
    verdict_words: str = ""  # what was judged of the stretch, in one sentence


class AnalysisWords(NamedTuple):
    done: bool
    stretches: list[StretchWords]
    fewest_moves: int | None
    asked: bool = True  # False: nobody asked for it yet (a game from before analyses)

    @property
    def opening(self) -> StretchWords | None:
        """The stretch from the deal, when a shuffle followed it: whether the deal itself could be won."""
        return self.stretches[0] if len(self.stretches) > 1 else None

    @property
    def slips(self) -> list[StretchWords]:
        return [stretch for stretch in self.stretches if stretch.slip is not None]

    @property
    def judged(self) -> list[StretchWords]:
        """The stretches between the opening and the last with no slip to tell: what was judged
        of each (the opening and the last have sentences of their own, a slip its own)."""
        return [stretch for stretch in self.stretches[1:-1] if stretch.slip is None]

    def at(self, step: int) -> dict:
        """What the replay says at ``step``: the stretch that starts there, the one that slipped there."""
        return {
            "starts": next((s for s in self.stretches if s.start == step and s.verdict == "won"), None),
            "slips": next((s for s in self.stretches if s.slip == step), None),
        }


def slip_sentence(label: str, kind: str, step: int | None, played: str, instead: str) -> str:
    """Where a stretch's win slipped away, plainly: the stretch, what the player did at that
    step, and the move that would have kept the win."""
    if step is None:
        return ""
    words = {"label": label, "step": step, "played": played, "instead": instead}
    if not instead:
        return _("%(label)s, a win was possible without another shuffle, until step %(step)s.") % words
    if kind == engine.ActionKind.SHUFFLE.value:
        return (
            _(
                "%(label)s, a win was possible without another shuffle. At step %(step)s you shuffled; "
                "%(instead)s would have kept the win."
            )
            % words
        )
    if kind == engine.ActionKind.RESIGN.value:
        return (
            _(
                "%(label)s, a win was possible without another shuffle. At step %(step)s you gave up; "
                "%(instead)s would have kept the win."
            )
            % words
        )
    return (
        _(
            "%(label)s, a win was possible without another shuffle. At step %(step)s you played "
            "%(played)s; %(instead)s would have kept the win."
        )
        % words
    )


def verdict_sentence(label: str, verdict: str) -> str:
    """What was judged of a stretch, in one sentence."""
    words = {"label": label}
    if verdict == "won":
        return _("%(label)s, a win was possible without another shuffle.") % words
    if verdict == "proved_lost":
        return _("%(label)s, no win was possible without another shuffle.") % words
    return _("%(label)s, whether a win was possible was not decided within the search budget.") % words


def analysis_words(game: Game) -> AnalysisWords:
    """What the end screen and the replay say of ``game``'s analysis: not done yet, or each
    stretch's verdict and slip in words."""
    analysis = game_analysis(game)
    if analysis is None or not analysis.done:
        return AnalysisWords(False, [], None, asked=analysis is not None)
    stretches = []
    for entry in analysis.stretches:
        used = entry["shuffles_used"]
        label = _("From the deal") if not used else _("After shuffle %(number)s") % {"number": used}
        kind = entry.get("played_kind", "")
        if kind == engine.ActionKind.SHUFFLE.value:
            played = _("the shuffle")
        elif kind == engine.ActionKind.RESIGN.value:
            played = _("giving up")
        elif entry["played"]:
            played = line_words(entry["played"])[0]
        else:
            played = ""
        instead = line_words(entry["instead"])[0] if entry["instead"] else ""
        stretches.append(
            StretchWords(
                start=entry["start"],
                label=str(label),
                verdict=entry["verdict"],
                line=line_words(entry["line"]),
                slip=entry["slip"],
                played=str(played),
                instead=instead,
                slip_words=slip_sentence(str(label), kind, entry["slip"], str(played), instead),
                verdict_words=verdict_sentence(str(label), entry["verdict"]),
            )
        )
    return AnalysisWords(True, stretches, analysis.fewest_moves)
