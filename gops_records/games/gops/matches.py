"""Matches of best-of-N games (``[BestOf "N"]``): what a BestOf value may be, and how a
match's games decide it.

Pure functions, no I/O: the replay reads the tag with :func:`best_of_problem`, the
analytics (:mod:`gops_records.games.gops.analytics.matches`) score stored matches with
:func:`decide_match`. The rules (docs/notation.md, "Matches"): the first player to win a
majority of N games wins the match; a drawn game does not count and the next game of the
match is its replay; games after the match was decided are kept and flagged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: The longest match a BestOf tag may ask for (an odd number of games up to it).
MAX_BEST_OF = 15
_NUMBER = re.compile(r"[0-9]+")
_DIGITS_IN = re.compile(r"[0-9]+")


def best_of_problem(value: str) -> str | None:
    """Why ``value`` is not a BestOf value (an odd number of games from 1 to
    :data:`MAX_BEST_OF`), with the likely fix; None when it is one."""
    text = value.strip()
    shown = value if len(value) <= 40 else value[:37] + "..."
    if text.isascii() and _NUMBER.fullmatch(text) and len(text) <= 3:
        n = int(text)
        if 1 <= n <= MAX_BEST_OF and n % 2 == 1:
            return None
        if n % 2 == 0 and 2 <= n <= MAX_BEST_OF + 1:
            options = [m for m in (n - 1, n + 1) if m <= MAX_BEST_OF]
            fix = " or ".join(map(str, options))
            return (f"BestOf {shown!r} is an even number of games, which can end level: "
                    f"did you mean {fix}?")
        return (f"BestOf {shown!r} is not an odd number of games from 1 to {MAX_BEST_OF}")
    digits = _DIGITS_IN.findall(text) if text.isascii() else []
    hint = ""
    if len(digits) == 1 and len(digits[0]) <= 3 and int(digits[0]) % 2 == 1 \
            and 1 <= int(digits[0]) <= MAX_BEST_OF:
        hint = f": did you mean {int(digits[0])}?"
    return f"BestOf {shown!r} is not a number of games like 3 or 5{hint}"


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game of a match as the match sees it (in the order played): its players' names
    and its winner (None: a draw; unfinished games are left out by the caller)."""

    players: tuple[str, ...]
    winner: str | None


@dataclass(frozen=True, slots=True)
class MatchVerdict:
    """A best-of-N match scored: ``wins`` per player (counted games only), the ``winner``
    (None while undecided), ``decided_at`` the 1-based index of the game that decided it
    (None while undecided), and per game whether it ``counted``, was played ``after`` the
    match was decided, and which earlier game it ``replays`` (the 1-based index of the
    drawn game it replays, None if it replays none)."""

    best_of: int
    wins: dict[str, int]
    winner: str | None
    decided_at: int | None
    counted: tuple[bool, ...]
    after: tuple[bool, ...]
    replays: tuple[int | None, ...]

    @property
    def needed(self) -> int:
        """Games a player must win to take the match: a majority of N."""
        return self.best_of // 2 + 1


def decide_match(best_of: int, games: Sequence[MatchGame]) -> MatchVerdict:
    """Score a best-of-``best_of`` match from its games in the order played."""
    needed = best_of // 2 + 1
    wins: dict[str, int] = {}
    for game in games:
        for name in game.players:
            wins.setdefault(name, 0)
    winner: str | None = None
    decided_at: int | None = None
    counted, after, replays = [], [], []
    pending_draw: int | None = None
    for index, game in enumerate(games, start=1):
        replays.append(pending_draw)
        if winner is not None:
            counted.append(False)
            after.append(True)
            pending_draw = None
            continue
        after.append(False)
        if game.winner is None:
            counted.append(False)
            pending_draw = index
            continue
        pending_draw = None
        counted.append(True)
        wins[game.winner] = wins.get(game.winner, 0) + 1
        if wins[game.winner] >= needed:
            winner, decided_at = game.winner, index
    return MatchVerdict(best_of, wins, winner, decided_at, tuple(counted), tuple(after),
                        tuple(replays))
