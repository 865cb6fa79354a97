"""Reviewing a recorded game against the equilibrium: each round's value, both
equilibrium mixes, what each bid gave away, each player's accuracy.

A round is analysed from the position before its prize is revealed (both hands, the
prizes left, the pool carried, the lead): its value, then the matrix game of the prize
that came (:meth:`Solver.matrix`), one equilibrium of it (HiGHS) and the cost of every
card in each hand (:mod:`bid_cost`: independent of the equilibrium returned). The cost
of the card a player bid is that bid's cost. A game of at most ``rounds`` cards is
analysed whole; a longer one from the round where ``rounds`` cards are left in each hand
(the last ``rounds`` rounds; the compiled solver keys hands of at most 8 cards for
N = 11..13, and docs/theory.md gives the time per K). The value before the reveal of that
first analysed round is not computed (None) unless it is the game's first round (worth 0,
the symmetric start): it is the mean over every prize that could have come, about three
quarters of the whole solve, while the prize that came needs only its own game.

Accuracy is lichess's formula on a percentage loss: a bid costing c has the loss
``d = 50 c`` (``win``: c is win-minus-loss, so 50 c is percentage points of win chance,
draws half) or ``d = 100 c / (N (N + 1) / 2)`` (``points``: c as a share of the deck's
points), and the accuracy ``103.1668 exp(-0.04354 d) - 3.1669`` clamped to 0..100; a
player's accuracy in a game is the mean over their analysed bids with a choice (a hand
of two cards or more; the last card is forced and counts nowhere).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gops_records.core.errors import GopsError
from gops_records.games.gops.report import GameReport
from gops_records.games.gops.rules import PrizeOrder as RecordOrder
from gops_records.games.gops.theory import bid_cost, matrix_game
from gops_records.games.gops.theory.position import Objective, Position, PrizeOrder, Setting
from gops_records.games.gops.theory.tablebase import Tablebase, tablebase

#: Rounds analysed by default, per objective: hands of at most this many cards (the
#: last 8 rounds of a 13-card game take well under 2 s under ``points`` with a cold
#: cache, about 5 s under ``win``, the last 7 under a second: docs/theory.md,
#: benchmarks/bench_review.py).
DEFAULT_ROUNDS = {"points": 8, "win": 7}
#: The largest hand the review solves (the compiled key's limit for N = 11..13).
MAX_ROUNDS = 8
#: How many costliest bids a review lists.
COSTLIEST = 3
SEATS = ("A", "B")


class ReviewUnsupported(GopsError):
    """A game the solver does not cover (players, bids of several cards, open prizes) or
    that cannot be reviewed (problems in the record)."""

    code = "review-unsupported"


@dataclass(frozen=True)
class BidReview:
    """One player's bid in an analysed round: its card, its cost, the equilibrium's
    probability of that card, and whether the player had a choice."""

    round_no: int
    seat: str
    player: str
    card: int
    cost: float
    accuracy: float
    probability: float
    choice: bool


@dataclass(frozen=True)
class RoundReview:
    """An analysed round: the position before the reveal, its value, the revealed prize's
    game (its value and both equilibrium mixes, over the hands in order) and both bids."""

    round_no: int
    prize: int
    hand_a: tuple[int, ...]
    hand_b: tuple[int, ...]
    prizes_left: tuple[int, ...]
    pool: int
    lead: int
    #: the position's value before the reveal (None: the first analysed round of a game
    #: analysed from its middle, see the module's docstring)
    value: float | None
    prize_value: float
    mix_a: tuple[float, ...]
    mix_b: tuple[float, ...]
    bids: tuple[BidReview, BidReview]


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: its setting, the first round analysed, each analysed round, each
    player's accuracy (None with no bid of choice) and the costliest bids."""

    players: tuple[str, str]
    setting: Setting
    rounds_played: int
    first_round: int
    rounds: tuple[RoundReview, ...]
    date: str | None = None

    @property
    def bids(self) -> list[BidReview]:
        return [bid for r in self.rounds for bid in r.bids]

    def accuracy(self, seat: str) -> float | None:
        mine = [b.accuracy for b in self.bids if b.seat == seat and b.choice]
        return sum(mine) / len(mine) if mine else None

    def mean_cost(self, seat: str) -> tuple[float | None, int]:
        mine = [b.cost for b in self.bids if b.seat == seat and b.choice]
        return (sum(mine) / len(mine) if mine else None), len(mine)

    def costliest(self, count: int = COSTLIEST) -> list[BidReview]:
        costly = [b for b in self.bids if b.cost > 0]
        return sorted(costly, key=lambda b: (-b.cost, b.round_no, b.seat))[:count]


def setting_of(report: GameReport, objective: Objective) -> Setting:
    """The solver's setting of a recorded game; :class:`ReviewUnsupported` for a variant
    it does not cover, saying why."""
    profile = report.profile
    why = []
    if profile.players != 2:
        why.append(f"{profile.players} players (the solver is for two: with more the game "
                   "has no single value)")
    if profile.bid_cards != 1:
        why.append(f"bids of {profile.bid_cards} cards (the solver bids one card a round)")
    if profile.open_prizes is not None:
        why.append(f"open prizes ({profile.open_prizes} face up; the solver reveals one "
                   "prize a round)")
    if why:
        raise ReviewUnsupported("this game cannot be reviewed: it has " + " and ".join(why)
                                + "; see docs/theory.md, Limits")
    if not report.valid:
        first = report.problems[0]
        raise ReviewUnsupported(f"this game has {len(report.problems)} problem(s) (first: "
                                f"{first.message}); gops replay shows them, fix the record "
                                "to review it")
    order = {RecordOrder.SHUFFLED: PrizeOrder.RANDOM, RecordOrder.ASCENDING:
             PrizeOrder.ASCENDING, RecordOrder.DESCENDING: PrizeOrder.DESCENDING}
    return Setting(profile.cards, profile.tie_rule, objective, order[profile.prize_order])


def default_rounds(objective: Objective) -> int:
    """The rounds analysed when none are asked for (:data:`DEFAULT_ROUNDS`)."""
    return DEFAULT_ROUNDS[objective.value]


def review_game(report: GameReport, objective: Objective = Objective.POINTS,
                rounds: int | None = None, store: Tablebase | None = None) -> GameReview:
    """Review one two-player classic game: the rounds with at most ``rounds`` cards in
    each hand (1..8; default :func:`default_rounds`), against the equilibrium of
    ``objective``. ``store`` keeps solved values (default: this process's memory only)."""
    rounds = default_rounds(objective) if rounds is None else rounds
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ReviewUnsupported(f"--rounds {rounds}: the review analyses 1 to {MAX_ROUNDS} "
                                "rounds (hands of at most 8 cards)")
    setting = setting_of(report, objective)
    solver = (store or tablebase(None)).solver(setting)
    n = setting.cards
    names = tuple(report.players[:2])
    hand_a, hand_b = set(range(1, n + 1)), set(range(1, n + 1))
    prizes, lead = set(range(1, n + 1)), 0
    analysed = []
    first = max(1, n - rounds + 1)
    for played in report.rounds:
        card_a, card_b = played.bids
        if played.round_no >= first:
            analysed.append(_review_round(solver, setting, names, played.round_no,
                                          played.prize, hand_a, hand_b, prizes,
                                          played.carried_in, lead, card_a, card_b,
                                          with_value=bool(analysed) or first == 1))
        hand_a.discard(card_a)
        hand_b.discard(card_b)
        prizes.discard(played.prize)
        if played.winner is not None:
            lead += played.pool_value if played.winner == 0 else -played.pool_value
    return GameReview(names, setting, len(report.rounds), first, tuple(analysed),
                      report.record.tags.get("Date"))


def _review_round(solver, setting: Setting, names, round_no: int, prize: int,
                  hand_a: set[int], hand_b: set[int], prizes: set[int], pool: int, lead: int,
                  card_a: int, card_b: int, with_value: bool = True) -> RoundReview:
    a, b = tuple(sorted(hand_a)), tuple(sorted(hand_b))
    left = frozenset(prizes)
    win = setting.objective is Objective.WIN
    value = solver.value(Position(frozenset(a), frozenset(b), left, pool, lead)) \
        if with_value else None
    grid = solver.matrix(a, b, left, pool, lead if win else 0, prize)
    sol = matrix_game.solve_lp(grid)
    row, col = a.index(card_a), b.index(card_b)
    choice = len(a) > 1
    bids = (
        _bid(setting, round_no, "A", names[0], card_a, bid_cost.row_cost(grid, sol, row),
             sol.row_mix[row], choice),
        _bid(setting, round_no, "B", names[1], card_b, bid_cost.col_cost(grid, sol, col),
             sol.col_mix[col], choice))
    return RoundReview(round_no, prize, a, b, tuple(sorted(left)), pool, lead, value,
                       sol.value, sol.row_mix, sol.col_mix, bids)


def _bid(setting: Setting, round_no: int, seat: str, player: str, card: int, cost: float,
         probability: float, choice: bool) -> BidReview:
    return BidReview(round_no, seat, player, card, cost, accuracy(setting, cost),
                     probability, choice)


def loss_percent(setting: Setting, cost: float) -> float:
    """A cost as a percentage loss (see the module's docstring)."""
    if setting.objective is Objective.WIN:
        return 50.0 * cost
    return 100.0 * cost / (setting.cards * (setting.cards + 1) / 2)


def accuracy(setting: Setting, cost: float) -> float:
    """lichess's move accuracy of a bid costing ``cost``: 100 for a free bid."""
    if cost <= 0:
        return 100.0  # the formula gives 99.9999 at 0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss_percent(setting, cost)) \
        - 3.166924740191411
    return min(100.0, max(0.0, raw))


def review_games(reports: Iterable[GameReport], objective: Objective = Objective.POINTS,
                 rounds: int | None = None, store: Tablebase | None = None
                 ) -> list[GameReview | ReviewUnsupported]:
    """Review each game; a game that cannot be reviewed gives its :class:`ReviewUnsupported`
    in its place (the others go on). Values solved are saved to ``store`` at the end."""
    out: list[GameReview | ReviewUnsupported] = []
    for report in reports:
        try:
            out.append(review_game(report, objective, rounds, store))
        except ReviewUnsupported as exc:
            out.append(exc)
    if store is not None:
        store.save()
    return out


@dataclass(frozen=True)
class PlayerEvening:
    """A player's bids of choice in the analysed rounds of one evening: their mean cost,
    how many, and a 95% interval of the mean (normal approximation, mean +- 1.96
    standard errors; None under 2 bids)."""

    player: str
    date: str
    games: int
    bids: int
    mean_cost: float
    low: float | None
    high: float | None


def player_evenings(reviews: Sequence[GameReview], player: str) -> list[PlayerEvening]:
    """``player``'s mean cost per bid of choice, per evening (the ``Date`` tag), in date
    order."""
    by_date: dict[str, tuple[set[int], list[float]]] = {}
    for index, review in enumerate(reviews):
        for bid in review.bids:
            if bid.player == player and bid.choice:
                games, costs = by_date.setdefault(review.date or "?", (set(), []))
                games.add(index)
                costs.append(bid.cost)
    return [evening(player, date, len(games), costs)
            for date, (games, costs) in sorted(by_date.items())]


def evening(player: str, date: str, games: int, costs: Sequence[float]) -> PlayerEvening:
    """One evening's :class:`PlayerEvening` from its bids' costs."""
    n = len(costs)
    mean = sum(costs) / n
    if n < 2:
        return PlayerEvening(player, date, games, n, mean, None, None)
    sd = math.sqrt(sum((c - mean) ** 2 for c in costs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return PlayerEvening(player, date, games, n, mean, mean - half, mean + half)


def default_store(db: Path) -> Tablebase:
    """The process's tablebase beside the database ``db``."""
    from gops_records.games.gops.theory.tablebase import beside

    return tablebase(beside(db))
