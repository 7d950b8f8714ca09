"""Puzzles from real games (issue 47): positions where a win without another shuffle exists,
each with its winning line and how hard it is, and a rating for players and puzzles.  This
stop holds the parts that need no pages yet: the rating's arithmetic (glicko.py) and the search
that finds and grades a puzzle (build.py), with the engine and the solver alone."""
