"""Situations: one row per recorded bid of a player, with what the table looked like.

:func:`situation_frame` builds them in DuckDB with window functions over the ``rounds``
and ``bids`` tables (cards already spent, prizes already revealed, running scores);
:class:`Situations` holds the same rows as numpy arrays (a hand is a row of 13 booleans)
so the model, the evaluation and the habits work on whole columns at once.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import duckdb
import numpy as np
import polars as pl

from gops_records.cards import MAX_RANK
from gops_records.errors import GopsError
from gops_records.store.db import scalar

#: At most this many of a player's games (the most recent) are studied, so a scout stays fast
#: however much history the database holds.
MAX_GAMES = 5000


class ScoutError(GopsError):
    """The player cannot be scouted (unknown name, or too few recorded games)."""

    code = "scout"


_SQL = """
WITH mine AS (
    SELECT gp.game_id, min(gp.seat) AS my_seat
    FROM game_players gp
    WHERE gp.player = $player
      AND ($vs IS NULL OR gp.game_id IN (SELECT game_id FROM game_players
                                         WHERE player = $vs AND player <> $player))
    GROUP BY gp.game_id
),
g AS (
    SELECT g.game_id, g.cards, g.tie_rule, g.n_players, g.prize_order, g.date, mine.my_seat,
           ((1::INTEGER << g.cards) - 1) << 1 AS deck
    FROM games g JOIN mine ON mine.game_id = g.game_id
    ORDER BY g.date DESC NULLS LAST, g.game_id
    LIMIT $max_games
),
-- one pass of windows over the rounds of those games: what was revealed up to each round,
-- and before it, what each seat had spent and scored
r AS (
    SELECT r.game_id, r.round_no, r.prize, r.pool_value, r.carried_in,
           r.bid_a, r.bid_b, r.bid_c, r.bid_d,
           bit_or(1::INTEGER << r.prize) OVER upto AS revealed,
           coalesce(bit_or(1::INTEGER << r.bid_a) OVER before, 0) AS spent_a,
           coalesce(bit_or(1::INTEGER << r.bid_b) OVER before, 0) AS spent_b,
           coalesce(bit_or(1::INTEGER << r.bid_c) OVER before, 0) AS spent_c,
           coalesce(bit_or(1::INTEGER << r.bid_d) OVER before, 0) AS spent_d,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'A') OVER before, 0)
               AS score_a,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'B') OVER before, 0)
               AS score_b,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'C') OVER before, 0)
               AS score_c,
           coalesce(sum(r.pool_value) FILTER (r.winner_seat = 'D') OVER before, 0)
               AS score_d
    FROM rounds r SEMI JOIN g ON g.game_id = r.game_id
    WINDOW upto AS (PARTITION BY r.game_id ORDER BY r.round_no ROWS UNBOUNDED PRECEDING),
           before AS (PARTITION BY r.game_id ORDER BY r.round_no
                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
SELECT r.game_id, g.date, r.round_no, g.my_seat AS seat, g.cards, g.tie_rule, g.n_players,
       g.prize_order, r.prize, r.pool_value, r.carried_in,
       CASE g.my_seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b WHEN 'C' THEN r.bid_c
                      ELSE r.bid_d END AS bid,
       (g.deck & ~CASE g.my_seat WHEN 'A' THEN r.spent_a WHEN 'B' THEN r.spent_b
                                 WHEN 'C' THEN r.spent_c ELSE r.spent_d END)::SMALLINT
           AS hand_mask,
       (g.deck & ~r.revealed)::SMALLINT AS upcoming_mask,
       -- the other seats' hands, in seat order (NULL past the last seat)
       (g.deck & ~CASE WHEN g.my_seat = 'A' THEN r.spent_b ELSE r.spent_a END)::SMALLINT
           AS opp_1,
       (g.deck & ~CASE WHEN g.n_players < 3 THEN NULL
                       WHEN g.my_seat IN ('A', 'B') THEN r.spent_c ELSE r.spent_b END)::SMALLINT
           AS opp_2,
       (g.deck & ~CASE WHEN g.n_players < 4 THEN NULL
                       WHEN g.my_seat = 'D' THEN r.spent_c ELSE r.spent_d END)::SMALLINT
           AS opp_3,
       (CASE g.my_seat WHEN 'A' THEN r.score_a WHEN 'B' THEN r.score_b WHEN 'C' THEN r.score_c
                       ELSE r.score_d END
        - greatest(
                    CASE WHEN g.my_seat <> 'A' THEN r.score_a END,
                    CASE WHEN g.my_seat <> 'B' THEN r.score_b END,
                    CASE WHEN g.my_seat <> 'C' AND g.n_players > 2 THEN r.score_c END,
                    CASE WHEN g.my_seat <> 'D' AND g.n_players > 3 THEN r.score_d END
        ))::INTEGER AS score_diff
FROM r JOIN g ON g.game_id = r.game_id
ORDER BY g.date NULLS FIRST, r.game_id, r.round_no
"""

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


def situation_masks(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
                    max_games: int = MAX_GAMES) -> pl.DataFrame:
    """One row per bid ``player`` made (in games against ``vs`` only, if given), the cards
    as bit masks (bit r = card r): what :meth:`Situations.from_frame` reads.

    Columns: game_id, date, round_no, seat, cards, tie_rule, n_players, prize_order, prize,
    pool_value (this round's pool, carried cards included), carried_in, bid, hand_mask
    (cards held before bidding, the bid included), upcoming_mask (prizes not yet revealed,
    this one excluded), opp_1, opp_2, opp_3 (the other seats' hands in seat order, null
    past the last seat), score_diff (own
    score minus the best opponent's before the round). Only the ``max_games`` most recent
    games are used.
    """
    params = {"player": player, "vs": vs, "max_games": max_games}
    return con.sql(_SQL, params=params).pl()


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
                f"; {len(names)} players are recorded (see the game_players table)")
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
    tie_rule: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.bid)

    @property
    def games(self) -> int:
        return len(self.game_ids)

    @property
    def hand_size(self) -> np.ndarray:
        return self.hand.sum(axis=1)

    @property
    def prize_index(self) -> np.ndarray:
        """How many of the prizes still to be won (this one included) are below the prize."""
        below = np.arange(1, MAX_RANK + 1)[None, :] < self.prize[:, None]
        return (self.upcoming & below).sum(axis=1)

    @property
    def prizes_left(self) -> np.ndarray:
        """How many prizes are still to be won, this one included."""
        return self.upcoming.sum(axis=1) + 1

    def take(self, rows: np.ndarray) -> Situations:
        """The situations at ``rows`` (a boolean mask or an index array)."""
        pick = {f: getattr(self, f)[rows] for f in _ARRAYS}
        return Situations(game_ids=self.game_ids,
                          tie_rule=tuple(np.asarray(self.tie_rule, dtype=object)[rows]),
                          **pick)

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
            tie_rule=tuple(frame["tie_rule"].to_list()),
        )


_ARRAYS = ("game", "round_no", "cards", "prize", "pool_value", "carried", "bid", "hand",
           "upcoming", "opp_high", "score_diff", "n_players")


def _ints(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Int64).to_numpy()


def _mask(bits: np.ndarray) -> np.ndarray:
    """Bit masks (bit r = card r) as an (n, 13) boolean matrix (column r - 1 = card r)."""
    return (bits[:, None] >> np.arange(1, MAX_RANK + 1)[None, :]) & 1 == 1


def _highest(bits: np.ndarray) -> np.ndarray:
    """The highest card in each mask (0 for an empty one)."""
    held = _mask(bits)
    return np.where(held.any(axis=1), MAX_RANK - np.argmax(held[:, ::-1], axis=1), 0)
