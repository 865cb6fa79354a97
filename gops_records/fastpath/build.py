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
    BIDS_SCHEMA,
    GAMES_SCHEMA,
    PLAYERS_SCHEMA,
    ROUNDS_SCHEMA,
    TAGS_DTYPE,
)

_local = threading.local()


def content_ids(keys: pl.Series) -> pl.Series:
    """``content_id`` of every key (the first 16 hex digits of its MD5), via DuckDB."""
    con = getattr(_local, "con", None)
    if con is None:
        con = _local.con = duckdb.connect()
    frame = keys.rename("k").to_frame()  # noqa: F841  (read by name in the SQL below)
    return con.sql("SELECT substr(md5(k), 1, 16) AS game_id FROM frame").pl()["game_id"]


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
    the ``games`` frame and the child tables (game_players, rounds, bids) are built when
    first asked for, since a re-import of known games never needs them."""

    def __init__(self, rep: Replayed, book: LineBook, source: str,
                 source_game: np.ndarray) -> None:
        self.rep, self.book = rep, book
        self.source, self.source_game = source, source_game
        n = rep.count
        self.game_id = content_ids(game_keys(rep, book)) if n else pl.Series([], dtype=pl.String)
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
        """The game_players, rounds and bids frames."""
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
                "rounds": _rounds(rep, self.book, self.game_id),
                "bids": _bids(rep, self.book, self.game_id, names)}

    def frames(self) -> dict[str, pl.DataFrame]:
        """The games, game_players, rounds and bids frames."""
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
    }).with_columns(
        pl.when(pl.lit(finished)).then(pl.col("unclaimed", "result")),
        pl.when(pl.lit(finished & alone)).then(pl.col("winner")),
    )
    return frame.cast(GAMES_SCHEMA).with_columns(pl.col("tags").cast(TAGS_DTYPE))


def _rounds(rep: Replayed, book: LineBook, game_id: pl.Series) -> pl.DataFrame:
    r = np.arange(len(rep.round_game))
    size = r - rep.pool_start + 1
    offsets = np.concatenate([[0], np.cumsum(size)]).astype(np.int64)
    flat = np.arange(offsets[-1]) - np.repeat(offsets[:-1] - rep.pool_start, size)
    pool = pa.LargeListArray.from_arrays(pa.array(offsets),
                                         pa.array(rep.prize[flat].astype(np.int8)))
    tie = rep.winner < 0
    winner = pl.Series(list(SEATS)).gather(np.maximum(rep.winner, 0))
    return pl.DataFrame({
        "game_id": game_id.gather(rep.round_game), "round_no": rep.round_no,
        "prize": rep.prize, "pool_cards": pl.Series(pool),
        "pool_value": rep.carried_in + rep.prize, "carried_in": rep.carried_in,
        "tie": tie, "winner_seat": winner,
        "comment": book.strings["comment"].gather(rep.round_rows),
    }).with_columns(pl.when(pl.lit(~tie)).then(pl.col("winner_seat"))).cast(ROUNDS_SCHEMA)


def _bids(rep: Replayed, book: LineBook, game_id: pl.Series, names: pl.Series) -> pl.DataFrame:
    players = rep.players[rep.round_game]
    r_of, s_of = np.nonzero(np.arange(4)[None, :] < players[:, None])
    g_of = rep.round_game[r_of]
    bids = np.stack([book.arrays[f"bid{s}"][rep.round_rows] for s in range(4)], axis=1)
    return pl.DataFrame({
        "game_id": game_id.gather(g_of), "round_no": rep.round_no[r_of],
        "seat": pl.Series(list(SEATS)).gather(s_of), "player": names.gather(g_of * 4 + s_of),
        "bid": bids[r_of, s_of], "won": rep.winner[r_of] == s_of,
    }).cast(BIDS_SCHEMA)
