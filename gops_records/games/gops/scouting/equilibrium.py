"""The scouting report's honest baseline: the equilibrium's guaranteed value, and what a
best response to the fitted model gains over it (the player's exploitability), in the
endgames the solver covers.

For each of the player's most recent classic two-player games (at most
:data:`ENDGAMES`), the position where :data:`ENDGAME_CARDS` cards are left in each hand
(both hands, the prizes left, the pool carried: all of it public in Gops) is taken with
the player as B, the scout as A, under the points objective. There:

- **the equilibrium's value** V (:mod:`gops_records.games.gops.theory`): what A's
  equilibrium mix guarantees in expectation whatever the player does;
- **the best response's value** BR: A knows the model's mix in every later situation
  (:meth:`OpponentModel.distribution`) and picks, for each prize revealed, the card of
  best expected points plus what follows (an exact backward induction, no simulation);
- **exploitability** BR - V >= 0 (the model is one of the player's strategies, so the
  best reply to it earns at least the value): what exploiting the model adds to the
  guarantee. Its mean over the endgames with a 95% interval (normal approximation).

From the start of a game the equilibrium is worth 0 (the symmetric start, docs/theory.md):
a counter-strategy's simulated gain is to be read against that 0, which needs no model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import duckdb
import polars as pl

from gops_records.games.gops.report import GameReport
from gops_records.games.gops.scouting.baseline import EquilibriumBaseline
from gops_records.games.gops.scouting.model import OpponentModel
from gops_records.games.gops.theory.position import Objective, Position, TieRule
from gops_records.games.gops.theory.review import ReviewUnsupported, setting_of
from gops_records.games.gops.theory.tablebase import tablebase

#: Cards left in each hand at the endgame analysed.
ENDGAME_CARDS = 4
#: The most recent games whose endgame is analysed.
ENDGAMES = 40


def endgame(report: GameReport, player: str, cards_left: int = ENDGAME_CARDS
            ) -> tuple[Position, int] | None:
    """The position with ``cards_left`` cards in each hand, the player as B (hands,
    prizes left, pool carried), and the deck size; None when the game never got there or
    the player sat in neither of the two seats."""
    names = report.players[:2]
    if player not in names or len(report.rounds) < report.profile.cards - cards_left + 1:
        return None
    me = names.index(player)
    n = report.profile.cards
    hands = [set(range(1, n + 1)), set(range(1, n + 1))]
    prizes = set(range(1, n + 1))
    for played in report.rounds[: n - cards_left]:
        for seat in (0, 1):
            hands[seat].discard(played.bids[seat])
        prizes.discard(played.prize)
    pool = report.rounds[n - cards_left].carried_in
    return Position(frozenset(hands[1 - me]), frozenset(hands[me]), frozenset(prizes),
                    pool), n


def best_response_value(model: OpponentModel, pos: Position, cards: int, carry: bool,
                        mixes: dict | None = None) -> float:
    """A's expected points over the rounds left, replying best to B drawn from ``model``
    (a shuffled prize pile: each prize left equally likely next).

    ``mixes`` keeps the model's answers between calls (one dict per model and deck size:
    the endgames of one player ask many of the same situations). The last round needs no
    model: B's one card is played with probability 1, so its value is the pot won or lost.
    """
    if mixes is None:
        mixes = {}

    def mix(hand: tuple[int, ...], prize: int, pot: int, rest: tuple[int, ...]
            ) -> list[tuple[int, float, tuple[int, ...]]]:
        key = (hand, prize, pot, rest)
        found = mixes.get(key)
        if found is None:
            probs = model.distribution(prize, pot, list(hand), list(rest), cards)
            mass = sum(probs.values()) or 1.0
            found = [(y, p / mass, tuple(c for c in hand if c != y))
                     for y, p in probs.items() if p > 0]
            mixes[key] = found
        return found

    @cache
    def value(a: tuple[int, ...], b: tuple[int, ...], prizes: tuple[int, ...], pool: int
              ) -> float:
        if len(a) == 1:
            pot = pool + prizes[0]
            return float(pot if a[0] > b[0] else -pot if a[0] < b[0] else 0)
        replies = [(x, tuple(c for c in a if c != x)) for x in a]
        total = 0.0
        for prize in prizes:
            rest = tuple(p for p in prizes if p != prize)
            pot = pool + prize
            probs = mix(b, prize, pot, rest)
            best = -math.inf
            for x, a_rest in replies:
                mean = 0.0
                for y, share, b_rest in probs:
                    if x > y:
                        mean += share * (pot + value(a_rest, b_rest, rest, 0))
                    elif x < y:
                        mean += share * (-pot + value(a_rest, b_rest, rest, 0))
                    else:
                        carried = pot if carry else 0
                        mean += share * (0 + value(a_rest, b_rest, rest, carried))
                best = max(best, mean)
            total += best
        return total / len(prizes)

    return value(tuple(sorted(pos.hand_a)), tuple(sorted(pos.hand_b)),
                 tuple(sorted(pos.prizes)), pos.pool)


def baseline(reports: Sequence[GameReport], player: str, model: OpponentModel,
             cards_left: int = ENDGAME_CARDS) -> EquilibriumBaseline | None:
    """The baseline over the endgames of ``reports`` (most recent last; the last
    :data:`ENDGAMES` used) that the solver covers; None when there is none."""
    gaps, eqs, brs = [], [], []
    mixes: dict[int, dict] = {}  # the model's answers, by deck size
    for report in reversed(reports):
        if len(gaps) >= ENDGAMES:
            break
        try:
            setting = setting_of(report, Objective.POINTS)
        except ReviewUnsupported:
            continue
        if setting.order.value != "random":
            continue  # the model's situations read a shuffled pile
        found = endgame(report, player, cards_left)
        if found is None:
            continue
        pos, cards = found
        eq = tablebase(None).solver(setting).value(pos)
        br = best_response_value(model, pos, cards, setting.tie_rule is TieRule.CARRY,
                                 mixes.setdefault(cards, {}))
        eqs.append(eq)
        brs.append(br)
        gaps.append(br - eq)
    if not gaps:
        return None
    n = len(gaps)
    mean = sum(gaps) / n
    low = high = None
    if n > 1:
        sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1))
        low, high = mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)
    return EquilibriumBaseline(n, cards_left, sum(eqs) / n, sum(brs) / n, mean, low, high)


def player_baseline(con: duckdb.DuckDBPyConnection, player: str, frame: pl.DataFrame,
                    model: OpponentModel) -> EquilibriumBaseline | None:
    """:func:`baseline` of the player's stored games in ``frame`` (the scouting frame:
    one row per bid, with ``game_id`` and ``date``): the latest :data:`ENDGAMES` by date."""
    from gops_records.core.games_query import GameFilter
    from gops_records.games.gops.export import iter_records
    from gops_records.games.gops.validate import validate_games

    games = frame.select("game_id", "date").unique("game_id").sort("date", "game_id",
                                                                  nulls_last=False)
    recent = tuple(games["game_id"].tail(ENDGAMES).to_list())
    # one replay of all of them (a replay per game paid its fixed cost 40 times)
    reports = validate_games(list(iter_records(con, GameFilter(game_ids=recent))))
    return baseline(reports, player, model)
