"""Frames for the replayed games, column by column, equal to what the exact path builds.

Every value is the one :class:`gops_records.store.frames.Batch` computes for the same
game: the game id is the MD5 of the same key text (computed in DuckDB, many at once),
tags keep file order, players and seats are named the same way, results are written
by the same rule. ``tests/test_fastpath.py`` compares the two paths frame by frame.
"""

from __future__ import annotations

import threading
from functools import cached_property

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa

from gops_records.fastpath.games import SEATS, Replayed
from gops_records.fastpath.lines import PRIZE_ORDERS, TIE_RULES, LineBook
from gops_records.store.frames import (
    BID_COLUMNS,
    GAMES_SCHEMA,
    PLAYERS_SCHEMA,
    ROUND_ROWS_SCHEMA,
    TAGS_DTYPE,
)

_local = threading.local()


def content_ids(keys: pl.Series) -> pl.Series:
    """``content_id`` of every key (the first 16 hex digits of its MD5 as a number), via
    DuckDB."""
    con = getattr(_local, "con", None)
    if con is None:  # one per worker thread, each single-threaded: the workers are the threads
        con = _local.con = duckdb.connect(config={"threads": 1})
    frame = keys.rename("k").to_frame()  # noqa: F841  (read by name in the SQL below)
    return con.sql("SELECT ('0x' || substr(md5(k), 1, 16))::UBIGINT AS game_id "
                   "FROM frame").pl()["game_id"]


def _offsets(groups: np.ndarray, n: int) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(np.bincount(groups, minlength=n))]).astype(np.int64)


def _lists(values: pa.Array, groups: np.ndarray, n: int) -> pl.Series:
    """A list column: the values of each group (``groups`` sorted), empty lists included."""
    array = pa.LargeListArray.from_arrays(pa.array(_offsets(groups, n)), values)
    return pl.Series(array)


def game_keys(rep: Replayed, book: LineBook) -> pl.Series:
    """``game_key`` of every game: sorted tags but Result, then the ranks of each round."""
    frag = book.strings["frag"]
    tags = _lists(frag.gather(rep.key_tag_rows).to_arrow(), rep.key_tag_game, rep.count)
    rounds = _lists(frag.gather(rep.round_rows).to_arrow(), rep.round_game, rep.count)
    return pl.select(pl.concat_str([tags.list.join("\x1f"), pl.lit("\x1e"),
                                    rounds.list.join(";")])).to_series()


class FastFrames:
    """The frames of a chunk's replayed games. Only the game ids are computed at once:
    the ``games`` frame and the child tables (game_players, rounds) are built when
    first asked for, since a re-import of known games never needs them."""

    def __init__(self, rep: Replayed, book: LineBook, source: str,
                 source_game: np.ndarray) -> None:
        self.rep, self.book = rep, book
        self.source, self.source_game = source, source_game
        n = rep.count
        self.game_id = content_ids(game_keys(rep, book)) if n else pl.Series([], dtype=pl.UInt64)
        self._games: pl.DataFrame | None = None

    @cached_property
    def _seats(self) -> tuple[np.ndarray, pl.Series, np.ndarray, np.ndarray, np.ndarray]:
        """Which seats play, the players' names (4 a game), scores (-1: no seat), the top
        score and whether one player alone has it."""
        rep, n = self.rep, self.rep.count
        seats = np.arange(4)
        in_game = seats[None, :] < rep.players[:, None]
        rows = rep.seat_rows.ravel()
        names = pl.select(pl.when(pl.lit(rows > 0))
                          .then(self.book.strings["tag_value"].gather(rows))
                          .otherwise(_SEAT_TEXT.gather(np.tile(seats, n)))).to_series()
        scores = np.where(in_game, rep.scores, -1)
        top = scores.max(axis=1) if n else np.zeros(0, np.int64)
        alone = (scores == top[:, None]).sum(axis=1) == 1
        return in_game, names, scores, top, alone

    @property
    def games(self) -> pl.DataFrame:
        if self._games is None:
            _, names, _, _, alone = self._seats
            self._games = _games(self.rep, self.book, self.source, self.source_game,
                                 self.game_id, names, self.rep.finished, alone)
        return self._games

    def children(self) -> dict[str, pl.DataFrame]:
        """The game_players and round_rows frames."""
        rep = self.rep
        in_game, names, scores, top, alone = self._seats
        g_of, s_of = np.nonzero(in_game)
        outcome = np.where(scores[g_of, s_of] < top[g_of], 1, np.where(alone[g_of], 0, 2))
        players = pl.DataFrame({
            "game_id": self.game_id.gather(g_of), "seat": _SEAT_TEXT.gather(s_of),
            "player": names.gather(g_of * 4 + s_of), "score": rep.scores[g_of, s_of],
            "outcome": pl.Series(["win", "loss", "draw"]).gather(outcome),
        }).with_columns(pl.when(pl.lit(rep.finished[g_of])).then(pl.col("outcome")))
        return {"game_players": players.cast(PLAYERS_SCHEMA),
                "round_rows": _round_rows(rep, self.book, self.game_id)}

    def frames(self) -> dict[str, pl.DataFrame]:
        """The games, game_players and round_rows frames."""
        return {"games": self.games, **self.children()}


_SEAT_TEXT = pl.Series(list(SEATS))


def _games(rep: Replayed, book: LineBook, source: str, source_game: np.ndarray,
           game_id: pl.Series, names: pl.Series, finished: np.ndarray,
           alone: np.ndarray) -> pl.DataFrame:
    n = rep.count
    value = book.strings["tag_value"]
    name_of = book.arrays["name"][rep.tag_rows]

    def tag(name: str) -> pl.Series:
        rows = np.zeros(n, np.int64)
        nid = book.name_id.get(name)
        if nid is not None:
            sel = name_of == nid
            rows[rep.tag_game[sel]] = rep.tag_rows[sel]
        return value.gather(rows)

    text = [pl.Series(rep.scores[:, s]).cast(pl.String) for s in range(4)]
    result = pl.select(pl.concat_str(text[:2], separator="-")).to_series()
    for p in (3, 4):
        result = pl.select(pl.when(pl.lit(rep.players >= p))
                           .then(pl.concat_str([result, text[p - 1]], separator="-"))
                           .otherwise(result)).to_series()
    winner_seat = np.argmax(np.where(np.arange(4)[None, :] < rep.players[:, None],
                                     rep.scores, -1), axis=1) if n else np.zeros(0, np.int64)
    tags = pa.StructArray.from_arrays(
        [book.strings["tag_key"].gather(rep.tag_rows).to_arrow(),
         value.gather(rep.tag_rows).to_arrow()], names=["key", "value"])
    frame = pl.DataFrame({
        "game_id": game_id, "source": pl.repeat(source, n, eager=True),
        "source_game": source_game, "source_line": rep.source_line,
        "event": tag("Event"), "site": tag("Site"), "date_text": tag("Date"),
        "round": tag("Round"), "match": tag("Match"),
        "tie_rule": pl.Series(TIE_RULES).gather(rep.tie_rule), "cards": rep.cards,
        "prize_order": pl.Series(PRIZE_ORDERS).gather(rep.prize_order),
        "n_players": rep.players, "finished": finished, "rounds_played": rep.n_rounds,
        "unclaimed": rep.unclaimed, "result": result,
        "winner": names.gather(np.arange(n) * 4 + winner_seat),
        "tags": _lists(tags, rep.tag_game, n),
        **_summary(rep),
    }).with_columns(
        pl.when(pl.lit(finished)).then(pl.col("unclaimed", "result")),
        pl.when(pl.lit(finished & alone)).then(pl.col("winner")),
    )
    return frame.cast(GAMES_SCHEMA).with_columns(pl.col("tags").cast(TAGS_DTYPE))


def _summary(rep: Replayed) -> dict[str, np.ndarray]:
    """Each game's ties, tie_mask, carried and max_pool (as ``frames.summary`` has them)."""
    n = rep.count
    tie = rep.winner < 0
    game = rep.round_game
    carry = (rep.tie_rule[game] == 0) & (rep.round_no < rep.cards[game])
    max_pool = np.zeros(n, np.int64)
    if len(game):  # rounds are grouped by game, in game order
        first = np.flatnonzero(np.concatenate([[True], game[1:] != game[:-1]]))
        pool = rep.carried_in.astype(np.int64) + rep.prize
        max_pool[game[first]] = np.maximum.reduceat(pool, first)
    bit = np.left_shift(1, rep.round_no[tie].astype(np.int64) - 1)
    return {
        "ties": np.bincount(game[tie], minlength=n),
        "tie_mask": np.bincount(game[tie], weights=bit, minlength=n).astype(np.int64),
        "carried": np.bincount(game[tie & carry], weights=rep.prize[tie & carry],
                               minlength=n).astype(np.int64),
        "max_pool": max_pool,
    }


def _round_rows(rep: Replayed, book: LineBook, game_id: pl.Series) -> pl.DataFrame:
    """The stored part of each round: the pool's cards only where it holds carried ones."""
    r = np.arange(len(rep.round_game))
    size = r - rep.pool_start + 1
    carried = np.flatnonzero(size > 1)
    offsets = np.zeros(len(r) + 1, np.int64)
    offsets[carried + 1] = size[carried]
    offsets = np.cumsum(offsets)
    starts = rep.pool_start[carried]
    flat = np.arange(offsets[-1]) - np.repeat(offsets[carried] - starts, size[carried])
    valid = pa.py_buffer(np.packbits(size > 1, bitorder="little"))
    pool = pa.LargeListArray.from_buffers(
        pa.large_list(pa.int8()), len(r), [valid, pa.py_buffer(offsets)],
        children=[pa.array(rep.prize[flat].astype(np.int8))])
    return pl.DataFrame({
        "game_id": game_id.gather(rep.round_game), "round_no": rep.round_no,
        "prize": rep.prize, "carried_in": rep.carried_in,
        "winner": np.where(rep.winner < 0, 0, rep.winner),
        "pool_carried": pl.Series(pool),
        "comment": book.strings["comment"].gather(rep.round_rows),
        **{column: book.arrays[f"bid{s}"][rep.round_rows] for s, column in enumerate(BID_COLUMNS)},
    }).with_columns(
        pl.when(pl.lit(rep.winner >= 0)).then(pl.col("winner")),
        *(pl.when(pl.lit(rep.players[rep.round_game] > s)).then(pl.col(column))
          for s, column in enumerate(BID_COLUMNS) if s >= 2),
    ).cast(ROUND_ROWS_SCHEMA)
