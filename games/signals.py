"""What the games app tells the others, without knowing them (records/receivers.py listens),
and its own background work (games/receivers.py).

Both are sent inside the transaction that changed the game, so that what a receiver writes
stands or falls with it.
"""

from django.dispatch import Signal

win_ranked = Signal()
"""Sent with ``game``: a ranked win has an account for owner, just won or just claimed."""

win_unranked = Signal()
"""Sent with ``game``: an account's win that was ranked was found not to be a true win."""

game_over = Signal()
"""Sent with ``game``: it has just ended (won, lost, given up, out of actions); its analysis is asked for."""

stretch_dealt = Signal()
"""Sent with ``game`` and ``position``: a stretch begins there (the deal, or a shuffle); the
background search for a win from there is asked for (docs/RULES.md, "Hints")."""

win_sought = Signal()
"""Sent with ``game`` and ``position``: a hint's move leads there, on no line known; the
background search for a win from there is asked for, while the stretch may ask for more."""

game_changed = Signal()
"""Sent with ``game`` after each of its actions is written (a race's standings are told of it, races/receivers.py)."""
