"""The counter-strategy: a best reply to the opponent model, and what it gains per game.

In each round the counter plans the rest of the game: it scores every pairing of one of
its cards with one of the prizes still to be won (this one included) by the expected
margin it brings against the model's bid distribution for that prize, given the cards the
opponent holds now (win: +pool, lose: -pool, tie: 0), finds the pairing of all its cards
with all those prizes that maximises the total (the assignment problem, solved exactly by
the Hungarian method, for every game of a batch at once), and plays the card the plan
gives this round's prize. Against a uniformly random opponent that plan is "bid the card
ranked as the prize ranks", which is bidding the prize, the known best reply.

Its worth is measured, not assumed: :func:`counter_strategy` plays many two-player games
(:mod:`gops_records.games.gops.scouting.play`) against a bot that bids by sampling the model, with
three replies on the same prize orders and the same draws of the model: the counter, the
**generic strategy** (:data:`GENERIC`: bid the prize, the same for every opponent) and a
uniformly random card. The gain from exploiting this player is the counter's gain minus
the generic strategy's. How much that gain depends on the games the model was fitted on
is measured too: each cross-validation model's counter (the model fitted without one fold
of games) plays against a model of that fold's games alone, so the interval says what a
counter made from some games gains in games it never saw (cross-fitted; without the
held-out models, the folds' models are played themselves: a grouped-jackknife interval).
"""

from __future__ import annotations

import math

import numpy as np

from gops_records.core.stats import t95
from gops_records.games.gops.cards import MAX_RANK
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.scouting.defaults import DEFAULT_GAMES
from gops_records.games.gops.scouting.model import (
    Board,
    ModelStack,
    OpponentModel,
    encode,
    key_groups,
)
from gops_records.games.gops.scouting.play import (
    Reply,
    Table,
    bid_the_prize,
    play,
    prize_piles,
    random_card,
)
from gops_records.games.gops.scouting.results import CounterStrategy, Gain

#: Games each cross-validation model is played, per reply, to measure how much the
#: exploit moves with the games the model saw.
JACKKNIFE_GAMES = 100
#: How the models behind the exploit's interval were made (``CounterStrategy.interval``):
#: the folds' models as the opponent (jackknife), or each fold's counter played against a
#: model of the games it never saw (cross-fitted: what `gops scout` reports).
JACKKNIFE, CROSS_FIT = "jackknife", "cross-fitted"
KINDS = ("its lowest card", "exactly the prize", "the prize plus 1", "the prize plus 2",
         "the prize minus 1", "the prize minus 2", "its highest card", "well above the prize",
         "well below the prize")


# -- the plan ---------------------------------------------------------------------------------


def margin_tables(models: ModelStack, model: np.ndarray, table: Table, rows: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counter's planning tables for the games ``rows`` (seat A plans against seat B).

    Returns ``gain`` (games, h, h): the expected margin of bidding its i-th card (ascending)
    on the j-th prize left (ascending, this round's prize included); ``cards`` (games, h),
    its cards; and ``current`` (games,), the column of this round's prize. The model is
    asked about each prize as if it were on offer now, with the cards the opponent holds
    now (the pool is the prize itself for prizes still to come).
    """
    count = len(rows)
    n = table.profile.cards
    prize, pool = table.prize[rows], table.pool_value[rows]
    left = table.upcoming[rows].copy()
    left[np.arange(count), prize - 1] = True
    h = int(left[0].sum()) if count else 0
    prizes = np.nonzero(left)[1].reshape(count, h) + 1
    current = np.argmax(prizes == prize[:, None], axis=1)
    values = np.where(np.arange(h)[None, :] == current[:, None], pool[:, None], prizes)
    opponent = np.repeat(table.hands[rows, 1], h, axis=0)
    board = Board(opponent, prizes.ravel(), values.ravel(), np.full(count * h, n),
                  np.tile(np.arange(h), count), np.full(count * h, h))
    probs = models.predict(encode(board, fitting=False), np.repeat(model, h))
    cum = np.cumsum(probs, axis=1)
    cards = np.nonzero(table.hands[rows, 0])[1].reshape(count, h) + 1
    # at[g, j, i]: where card i of game g sits in the flat probabilities of prize j
    start = np.arange(0, count * h * MAX_RANK, MAX_RANK).reshape(count, h, 1)
    at = start + cards[:, None, :] - 1
    tie = probs.take(at)
    below = np.where(cards[:, None, :] >= 2, cum.take(at - 1), 0.0)
    above = cum[:, MAX_RANK - 1].reshape(count, h, 1) - below - tie
    margin = values[:, :, None] * (below - above)          # (games, prize j, card i)
    return margin.transpose(0, 2, 1), cards, current


def assign_max(gain: np.ndarray | list) -> np.ndarray:
    """For each row the column it gets in a maximum-total assignment (-1: none).

    ``gain`` is one (n, m) table or a batch (B, n, m) of them, solved together: the
    Hungarian method (shortest augmenting paths with potentials, O(n^2 m)), each step
    done for every table of the batch at once, started from the row reduction. A
    wider-than-tall table is transposed.

    Each row's search works on the state of the tables that search (gathered once, and
    again when fewer than half are still searching), and a table that has found its free
    column is written back; tables that found it go on computing in the gathered arrays
    (ignored) until the next gathering, which costs less than gathering at every step.
    Every table sees exactly the steps of the textbook algorithm, ties broken the same
    way (the lowest column first).
    """
    g = np.asarray(gain, dtype=float)
    single = g.ndim == 2
    if single:
        g = g[None]
    batch, n, m = g.shape
    if n > m:
        cols = assign_max(g.transpose(0, 2, 1))
        out = np.full((batch, n), -1, dtype=np.int64)
        b, j = np.nonzero(cols >= 0)
        out[b, cols[b, j]] = j
        return out[0] if single else out
    cost = -g
    # Start from the row reduction: u_i = min_j cost_ij, v = 0 (feasible), and match each
    # row to its cheapest column where no earlier row took it (a tight edge); only the
    # rows left free need a search for an augmenting path.
    u = np.zeros((batch, n + 1))
    u[:, 1:] = cost.min(axis=2)
    v = np.zeros((batch, m))                       # v of columns 1..m (column 0's: unread)
    p = np.zeros((batch, m + 1), dtype=np.int64)   # p[:, j]: the row matched to column j
    way = np.zeros((batch, m), dtype=np.int64)     # way of columns 1..m
    best = np.argmin(cost, axis=2)
    key = (np.arange(batch)[:, None] * m + best).ravel()
    first = np.zeros(batch * n, dtype=bool)
    first[np.unique(key, return_index=True)[1]] = True
    first = first.reshape(batch, n)
    b, i = np.nonzero(first)
    p[b, best[b, i] + 1] = i + 1
    inf = np.inf
    flat_cost = cost.reshape(batch * n, m)                   # row (table, i) -> its costs
    with np.errstate(invalid="ignore"):  # the ignored tables may reach inf - inf
        for i in range(1, n + 1):
            tables = np.flatnonzero(~first[:, i - 1])
            if not len(tables):
                continue
            p[tables, 0] = i
            end = np.zeros(batch, dtype=np.int64)     # the free column each table reaches
            # the searching tables' state, gathered; ``ids`` maps it back to the batch (the
            # column arrays but p hold columns 1..m only: nothing reads the dummy column's)
            ids = tables
            cu, cv, cp, cw = u[ids], v[ids], p[ids], way[ids]
            k = len(ids)
            j0 = np.zeros(k, dtype=np.int64)       # the column last added to the tree
            i0 = np.full(k, i, dtype=np.int64)     # its row: first, the row being inserted
            minv = np.full((k, m), inf)
            used = np.zeros((k, m), dtype=bool)
            tree = np.zeros((k, n + 1), dtype=bool)      # the rows reached: p[c], c used
            live = np.ones(k, dtype=bool)
            count = k
            # flat indices: row r of a (k, w) array starts at r * w
            cols, col0, row0, cost0 = (np.arange(k) * m, np.arange(k) * (m + 1),
                                       np.arange(k) * (n + 1), ids * n - 1)
            while count:
                at_row = row0 + i0
                tree.ravel()[at_row] = True
                cur = (flat_cost.take(cost0 + i0, axis=0)
                       - cu.ravel().take(at_row)[:, None] - cv)
                better = (cur < minv) & ~used
                np.copyto(minv, cur, where=better)
                np.copyto(cw, j0[:, None], where=better)
                j1 = np.argmin(minv, axis=1)
                delta = minv.ravel().take(cols + j1)[:, None]
                # u of the rows in the tree up, v of the used columns down, by delta: the
                # textbook's values (x + d is x - (-d), x - 0 is x, and x + 0 is x but for
                # the sign of a zero, which no comparison reads)
                cu += tree * delta
                cv -= used * delta
                minv -= delta
                j0 = j1 + 1
                done = live & (cp.ravel().take(col0 + j0) == 0)
                if done.any():
                    at = np.flatnonzero(done)
                    back = ids[at]
                    # (p is only read in the search: nothing of it to write back)
                    u[back], v[back], way[back] = cu[at], cv[at], cw[at]
                    end[back] = j0[at]
                    live &= ~done
                    count -= len(at)
                    if count and 2 * count < len(ids):
                        keep = np.flatnonzero(live)
                        ids = ids[keep]
                        cu, cv, cp, cw = cu[keep], cv[keep], cp[keep], cw[keep]
                        j0, minv, used, tree = j0[keep], minv[keep], used[keep], tree[keep]
                        live = np.ones(len(keep), dtype=bool)
                        k = len(keep)
                        cols, col0, row0, cost0 = (np.arange(k) * m, np.arange(k) * (m + 1),
                                                   np.arange(k) * (n + 1), ids * n - 1)
                # the column reached joins the tree: used, its minv never read again (inf
                # there lets the free columns' minimum be taken over the whole row)
                at_col = cols + j0 - 1
                used.ravel()[at_col] = True
                minv.ravel()[at_col] = inf
                i0 = cp.ravel().take(col0 + j0)
            going = tables
            j0 = end[going]
            while len(going):
                j1 = way[going, j0 - 1]
                p[going, j0] = p[going, j1]
                j0 = j1
                keep = j1 != 0
                going, j0 = going[keep], j0[keep]
    out = np.full((batch, n), -1, dtype=np.int64)
    b, j = np.nonzero(p[:, 1:])
    out[b, p[b, j + 1] - 1] = j
    return out[0] if single else out


def kinds(cards: np.ndarray, prize: np.ndarray, lowest: np.ndarray, highest: np.ndarray,
          hand_size: np.ndarray) -> np.ndarray:
    """The counter's bids in words, as indices into :data:`KINDS` (the first that fits)."""
    d = cards - prize
    return np.select(
        [(hand_size > 1) & (cards == lowest) & (d < 0), d == 0, d == 1, d == 2, d == -1,
         d == -2, cards == highest, d > 0], np.arange(8), default=8)


class CounterBidder:
    """Seat A's bids as the counter plays them, against the model each game has; it tallies
    what it bid (a :data:`KINDS` count per game group) for the description."""

    def __init__(self, models: ModelStack, model_of_game: np.ndarray):
        self.models, self.model_of_game = models, model_of_game
        self.tally = np.zeros((len(models), len(KINDS)), dtype=np.int64)

    def __call__(self, table: Table, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        hand = table.hands[rows, 0]
        size = hand.sum(axis=1)
        if int(size[0]) == 1:
            choice = np.argmax(hand, axis=1) + 1
        else:
            # games in the same situation against the same model plan alike: plan each
            # situation once (in the first round most games are in one of 13 per model)
            hands = _masks(table.hands[rows])
            first, same = same_rows([self.model_of_game[rows], table.prize[rows],
                                     table.pool_value[rows], hands[:, 0], hands[:, 1],
                                     _masks(table.upcoming[rows])])
            once = rows[first]
            gain, cards, current = margin_tables(self.models, self.model_of_game[once],
                                                 table, once)
            plan = assign_max(gain)
            planned = cards[np.arange(len(once)), np.argmax(plan == current[:, None], axis=1)]
            choice = planned[same.reshape(-1)]
        lowest = np.argmax(hand, axis=1) + 1
        highest = MAX_RANK - np.argmax(hand[:, ::-1], axis=1)
        kind = kinds(choice, table.prize[rows], lowest, highest, size)
        np.add.at(self.tally, (self.model_of_game[rows], kind), 1)
        return choice


def _masks(cards: np.ndarray) -> np.ndarray:
    """Card masks (..., 13) as integers (bit r - 1 = card r)."""
    packed = np.packbits(cards, axis=-1, bitorder="little")        # (..., 2) bytes
    return packed.view("<u2")[..., 0].astype(np.int64)


def same_rows(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rows equal in every column (non-negative integers), grouped as np.unique(axis=0)
    groups them (:func:`~gops_records.games.gops.scouting.model.key_groups`: one row of each group,
    each row's group) through one integer key: the columns in mixed radix, the key ranked
    down first should the next column overflow it."""
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        width = int(column.max()) + 1 if len(column) else 1
        if (int(key.max()) + 1 if len(key) else 1) * width >= 1 << 62:
            key = np.unique(key, return_inverse=True)[1].reshape(-1)
        key = key * width + column
    return key_groups(key)


def best_reply(model: OpponentModel, prize: int, pool_value: int, hand: list[int],
               opponent: list[int], upcoming: list[int], cards: int = 13) -> int:
    """The card the counter bids in one situation (two players): a batch of one."""
    mine = np.zeros((1, 2, MAX_RANK), dtype=bool)
    mine[0, 0, np.asarray(hand) - 1] = True
    mine[0, 1, np.asarray(opponent) - 1] = True
    ahead = np.zeros((1, MAX_RANK), dtype=bool)
    ahead[0, np.asarray(upcoming, dtype=np.int64) - 1] = True
    table = Table(RuleProfile(cards=cards), cards - len(hand) + 1, np.array([prize]),
                  np.array([pool_value]), mine, ahead)
    bidder = CounterBidder(ModelStack.of([model]), np.zeros(1, dtype=np.int64))
    return int(bidder(table, np.arange(1), np.random.default_rng(0))[0])


# -- the measurement --------------------------------------------------------------------------


def counter_strategy(model: OpponentModel, profile: RuleProfile, games: int = DEFAULT_GAMES,
                     seed: int = 0, fold_models: list[OpponentModel] | None = None,
                     fold_games: int = JACKKNIFE_GAMES, *,
                     held_out_models: list[OpponentModel] | None = None) -> CounterStrategy:
    """Measure the counter, the generic strategy and a random reply against ``model``.

    All three face the same ``games`` prize orders and the same draws of the model (the
    same seed). With ``fold_models`` (models fitted each without one fold of games), the
    counter and the generic strategy also play ``fold_games`` games for each fold, and
    the spread of their exploits gives the exploit's interval:

    - with ``held_out_models`` (``held_out_models[f]`` fitted on fold ``f``'s games
      only), cross-fitted: the counter planned against fold model ``f`` plays against
      held-out model ``f``, and so does the generic strategy: what a counter made from
      some games gains against the player in games it never saw (issue 24);
    - without, the grouped jackknife: the counter is planned and played against each
      fold model.
    """
    if profile.players != 2:
        profile = RuleProfile(profile.cards, 2, profile.tie_rule, profile.prize_order)
    folds = list(fold_models or [])
    tests = list(held_out_models or [])
    if tests and len(tests) != len(folds):
        raise ValueError(f"{len(tests)} held-out models for {len(folds)} fold models")
    interval = CROSS_FIT if tests else JACKKNIFE
    rng = np.random.default_rng(seed)
    n = profile.cards
    extra = min(fold_games, games) if len(folds) >= 2 else 0
    prizes = prize_piles(profile, games, rng)
    draws = rng.random((games, n))
    # (reply, the model the counter plans against, the model seat B bids by, prize
    # orders, seat B's draws): the counter and the generic strategy of one fold face the
    # same prizes and draws (paired); cross-fitted, each fold has prizes and draws of its
    # own, so the folds' spread holds their simulation error too
    groups = [(Reply.COUNTER, 0, 0, prizes, draws), (Reply.GENERIC, 0, 0, prizes, draws),
              (Reply.RANDOM, 0, 0, prizes, draws)]
    n_folds = len(folds) if extra else 0
    for i in range(n_folds):
        if interval == CROSS_FIT:  # against held-out model i, 1 + k + i in the stack
            against, fold_prizes = 1 + len(folds) + i, prize_piles(profile, extra, rng)
            fold_draws = rng.random((extra, n))
        else:  # the jackknife: against fold model i itself, on the first games' draws
            against, fold_prizes, fold_draws = 1 + i, prizes[:extra], draws[:extra]
        groups += [(Reply.COUNTER, 1 + i, against, fold_prizes, fold_draws),
                   (Reply.GENERIC, 0, against, fold_prizes, fold_draws)]
    sizes = [len(g[3]) for g in groups]
    reply_of_game = np.repeat([g[0] for g in groups], sizes)
    plan_of_game = np.repeat([g[1] for g in groups], sizes)
    model_of_game = np.repeat([g[2] for g in groups], sizes)
    stack = ModelStack.of([model, *folds, *tests] if extra else [model])
    counter = CounterBidder(stack, plan_of_game)
    bidders = {Reply.COUNTER: counter, Reply.GENERIC: bid_the_prize,
               Reply.RANDOM: lambda t, rows, g: random_card(t.hands[rows, 0], g.random(len(rows)))}
    done = play(profile, stack, model_of_game, reply_of_game, bidders,
                np.concatenate([g[3] for g in groups]), np.concatenate([g[4] for g in groups]),
                rng)
    margins = done.margin
    starts = np.cumsum([0, *sizes])
    part = [margins[a:b] for a, b in zip(starts[:-1], starts[1:], strict=True)]
    mine, generic, random_ = part[0], part[1], part[2]
    exploit = Gain.of(mine - generic)
    fold_exploits = tuple(float((part[3 + 2 * i] - part[4 + 2 * i]).mean())
                          for i in range(n_folds))
    total = counter.tally[0].sum()
    played = ({KINDS[k]: counter.tally[0, k] / total
               for k in np.argsort(-counter.tally[0], kind="stable") if counter.tally[0, k]}
              if total else {})
    ci = _exploit_interval(exploit, fold_exploits, interval)
    return CounterStrategy(_describe(played), Gain.of(mine), Gain.of(random_), profile,
                           played, Gain.of(generic), exploit, ci, fold_exploits,
                           interval if ci is not None else None)


def _exploit_interval(exploit: Gain, fold_exploits: tuple[float, ...],
                      interval: str = JACKKNIFE) -> tuple[float, float] | None:
    """The exploit's 95% interval from the k folds' exploits.

    Grouped jackknife (each fold's counter planned and played against the fold's model):
    centred on the exploit, the spread's variance (k - 1) / k times the sum of squared
    deviations of the folds' exploits, its t(k - 1) half-width added in quadrature to 1.96
    simulation standard errors of the exploit.

    Cross-fitted (issue 24; each fold's counter played against a model of the fold's
    games it never saw): centred on the folds' mean, not on the exploit against the model
    the counter was planned on, which is optimistic (a counter planned on a model's noise
    gains on that noise in the model's own games, never against the player); the
    half-width t(k - 1) times their standard error (standard deviation over the square
    root of k), which holds both how much the model moves with the games it saw and the
    simulation error of their games.
    """
    k = len(fold_exploits)
    if k < 2:
        return None
    values = np.asarray(fold_exploits)
    squares = float(((values - values.mean()) ** 2).sum())
    if interval == JACKKNIFE:
        centre = exploit.mean
        half = math.hypot(t95(k - 1) * math.sqrt((k - 1) / k * squares),
                          1.96 * exploit.stderr)
    else:
        centre = float(values.mean())
        half = t95(k - 1) * math.sqrt(squares / (k - 1) / k)
    return centre - half, centre + half


def _describe(played: dict[str, float]) -> str:
    top = [f"{kind} ({share:.0%} of rounds)" for kind, share in list(played.items())[:3]
           if share >= 0.05]
    mostly = f" Against this player that mostly means bidding {', then '.join(top)}." if top \
        else ""
    return ("Each round, pair your cards with the prizes left so as to maximise the expected "
            "margin against their predicted bids, and play the card paired with this prize."
            + mostly)
