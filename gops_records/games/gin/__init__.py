"""Gin Rummy, Oklahoma variant: the pure game core beside Gops (issue 14, phase 1).

cards (the pack and its text), melds (runs under three orders, sets, layoffs),
arrangement (exact least-deadwood search), rules (profile, one hand's engine), game
(scoring of a game to 100 and of a match), notation (the ``.gin`` reader and writer) and
replay (records played through the engine with located problems) and grouping
(replayed hands placed in games and matches by their tags, checked against each other). No I/O.
"""
