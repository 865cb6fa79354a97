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
    SELECT g.game_id, g.cards, g.tie_rule, g.n_players, g.prize_order, g.date, mine.my_seat
    FROM games g JOIN mine ON mine.game_id = g.game_id
    ORDER BY g.date DESC NULLS LAST, g.game_id
    LIMIT $max_games
),
r AS (
    SELECT r.game_id, r.round_no, r.prize, r.pool_value, r.carried_in, r.winner_seat,
           r.bid_a, r.bid_b, r.bid_c, r.bid_d,
           list(r.prize) OVER (PARTITION BY r.game_id ORDER BY r.round_no
                               ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS revealed
    FROM rounds r SEMI JOIN g ON g.game_id = r.game_id
),
seat_bids AS (
    SELECT r.game_id, r.round_no, p.seat, r.winner_seat, r.pool_value,
           CASE p.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                       WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid
    FROM r JOIN game_players p ON p.game_id = r.game_id
),
b AS (
    SELECT game_id, round_no, seat, bid,
           coalesce(list(bid) OVER w, []) AS spent,
           coalesce(sum(CASE WHEN winner_seat = seat THEN pool_value ELSE 0 END) OVER w, 0)
               AS score_before
    FROM seat_bids
    WINDOW w AS (PARTITION BY game_id, seat ORDER BY round_no
                 ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
opp AS (
    SELECT me.game_id, me.round_no,
           max(o.score_before) AS opp_score,
           list(o.spent ORDER BY o.seat) AS opp_spent
    FROM b me
    JOIN g ON g.game_id = me.game_id AND g.my_seat = me.seat
    JOIN b o ON o.game_id = me.game_id AND o.round_no = me.round_no AND o.seat <> me.seat
    GROUP BY ALL
),
s AS (
    SELECT me.game_id, g.date, me.round_no, me.seat, g.cards, g.tie_rule, g.n_players,
           g.prize_order, r.prize, r.pool_value, r.carried_in, me.bid,
           list_filter(range(1, g.cards + 1), lambda x: NOT list_contains(me.spent, x))
               AS hand,
           list_transform(opp.opp_spent, lambda sp: list_filter(
               range(1, g.cards + 1), lambda x: NOT list_contains(sp, x))) AS opp_hands,
           list_filter(range(1, g.cards + 1), lambda x: NOT list_contains(r.revealed, x))
               AS upcoming,
           (me.score_before - opp.opp_score)::INTEGER AS score_diff
    FROM b me
    JOIN g ON g.game_id = me.game_id AND g.my_seat = me.seat
    JOIN r ON r.game_id = me.game_id AND r.round_no = me.round_no
    JOIN opp ON opp.game_id = me.game_id AND opp.round_no = me.round_no
)
SELECT game_id, date, round_no, seat, cards, tie_rule, n_players, prize_order,
       prize, pool_value, carried_in, bid,
       hand::TINYINT[] AS hand,
       opp_hands::TINYINT[][] AS opp_hands,
       upcoming::TINYINT[] AS upcoming,
       score_diff,
       -- 0 = its lowest card, 1 = its highest
       CASE WHEN len(hand) > 1
            THEN (list_position(hand, bid) - 1) / (len(hand) - 1) END AS bid_rank,
       -- 0 = the lowest of the prizes still to be won (this one included), 1 = the highest
       CASE WHEN len(upcoming) > 0
            THEN len(list_filter(upcoming, lambda x: x < prize)) / len(upcoming) END
           AS prize_rank
FROM s
ORDER BY date NULLS FIRST, game_id, round_no
"""


def situation_frame(con: duckdb.DuckDBPyConnection, player: str, vs: str | None = None,
                    max_games: int = MAX_GAMES) -> pl.DataFrame:
    """One row per bid ``player`` made (in games against ``vs`` only, if given).

    Columns: game_id, date, round_no, seat, cards, tie_rule, n_players, prize_order, prize,
    pool_value (this round's pool, carried cards included), carried_in, bid, hand (cards
    held before bidding, the bid included), opp_hands (each opponent's hand), upcoming
    (prizes not yet revealed, this one excluded), score_diff (own score minus the best
    opponent's before the round), bid_rank and prize_rank (0 = lowest, 1 = highest among
    the cards in hand / the prizes still to be won). Only the ``max_games`` most recent
    games are used.
    """
    params = {"player": player, "vs": vs, "max_games": max_games}
    return con.sql(_SQL, params=params).pl()


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
        """Arrays from a :func:`situation_frame` (or any frame with the same columns)."""
        n = frame.height
        game_ids = tuple(dict.fromkeys(frame["game_id"].to_list()))
        index = {g: i for i, g in enumerate(game_ids)}
        return cls(
            game=np.array([index[g] for g in frame["game_id"].to_list()], dtype=np.int64),
            game_ids=game_ids,
            round_no=_ints(frame, "round_no"),
            cards=_ints(frame, "cards"),
            prize=_ints(frame, "prize"),
            pool_value=_ints(frame, "pool_value"),
            carried=_ints(frame, "carried_in"),
            bid=_ints(frame, "bid"),
            hand=_mask(frame["hand"], n),
            upcoming=_mask(frame["upcoming"], n),
            opp_high=np.array([max((max(h) for h in hands if h), default=0)
                               for hands in frame["opp_hands"].to_list()], dtype=np.int64),
            score_diff=_ints(frame, "score_diff"),
            n_players=_ints(frame, "n_players"),
            tie_rule=tuple(frame["tie_rule"].to_list()),
        )


_ARRAYS = ("game", "round_no", "cards", "prize", "pool_value", "carried", "bid", "hand",
           "upcoming", "opp_high", "score_diff", "n_players")


def _ints(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Int64).to_numpy()


def _mask(lists: pl.Series, n: int) -> np.ndarray:
    """Rows of card lists as an (n, 13) boolean matrix."""
    out = np.zeros((n, MAX_RANK), dtype=bool)
    flat = lists.explode().drop_nulls().cast(pl.Int64).to_numpy()
    rows = np.repeat(np.arange(n), lists.list.len().fill_null(0).to_numpy())
    out[rows, flat - 1] = True
    return out
