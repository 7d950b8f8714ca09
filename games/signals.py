"""What the games app tells the others, without knowing them (records/receivers.py listens).

Both are sent inside the transaction that changed the game, so that what a receiver writes
stands or falls with it.
"""

from django.dispatch import Signal

win_ranked = Signal()
"""Sent with ``game``: a ranked win has an account for owner, just won or just claimed."""

win_unranked = Signal()
"""Sent with ``game``: an account's win that was ranked was found not to be a true win."""
