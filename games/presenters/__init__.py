"""What the game's templates get, by concern: ``words`` (a card, a move, a hint, a refusal, a
pause, a variant, in the player's language), ``table`` (the slots and the status bar),
``pictures`` (the rules page's tables), ``analysis`` (a finished game's analysis in words) and
``replay`` (a replay's step, the pace chart, a verification in words).  The other apps'
presenters build on these (records/presenters.py)."""
