"""Situations: one row per recorded bid of a player, with what the table looked like.

:func:`situation_frame` builds them in DuckDB with window functions over the ``rounds``
and ``bids`` tables (cards already spent, prizes already revealed, running scores);
:class:`Situations` holds the same rows as numpy arrays (a hand is a row of 13 booleans)
so the model, the evaluation and the habits work on whole columns at once.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass

import duckdb
import numpy as np
import polars as pl

from gops_records.core.errors import GopsError
from gops_records.core.store.db import scalar
from gops_records.games.gops.cards import MAX_RANK

#: At most this many of a player's games (the most recent) are studied, so a scout stays fast
#: however much history the database holds.
MAX_GAMES = 5000


class ScoutError(GopsError):
    """The player cannot be scouted (unknown name, or too few recorded games)."""

    code = "scout"


#: Games of the classic rules only: one card a bid and one prize a round. A bid of the
#: multi-card variant is a sum of cards and an open-prize round has no single prize, so
#: the situations, the model and the counter-strategy would misread them (docs/scouting.md).
CLASSIC = "g.bid_cards = 1 AND g.open_prizes IS NULL"

#: The player's games (the ``max_games`` most recent classic ones, numbered 0.. in the
#: order the situations come in: oldest first) and their rounds as stored, one row each,
#: with no window: the running masks and scores are summed in numpy
#: (:func:`_situation_columns`). The same windows in DuckDB cost 0.4 s for a 5,000-game
#: player at 1,000,000 games, many times what the rounds cost to fetch.
_SQL = f"""
WITH mine AS (
    SELECT gp.game_id, min(gp.seat) AS my_seat
    FROM game_players gp
    WHERE gp.player = $player
      AND ($vs IS NULL OR gp.game_id IN (SELECT game_id FROM game_players
                                         WHERE player = $vs AND player <> $player))
    GROUP BY gp.game_id
),
joined AS MATERIALIZED (
    SELECT g.game_id, g.cards, g.tie_rule, g.n_players, g.prize_order, g.date, mine.my_seat,
           {CLASSIC} AS classic
    FROM mine JOIN games g ON mine.game_id = g.game_id
),
numbered AS (
    SELECT * EXCLUDE (classic),
           (row_number() OVER (ORDER BY date NULLS FIRST, game_id) - 1)::INTEGER AS game_no,
           (SELECT count(*) FILTER (WHERE NOT classic) FROM joined) AS variant_games
    FROM (SELECT * FROM joined WHERE classic
          ORDER BY date DESC NULLS LAST, game_id LIMIT $max_games)
)
SELECT n.game_no, n.variant_games, n.game_id, n.date, n.my_seat AS seat,
       (ascii(n.my_seat) - 65)::TINYINT AS seat_no, n.cards, n.tie_rule,
       n.n_players, n.prize_order, r.round_no, r.prize, r.pool_value, r.carried_in,
       coalesce(ascii(r.winner_seat) - 65, -1)::TINYINT AS winner,
       r.bid_a, r.bid_b, r.bid_c, r.bid_d
FROM rounds r JOIN numbered n USING (game_id)
"""

#: The columns of :func:`situation_masks`, in order, and their types.
_MASK_COLUMNS = {"game_id": pl.UInt64, "date": pl.Date, "round_no": pl.Int8, "seat": pl.String,
                 "cards": pl.Int8, "tie_rule": pl.String, "n_players": pl.Int8,
                 "prize_order": pl.String, "prize": pl.Int8, "pool_value": pl.Int16,
                 "carried_in": pl.Int16, "bid": pl.Int8, "hand_mask": pl.Int16,
                 "upcoming_mask": pl.Int16, "opp_1": pl.Int16, "opp_2": pl.Int16,
                 "opp_3": pl.Int16, "score_diff": pl.Int32}
_SEATS = "ABCD"


def _situation_columns(rounds: pl.DataFrame) -> dict[str, np.ndarray]:
    """The masks and the score difference of every round of ``rounds`` (sorted by game_no,
    round_no): what each seat had spent and scored before the round, and the prizes
    revealed up to it, accumulated along each game's rounds (bit r = card r)."""
    game = rounds["game_no"].to_numpy().astype(np.int64)
    round_no = rounds["round_no"].to_numpy().astype(np.int64)
    games = int(game.max()) + 1 if len(game) else 0
    width = int(round_no.max()) if len(game) else 1
    at = game * width + round_no - 1

    def grid(values: np.ndarray) -> np.ndarray:
        out = np.zeros(games * width, dtype=np.int64)
        out[at] = values
        return out.reshape(games, width)

    def before(acc: np.ndarray) -> np.ndarray:
        out = np.zeros_like(acc)
        out[:, 1:] = acc[:, :-1]
        return out.reshape(-1)[at]

    def bits(column: str) -> np.ndarray:
        values = rounds[column].fill_null(0).to_numpy().astype(np.int64)
        return np.where(rounds[column].is_not_null().to_numpy(), np.left_shift(1, values), 0)

    winner = rounds["winner"].to_numpy().astype(np.int64)
    pool = rounds["pool_value"].to_numpy().astype(np.int64)
    spent = [before(np.bitwise_or.accumulate(grid(bits(f"bid_{c.lower()}")), axis=1))
             for c in _SEATS]
    score = [before(np.cumsum(grid(np.where(winner == i, pool, 0)), axis=1))
             for i in range(len(_SEATS))]
    revealed = np.bitwise_or.accumulate(grid(bits("prize")), axis=1).reshape(-1)[at]
    seat = rounds["seat_no"].to_numpy().astype(np.int64)   # 0 = A .. 3 = D
    cards = rounds["cards"].to_numpy().astype(np.int64)
    n_players = rounds["n_players"].to_numpy().astype(np.int64)
    deck = np.left_shift(np.left_shift(1, cards) - 1, 1)
    rows = np.arange(len(game))
    spent_of = np.stack(spent, axis=1)        # (rows, seats)
    score_of = np.stack(score, axis=1)
    # the other seats in seat order: A..D without one's own (as many as the game has)
    others = np.array([[o for o in range(4) if o != mine] for mine in range(4)])[seat]
    opp = [deck & ~spent_of[rows, others[:, k]] for k in range(3)]
    opp_valid = [np.ones(len(rows), dtype=bool), n_players >= 3, n_players >= 4]
    rival = np.arange(4)[None, :]
    in_game = (rival != seat[:, None]) & (rival < np.maximum(n_players, 2)[:, None])
    best = np.where(in_game, score_of, np.iinfo(np.int64).min).max(axis=1)
    bids = np.stack([rounds[f"bid_{c.lower()}"].fill_null(0).to_numpy().astype(np.int64)
                     for c in _SEATS], axis=1)
    return {
        "bid": bids[rows, seat],
        "hand_mask": deck & ~spent_of[rows, seat],
        "upcoming_mask": deck & ~revealed,
        **{f"opp_{k + 1}": np.where(opp_valid[k], opp[k], -1) for k in range(3)},
        "score_diff": score_of[rows, seat] - best,
    }


#: The readable columns made from the masks (cards as lists, the two relative ranks).
_READABLE = """
SELECT * EXCLUDE (opp_1, opp_2, opp_3),
       list_filter(range(1, cards + 1), lambda x: (hand_mask >> x) & 1 = 1)::TINYINT[]
           AS hand,
       list_transform(list_filter([opp_1, opp_2, opp_3], lambda m: m IS NOT NULL),
                      lambda m: list_filter(
           range(1, cards + 1), lambda x: (m >> x) & 1 = 1))::TINYINT[][]
           AS opp_hands,
       list_filter(range(1, cards + 1),
                   lambda x: (upcoming_mask >> x) & 1 = 1)::TINYINT[] AS upcoming,
       -- 0 = its lowest card, 1 = its highest
       CASE WHEN bit_count(hand_mask) > 1
            THEN bit_count(hand_mask & ((1::INTEGER << bid) - 1))
                 / (bit_count(hand_mask) - 1) END AS bid_rank,
       -- 0 = the lowest of the prizes still to be won (this one included), 1 = the highest
       CASE WHEN upcoming_mask > 0
            THEN bit_count(upcoming_mask & ((1::INTEGER << prize) - 1))
                 / bit_count(upcoming_mask) END AS prize_rank,
       opp_1, opp_2, opp_3
FROM masks
"""


@dataclass(frozen=True)
class Studied:
    """The games :func:`studied` reads: the situations (:func:`situation_masks`' frame) and
    how many of the player's games it left out for being of a variant of the rules."""

    frame: pl.DataFrame
    variant_games: int


def studied(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
            max_games: int = MAX_GAMES) -> Studied:
    """:func:`situation_masks` and the number of the player's games (against ``vs``, if
    given) left out because they follow a variant (multi-card bids, open prizes)."""
    params = {"player": player, "vs": vs, "max_games": max_games}
    rounds = con.sql(_SQL, params=params).pl().sort("game_no", "round_no")
    if rounds.is_empty():
        variant = con.execute(f"""
            SELECT count(*) FROM games g WHERE NOT ({CLASSIC}) AND g.game_id IN (
                SELECT game_id FROM game_players WHERE player = $player
                  AND ($vs IS NULL OR game_id IN (SELECT game_id FROM game_players
                                                  WHERE player = $vs AND player <> $player)))
            """, {"player": player, "vs": vs}).fetchall()[0][0]
    else:
        variant = int(rounds["variant_games"][0])
    made = _situation_columns(rounds)
    out = rounds.with_columns(pl.Series(name, values) for name, values in made.items())
    nulls = [pl.when(pl.col(f"opp_{k}") >= 0).then(pl.col(f"opp_{k}")).alias(f"opp_{k}")
             for k in (1, 2, 3)]
    frame = out.with_columns(*nulls).select(
        pl.col(name).cast(dtype) for name, dtype in _MASK_COLUMNS.items())
    return Studied(frame, variant)


def situation_masks(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
                    max_games: int = MAX_GAMES) -> pl.DataFrame:
    """One row per bid ``player`` made (in games against ``vs`` only, if given), the cards
    as bit masks (bit r = card r): what :meth:`Situations.from_frame` reads.

    Columns: game_id, date, round_no, seat, cards, tie_rule, n_players, prize_order, prize,
    pool_value (this round's pool, carried cards included), carried_in, bid, hand_mask
    (cards held before bidding, the bid included), upcoming_mask (prizes not yet revealed,
    this one excluded), opp_1, opp_2, opp_3 (the other seats' hands in seat order, null
    past the last seat), score_diff (own score minus the best opponent's before the
    round). Rows come game by game (oldest first, then by game id), in round order. Only
    the ``max_games`` most recent games of the classic rules are used (see
    :data:`CLASSIC`).
    """
    return studied(con, player, vs, max_games).frame


def situation_frame(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
                    max_games: int = MAX_GAMES) -> pl.DataFrame:
    """:func:`situation_masks` with readable columns besides: hand, opp_hands and upcoming
    as lists of cards, bid_rank and prize_rank (0 = lowest, 1 = highest among the cards in
    hand / the prizes still to be won)."""
    masks = situation_masks(con, player, vs, max_games)  # noqa: F841 (read by the SQL)
    return con.sql(_READABLE).pl()


def check_player(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None) -> None:
    """Raise :class:`ScoutError` naming close matches when ``player`` (or ``vs``) has no games."""
    for name in (player, vs):
        if name is None:
            continue
        found = scalar(con, "SELECT count(*) FROM game_players WHERE player = ?", [name])
        if not found:
            names = [r[0] for r in con.execute(
                "SELECT DISTINCT player FROM game_players").fetchall()]
            close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else (
                f"; {len(names)} players are recorded (gops players lists them)")
            raise ScoutError(f"no recorded games for player {name!r}{hint}")
    if vs is not None and vs == player:
        raise ScoutError(f"--vs names the scouted player {player!r} again; give your own name")


@dataclass(frozen=True)
class Situations:
    """Bids and their situations as arrays; card r sits in column r - 1 of the masks."""

    game: np.ndarray        # int, game index (0..games-1) for splitting by game
    game_ids: tuple[str, ...]
    round_no: np.ndarray    # int
    cards: np.ndarray       # int, N of the game
    prize: np.ndarray       # int
    pool_value: np.ndarray  # int
    carried: np.ndarray     # int
    bid: np.ndarray         # int
    hand: np.ndarray        # bool (n, 13): cards held before bidding
    upcoming: np.ndarray    # bool (n, 13): prizes still to come after this one
    opp_high: np.ndarray    # int, the highest card any opponent still holds
    score_diff: np.ndarray  # int
    n_players: np.ndarray   # int
    tie_rule: np.ndarray    # str (objects), the game's tie rule

    def __len__(self) -> int:
        return len(self.bid)

    @property
    def games(self) -> int:
        return len(self.game_ids)

    # made once (the model, the habits and the scores all read them), read-only
    @functools.cached_property
    def hand_size(self) -> np.ndarray:
        return _frozen(self.hand.sum(axis=1))

    @functools.cached_property
    def prize_index(self) -> np.ndarray:
        """How many of the prizes still to be won (this one included) are below the prize."""
        below = np.arange(1, MAX_RANK + 1)[None, :] < self.prize[:, None]
        return _frozen((self.upcoming & below).sum(axis=1))

    @functools.cached_property
    def prizes_left(self) -> np.ndarray:
        """How many prizes are still to be won, this one included."""
        return _frozen(self.upcoming.sum(axis=1) + 1)

    def take(self, rows: np.ndarray) -> Situations:
        """The situations at ``rows`` (a boolean mask or an index array)."""
        pick = {f: getattr(self, f)[rows] for f in _ARRAYS}
        return Situations(game_ids=self.game_ids, **pick)

    @classmethod
    def from_frame(cls, frame: pl.DataFrame) -> Situations:
        """Arrays from a :func:`situation_masks` frame (or :func:`situation_frame`); the
        rows of a game are together, in round order."""
        game = frame["game_id"].rle_id().cast(pl.Int64).to_numpy()
        opp = [pl.col(c).fill_null(0).cast(pl.Int64) for c in ("opp_1", "opp_2", "opp_3")]
        opp_mask = frame.select(opp[0] | opp[1] | opp[2]).to_series().to_numpy()
        return cls(
            game=game,
            game_ids=tuple(frame["game_id"].unique(maintain_order=True).to_list()),
            round_no=_ints(frame, "round_no"),
            cards=_ints(frame, "cards"),
            prize=_ints(frame, "prize"),
            pool_value=_ints(frame, "pool_value"),
            carried=_ints(frame, "carried_in"),
            bid=_ints(frame, "bid"),
            hand=_mask(_ints(frame, "hand_mask")),
            upcoming=_mask(_ints(frame, "upcoming_mask")),
            opp_high=_highest(opp_mask),
            score_diff=_ints(frame, "score_diff"),
            n_players=_ints(frame, "n_players"),
            tie_rule=_per_run(frame["tie_rule"]),
        )


_ARRAYS = ("game", "round_no", "cards", "prize", "pool_value", "carried", "bid", "hand",
           "upcoming", "opp_high", "score_diff", "n_players", "tie_rule")


def _per_run(column: pl.Series) -> np.ndarray:
    """A string column as an object array, made from its runs (a game's rows share one
    value): one Python string per run, not per row."""
    values = np.asarray(column.rle().struct.field("value").to_list(), dtype=object)
    return values[column.rle_id().to_numpy()]


def _frozen(values: np.ndarray) -> np.ndarray:
    values.flags.writeable = False
    return values


def _ints(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Int64).to_numpy()


def _mask(bits: np.ndarray) -> np.ndarray:
    """Bit masks (bit r = card r) as an (n, 13) boolean matrix (column r - 1 = card r)."""
    return (bits[:, None] >> np.arange(1, MAX_RANK + 1)[None, :]) & 1 == 1


def _highest(bits: np.ndarray) -> np.ndarray:
    """The highest card in each mask (0 for an empty one)."""
    held = _mask(bits)
    return np.where(held.any(axis=1), MAX_RANK - np.argmax(held[:, ::-1], axis=1), 0)
