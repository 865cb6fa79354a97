"""Two-player games against opponent models, thousands at once (numpy), for the counter's worth.

Every game of a batch is played in lockstep, round by round: in each round seat B (the
scouted player, as a model) and seat A (a reply: the counter-strategy, the generic
strategy or a uniformly random card) bid for all games at once. Each game has its own
model of seat B (an index into a :class:`~gops_records.games.gops.scouting.model.ModelStack`) and
its own reply.

Nothing here restates a rule: the rounds are scored by
:func:`gops_records.games.gops.replay.engine.play_rounds`, the vectorised rules the replay uses
(the value a round's pool carries in depends only on the rounds before it, so the rounds
so far are scored again each round to know the pool on offer). The readable
:class:`gops_records.games.gops.rules.Game` is the reference:
``tests/games/gops/scouting/test_scout_play.py`` replays simulated games through it and
finds the same rounds, pools and points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.replay.engine import play_rounds
from gops_records.games.gops.rules import PrizeOrder, RuleProfile, TieRule
from gops_records.games.gops.scouting.model import Board, ModelStack, encode


class Reply(IntEnum):
    """What seat A plays in a simulated game."""

    COUNTER = 0   #: the best reply to seat B's model (gops_records.games.gops.scouting.counter)
    GENERIC = 1   #: the generic strategy: bid the prize (see docs/scouting.md)
    RANDOM = 2    #: a card drawn uniformly from the hand


@dataclass(frozen=True)
class Table:
    """What a bidder sees in one round of every game of the batch (two players).

    ``hands`` is (games, 2, 13): seat A's and seat B's cards still held (column r - 1 =
    card r); ``upcoming`` the prizes still to come after this one; ``pool_value`` this
    round's pool (the prize and any carried value).
    """

    profile: RuleProfile
    round_no: int
    prize: np.ndarray
    pool_value: np.ndarray
    hands: np.ndarray
    upcoming: np.ndarray

    def board(self, seat: int, rows: np.ndarray | None = None) -> Board:
        """The model's view of this round for ``seat`` (in games ``rows``, default all)."""
        pick = slice(None) if rows is None else rows
        upcoming, prize = self.upcoming[pick], self.prize[pick]
        below = np.arange(1, MAX_RANK + 1)[None, :] < prize[:, None]
        n = len(prize)
        return Board(self.hands[pick, seat], prize, self.pool_value[pick],
                     np.full(n, self.profile.cards), (upcoming & below).sum(axis=1),
                     upcoming.sum(axis=1) + 1)


#: A reply's bids for the games ``rows`` of a table: (table, rows, rng) -> cards.
Bidder = Callable[[Table, np.ndarray, np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class Played:
    """A batch of simulated games: per game and round the prize, both bids, the pool on
    offer and the winner (0 = seat A, 1 = seat B, -1 on a tie); per game the points."""

    prizes: np.ndarray      # (games, N)
    bids: np.ndarray        # (games, N, 2)
    pool_value: np.ndarray  # (games, N)
    winner: np.ndarray      # (games, N)
    scores: np.ndarray      # (games, 2)
    unclaimed: np.ndarray   # (games,)

    @property
    def margin(self) -> np.ndarray:
        """Seat A's points minus seat B's, per game."""
        return self.scores[:, 0] - self.scores[:, 1]


def prize_piles(profile: RuleProfile, games: int, rng: np.random.Generator) -> np.ndarray:
    """(games, N) reveal orders: shuffled with ``rng``, or the fixed order the profile says."""
    n = profile.cards
    if profile.prize_order is PrizeOrder.ASCENDING:
        return np.tile(np.arange(1, n + 1), (games, 1))
    if profile.prize_order is PrizeOrder.DESCENDING:
        return np.tile(np.arange(n, 0, -1), (games, 1))
    return rng.permuted(np.tile(np.arange(1, n + 1), (games, 1)), axis=1)


def sample(probs: np.ndarray, u: np.ndarray) -> np.ndarray:
    """One card per row drawn from (n, 13) card probabilities with uniforms ``u``
    (inverse of the cumulative distribution)."""
    cum = np.cumsum(probs, axis=1)
    pick = (cum < (u * cum[:, -1])[:, None]).sum(axis=1)
    return np.minimum(pick, MAX_RANK - 1) + 1


def random_card(hand: np.ndarray, u: np.ndarray) -> np.ndarray:
    """A card drawn uniformly from each (n, 13) hand mask."""
    return sample(hand.astype(float), u)


def bid_the_prize(table: Table, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The generic strategy: bid the card equal to the prize (with one suit each, always held)."""
    return table.prize[rows]


def play(profile: RuleProfile, models: ModelStack, model_of_game: np.ndarray,
         reply_of_game: np.ndarray, bidders: dict[Reply, Bidder], prizes: np.ndarray,
         draws: np.ndarray, rng: np.random.Generator) -> Played:
    """Play ``len(model_of_game)`` two-player games under ``profile``.

    Seat B bids by sampling its model (``models`` row ``model_of_game[g]``) with the
    uniform ``draws[g, round]`` (games given the same draws and the same situation bid the
    same: paired comparisons); seat A bids as ``bidders[reply_of_game[g]]`` says.
    ``prizes`` (games, N) are the reveal orders. ``rng`` is handed to the bidders.
    """
    n = profile.cards
    games = len(model_of_game)
    if prizes.shape != (games, n) or draws.shape != (games, n):
        raise ValueError(f"prizes and draws must be ({games}, {n}), not {prizes.shape} "
                         f"and {draws.shape}")
    every = np.arange(games)
    hands = np.zeros((games, 2, MAX_RANK), dtype=bool)
    hands[:, :, :n] = True
    revealed = np.zeros((games, MAX_RANK), dtype=bool)
    bids = np.zeros((games, n, 2), dtype=np.int64)
    pools = np.zeros((games, n), dtype=np.int64)
    discard = profile.tie_rule is TieRule.DISCARD
    groups = {reply: every[reply_of_game == reply] for reply in Reply}
    for r in range(n):
        prize = prizes[:, r]
        revealed[every, prize - 1] = True
        upcoming = ~revealed
        upcoming[:, n:] = False
        pools[:, r] = _carried_into(bids, prizes, r, discard) + prize
        table = Table(profile, r + 1, prize, pools[:, r], hands, upcoming)
        seen = encode(table.board(1), fitting=False)
        theirs = sample(models.predict(seen, model_of_game), draws[:, r])
        mine = np.zeros(games, dtype=np.int64)
        for reply, rows in groups.items():
            if len(rows):
                mine[rows] = bidders[reply](table, rows, rng)
        bids[:, r, 0], bids[:, r, 1] = mine, theirs
        hands[every, 0, mine - 1] = False
        hands[every, 1, theirs - 1] = False
    done = _score(bids, prizes, n, discard)
    winner = done.winner.reshape(games, n)
    return Played(prizes, bids, pools, winner, done.scores[:, :2], done.unclaimed)


def _score(bids: np.ndarray, prizes: np.ndarray, rounds: int, discard: bool):
    """The engine's play of the first ``rounds`` rounds of every game (game-major order)."""
    games, n = prizes.shape
    game = np.repeat(np.arange(games), rounds)
    round_no = np.tile(np.arange(1, rounds + 1), games)
    flat_bids = np.full((games * rounds, 4), -1, dtype=np.int64)
    flat_bids[:, :2] = bids[:, :rounds].reshape(-1, 2)
    return play_rounds(game, round_no, np.full(games * rounds, n),
                       np.full(games * rounds, discard), prizes[:, :rounds].ravel(),
                       flat_bids, games)


def _carried_into(bids: np.ndarray, prizes: np.ndarray, r: int, discard: bool) -> np.ndarray:
    """The value carried into round ``r`` (0-based) of every game: the engine plays rounds
    0..r (round r's bids are not known yet and do not matter to what it carries in)."""
    if r == 0:
        return np.zeros(len(prizes), dtype=np.int64)
    done = _score(bids, prizes, r + 1, discard)
    return done.carried_in.reshape(len(prizes), r + 1)[:, r]
