"""Store frames of a replayed chunk, column by column: games, game_players, round_rows,
rejects, variant_round_rows (the rounds of games of the variants), round_takes (every
bidder's take, ``[OpenTakes "each"]``); shaped like the DuckDB tables, see docs/schema.md.

A game's id is the MD5 of its key text (computed in DuckDB, many at once): its tags
but ``Result``, sorted by name, and the ranks of its rounds, so the same game written
in any layout, with or without its result, in a record or a round log, gets the same id.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from functools import cached_property

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa

from gops_records.core.arrow_arrays import numeric
from gops_records.core.problems import Problem
from gops_records.core.store.db import SAFE_CONFIG
from gops_records.core.store.frames import (
    ERRORS_DTYPE,
    REJECTS_SCHEMA,
    TAGS_DTYPE,
    errors_column,
    text_id,
    whole_file_rejects,
)
from gops_records.games.gops.cards import SEATS
from gops_records.games.gops.replay.engine import Replay
from gops_records.games.gops.rules import PRIZE_ORDERS, TIE_RULES
from gops_records.games.gops.shapes import (
    BID_COLUMNS,
    CARDS_COLUMNS,
    GAMES_SCHEMA,
    PLAYERS_SCHEMA,
    ROUND_ROWS_SCHEMA,
    ROUND_TAKES_SCHEMA,
    VARIANT_ROUND_ROWS_SCHEMA,
)

TABLES = ("games", "game_players", "round_rows", "rejects", "variant_round_rows",
          "round_takes")
_local = threading.local()
_SEAT_TEXT = pl.Series(list(SEATS))


def content_ids(keys: pl.Series) -> pl.Series:
    """The id of every key: the first 16 hex digits of its MD5, as a 64-bit number."""
    con = getattr(_local, "con", None)
    if con is None:  # one per thread, single-threaded: the callers are the parallelism
        con = _local.con = duckdb.connect(config={"threads": 1, **SAFE_CONFIG})
    frame = keys.rename("k").to_frame()  # noqa: F841  (read by name in the SQL below)
    return con.sql("SELECT ('0x' || substr(md5(k), 1, 16))::UBIGINT AS game_id "
                   "FROM frame").pl()["game_id"]


def _optional_lists(values: np.ndarray, counts: np.ndarray, valid: np.ndarray) -> pl.Series:
    """A list column of small ints: ``counts[i]`` of ``values`` (in order) for each row
    where ``valid``, null elsewhere (``values`` holds the valid rows' items only)."""
    sizes = np.where(valid, counts, 0)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    mask = pa.py_buffer(np.packbits(valid, bitorder="little"))
    array = pa.LargeListArray.from_buffers(
        pa.large_list(pa.int8()), len(valid), [mask, pa.py_buffer(offsets)],
        children=[numeric(np.asarray(values, np.int64).astype(np.int8))])
    return pl.Series(array)


def _lists(values: pa.Array, groups: np.ndarray, n: int) -> pl.Series:
    """A list column: the values of each group (``groups`` sorted), empty lists included."""
    offsets = np.concatenate([[0], np.cumsum(np.bincount(groups, minlength=n))]).astype(np.int64)
    return pl.Series(pa.LargeListArray.from_arrays(numeric(offsets), values))


class ChunkGames:
    """The outcome of reading one chunk of a file: its store frames (built when first
    asked for), and its games as ``gops validate`` reports them.

    ``source_game`` counts games from ``game_offset + 1``; lines count from
    ``line_offset + 1``. Only the first ``limit`` games are taken (all when None): the
    rest of the chunk is read again with the text after it. Frames list games in file
    order.
    """

    def __init__(self, rep: Replay, source: str, game_offset: int = 0,
                 line_offset: int = 0, limit: int | None = None, *,
                 raw_texts: list[str] | None = None,
                 extra: dict[int, list[Problem]] | None = None) -> None:
        self.rep, self.source = rep, source
        self.game_offset, self.line_offset = game_offset, line_offset
        self.limit = rep.count if limit is None else limit
        self.raw_texts = raw_texts  # each game's text, for games not read from text
        self.extra = extra or {}    # problems a game's own source found
        self._frames: dict[str, pl.DataFrame] = {}

    def __len__(self) -> int:
        return self.limit

    # -- per game ------------------------------------------------------------------------

    @cached_property
    def valid(self) -> np.ndarray:
        valid = self.rep.valid[: self.limit].copy()
        valid[np.array([g for g, found in self.extra.items() if found], np.int64)] = False
        return valid

    @cached_property
    def valid_games(self) -> np.ndarray:
        return np.flatnonzero(self.valid)

    @cached_property
    def invalid_games(self) -> np.ndarray:
        return np.flatnonzero(~self.valid)

    def verdicts(self) -> pl.DataFrame:
        """One row per game with what ``gops validate --json`` says of it (see
        :data:`gops_records.games.gops.checking.VERDICT_COLUMNS`), games numbered from 1
        in the chunk.

        An invalid game has no winner and no unclaimed points; its scores are what the
        rounds without a problem gave."""
        rep, n = self.rep, self.limit
        games = np.arange(n)
        players = rep.players[:n]
        valid = self.valid
        finished = rep.finished[:n]
        in_game = np.arange(4)[None, :] < players[:, None]
        g_of, s_of = np.nonzero(in_game)
        masked = np.where(in_game, rep.scores[:n], -1)
        top = masked.max(axis=1) if n else np.zeros(0, np.int64)
        alone = (masked == top[:, None]).sum(axis=1) == 1
        names = self.names.gather(g_of * 4 + s_of)
        winner = self.names.gather(games * 4 + (masked.argmax(axis=1) if n else games))
        decided = valid & finished
        problems = self.problems(self.invalid_games)
        errors = [problems.get(g, ()) for g in range(n)]
        frame = pl.DataFrame({
            "source": pl.repeat(self.source, n, eager=True, dtype=pl.String),
            "game": games + 1 + self.game_offset,
            "line": self.lines[:n],
            "players": _lists(names.to_arrow(), g_of, n),
            "valid": valid, "finished": finished, "rounds": rep.n_rounds[:n],
            "scores": _lists(numeric(rep.scores[:n][g_of, s_of]), g_of, n),
            "unclaimed": rep.unclaimed[:n], "winner": winner,
            "errors": errors_column(errors),
        }).with_columns(
            pl.when(pl.lit(decided)).then(pl.col("unclaimed")),
            pl.when(pl.lit(decided & alone)).then(pl.col("winner")),
        )
        return frame.cast({"game": pl.Int64, "line": pl.Int64, "rounds": pl.Int64,
                           "unclaimed": pl.Int64, "scores": pl.List(pl.Int64)})

    @cached_property
    def lines(self) -> np.ndarray:
        """Each game's line: that of its first tag or round (comments do not count)."""
        t = self.rep.tokens
        return t.lines(t.start[self.rep.structure.first_significant]) + self.line_offset

    @cached_property
    def names(self) -> pl.Series:
        """Player names, four a game (seat order), the seat letter where none is given."""
        rep = self.rep
        frame = rep.tags.frame
        tokens = rep.structure.seat_tags.ravel()
        value_of = pl.DataFrame({"token": tokens}).join(frame.select("token", "value"),
                                                        on="token", how="left",
                                                        maintain_order="left")["value"]
        seats = _SEAT_TEXT.gather(np.tile(np.arange(4), rep.count))
        return pl.select(pl.when(value_of.is_not_null()).then(value_of)
                         .otherwise(seats)).to_series()

    def problems(self, games: np.ndarray) -> dict[int, list[Problem]]:
        """The problems of ``games`` (chunk indices), lines counted in the file."""
        tokens, shift = self.rep.tokens, self.line_offset

        def place(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            lines, columns = tokens.places(offsets)
            return lines + shift, columns

        found = self.rep.problems.of_games(games, place, line_offset=shift)
        for g, more in self.extra.items():
            if g in found and more:
                seen = {(p.code, p.line, p.column, p.message) for p in found[g]}
                found[g] = sorted(found[g] + [p for p in more if (p.code, p.line, p.column,
                                                                  p.message) not in seen],
                                  key=lambda p: (p.line, p.column))
        return found

    # -- frames --------------------------------------------------------------------------

    def frames(self) -> dict[str, pl.DataFrame]:
        return {table: self[table] for table in TABLES}

    def __getitem__(self, table: str) -> pl.DataFrame:
        if table not in self._frames:
            self._frames[table] = getattr(self, f"_{table}")()
        return self._frames[table]

    def game_ids(self) -> pl.Series:
        """The valid games' ids, without building the games frame."""
        return self._ids

    @cached_property
    def _ids(self) -> pl.Series:
        if not len(self.valid_games):
            return pl.Series("game_id", [], dtype=pl.UInt64)
        return content_ids(self._keys)

    @cached_property
    def _rounds(self) -> np.ndarray:
        """Indices of the valid games' rounds (all played), in file order."""
        keep = np.zeros(self.rep.count, bool)
        keep[self.valid_games] = True
        return np.flatnonzero(keep[self.rep.structure.round_game])

    @cached_property
    def _round_game(self) -> np.ndarray:
        """Each of those rounds' game, as an index among the valid games."""
        position = np.full(self.rep.count, -1, np.int64)
        position[self.valid_games] = np.arange(len(self.valid_games))
        return position[self.rep.structure.round_game[self._rounds]]

    @cached_property
    def _tags(self) -> pl.DataFrame:
        """The valid games' tags in file order, with the game as an index among them."""
        frame = self.rep.tags.frame
        position = np.full(self.rep.count, -1, np.int64)
        position[self.valid_games] = np.arange(len(self.valid_games))
        return frame.with_columns(pl.Series("at", position[frame["game"].to_numpy()])
                                  if frame.height else pl.lit(0, pl.Int64).alias("at")) \
            .filter(pl.col("at") >= 0)

    @cached_property
    def _keys(self) -> pl.Series:
        """``game_key`` of every valid game: its sorted tags but Result, then its ranks."""
        n = len(self.valid_games)
        rep = self.rep
        tags = (self._tags.filter(pl.col("name") != "Result")
                .sort("at", "name", maintain_order=True)
                .select("at", pl.concat_str("name", pl.lit("="), "value").alias("kv")))
        tag_text = _lists(tags["kv"].to_arrow(), tags["at"].to_numpy(), n).list.join("\x1f")
        r = self._rounds
        players = rep.players[rep.structure.round_game[r]]
        parts = [pl.Series(rep.prize[r]).cast(pl.String)]
        several = rep.bid_ranks.shape[2] > 1  # a bid is its cards joined by '+' (9+4)
        for seat in range(4):
            if several:
                ranks = rep.bid_ranks[r, seat]
                col = pl.select(pl.concat_str(
                    [pl.lit(pl.Series(ranks[:, j])).cast(pl.String).replace("-1", None)
                     for j in range(ranks.shape[1])], separator="+", ignore_nulls=True)
                ).to_series()
            else:
                col = pl.Series(rep.bids[r, seat]).cast(pl.String)
            parts.append(pl.select(pl.when(pl.lit(players > seat)).then(col)).to_series())
        opened = rep.structure.open_round[r] if len(r) else np.zeros(0, bool)
        if opened.any():  # an open-prize round: its revealed prizes first, (1 4 5)
            parts.insert(0, self._revealed_text(r, opened))
        if rep.takes is not None:  # every bidder takes: the takes last, /5 - 4
            parts.append(self._takes_text(r))
        text = pl.select(pl.concat_str(parts, separator=",", ignore_nulls=True)).to_series()
        round_text = _lists(text.to_arrow(), self._round_game, n).list.join(";")
        return pl.select(pl.concat_str([tag_text, pl.lit("\x1e"), round_text])).to_series()

    def _takes_text(self, r: np.ndarray) -> pl.Series:
        """Each of the rounds ``r``'s takes as ``/5 - 4`` (``[OpenTakes "each"]``; null for
        rounds of other games)."""
        rep = self.rep
        games = rep.structure.round_game[r]
        each = rep.tags.each_takes[games]
        players = rep.players[games]
        texts = [("/" + " ".join(str(int(x)) if x > 0 else "-"
                                 for x in rep.takes[i, :players[j]])) if each[j] else None
                 for j, i in enumerate(r.tolist())]
        return pl.Series(texts, dtype=pl.String)

    def _round_takes(self) -> pl.DataFrame:
        """Each seat's take in the rounds of games where every bidder takes (``[OpenTakes
        "each"]``): one list a round in seat order, null for a seat that took nothing."""
        rep, r = self.rep, self._rounds
        if rep.takes is None or not len(r):
            return pl.DataFrame(schema=ROUND_TAKES_SCHEMA)
        games = rep.structure.round_game[r]
        keep = np.flatnonzero(rep.tags.each_takes[games])
        players = rep.players[games[keep]]
        takes = [[int(x) or None for x in rep.takes[r[k], :players[j]]]
                 for j, k in enumerate(keep.tolist())]
        return pl.DataFrame({"game_id": self._ids.gather(self._round_game[keep]),
                             "round_no": rep.structure.round_no[r[keep]],
                             "takes": pl.Series(takes, dtype=pl.List(pl.Int8))},
                            schema=ROUND_TAKES_SCHEMA)

    def _revealed_text(self, r: np.ndarray, opened: np.ndarray) -> pl.Series:
        """Each of the rounds ``r``'s revealed prizes as ``(1 4 5)`` (null for rounds of
        games without open prizes)."""
        rep = self.rep
        at = np.full(len(rep.structure.round_game), -1, np.int64)
        at[r] = np.arange(len(r))
        where = at[rep.reveal_round] if len(rep.reveal_round) else rep.reveal_round
        keep = where >= 0
        frame = pl.DataFrame({"at": where[keep], "rank": rep.reveal_rank[keep]})
        joined = frame.group_by("at", maintain_order=True).agg(
            pl.col("rank").cast(pl.String).str.join(" "))
        out = pl.DataFrame({"at": np.arange(len(r))}).join(joined, on="at", how="left",
                                                           maintain_order="left")
        text = pl.concat_str([pl.lit("("), pl.col("rank").fill_null(""), pl.lit(")")])
        return out.select(pl.when(pl.lit(opened)).then(text)).to_series()

    def _games(self) -> pl.DataFrame:
        rep, v = self.rep, self.valid_games
        n = len(v)
        players = rep.players[v]
        scores = rep.scores[v]
        finished = rep.finished[v]
        in_game = np.arange(4)[None, :] < players[:, None]
        masked = np.where(in_game, scores, -1)
        top = masked.max(axis=1) if n else np.zeros(0, np.int64)
        alone = (masked == top[:, None]).sum(axis=1) == 1
        winner_seat = masked.argmax(axis=1) if n else np.zeros(0, np.int64)
        names = self.names.gather(v.repeat(4) * 4 + np.tile(np.arange(4), n)) if n else \
            pl.Series([], dtype=pl.String)
        tags = self._tags

        def tag(name: str) -> pl.Series:
            part = tags.filter(pl.col("name") == name)
            out = np.full(n, -1, np.int64)
            out[part["at"].to_numpy()] = np.arange(part.height)
            index = pl.Series(out).set(pl.Series(out < 0), None)
            return part["value"].gather(index)

        text = [pl.Series(scores[:, s]).cast(pl.String) for s in range(4)]
        result = pl.select(pl.concat_str([pl.when(pl.lit(players > s)).then(text[s])
                                          for s in range(4)], separator="-",
                                         ignore_nulls=True)).to_series()
        struct = pa.StructArray.from_arrays([tags["name"].to_arrow(), tags["value"].to_arrow()],
                                            names=["key", "value"])
        frame = pl.DataFrame({
            "game_id": self._ids, "source": pl.repeat(self.source, n, eager=True),
            "source_game": v + 1 + self.game_offset, "source_line": self.lines[v],
            "event": tag("Event"), "site": tag("Site"), "date_text": tag("Date"),
            "round": tag("Round"), "match": tag("Match"),
            "tie_rule": pl.Series(TIE_RULES).gather(rep.tie_rule[v]),
            "cards": rep.cards[v],
            "prize_order": pl.Series(PRIZE_ORDERS).gather(rep.prize_order[v]),
            "n_players": players, "finished": finished, "rounds_played": rep.n_rounds[v],
            "unclaimed": rep.unclaimed[v], "result": result,
            "winner": names.gather(np.arange(n) * 4 + winner_seat) if n else names,
            "tags": _lists(struct, tags["at"].to_numpy(), n),
            **self._summary(),
            "bid_cards": np.maximum(rep.bid_cards[v], 1),
            "open_prizes": pl.Series(np.maximum(rep.open_prizes[v], 0)).set(
                pl.Series(rep.open_prizes[v] <= 0), None),
        }).with_columns(
            pl.when(pl.lit(finished)).then(pl.col("unclaimed", "result")),
            pl.when(pl.lit(finished & alone)).then(pl.col("winner")),
        )
        return frame.cast(GAMES_SCHEMA).with_columns(pl.col("tags").cast(TAGS_DTYPE))

    def _summary(self) -> dict[str, np.ndarray]:
        """Each game's ties, tie_mask, carried and max_pool."""
        rep, r, g = self.rep, self._rounds, self._round_game
        n = len(self.valid_games)
        s = rep.structure
        tie = rep.winner[r] < 0
        round_no = s.round_no[r]
        games = s.round_game[r]
        carry = (rep.tie_rule[games] == 0) & (round_no < rep.rounds[games]) \
            & ~s.open_game[games]
        pool = rep.carried_in[r] + rep.prize[r]
        max_pool = np.zeros(n, np.int64)
        np.maximum.at(max_pool, g, pool)
        bit = np.left_shift(1, round_no[tie] - 1)
        return {
            "ties": np.bincount(g[tie], minlength=n),
            "tie_mask": np.bincount(g[tie], weights=bit, minlength=n).astype(np.int64),
            "carried": np.bincount(g[tie & carry], weights=rep.prize[r][tie & carry],
                                   minlength=n).astype(np.int64),
            "max_pool": max_pool,
        }

    def _game_players(self) -> pl.DataFrame:
        rep, v = self.rep, self.valid_games
        n = len(v)
        players = rep.players[v]
        in_game = np.arange(4)[None, :] < players[:, None]
        g_of, s_of = np.nonzero(in_game)
        scores = np.where(in_game, rep.scores[v], -1)
        top = scores.max(axis=1) if n else np.zeros(0, np.int64)
        alone = (scores == top[:, None]).sum(axis=1) == 1
        outcome = np.where(scores[g_of, s_of] < top[g_of], 1, np.where(alone[g_of], 0, 2))
        frame = pl.DataFrame({
            "game_id": self._ids.gather(g_of), "seat": _SEAT_TEXT.gather(s_of),
            "player": self.names.gather(v[g_of] * 4 + s_of),
            "score": rep.scores[v][g_of, s_of],
            "outcome": pl.Series(["win", "loss", "draw"]).gather(outcome),
        }).with_columns(pl.when(pl.lit(rep.finished[v][g_of])).then(pl.col("outcome")))
        return frame.cast(PLAYERS_SCHEMA)

    def _round_rows(self) -> pl.DataFrame:
        """The rounds of classic games (see :meth:`_all_round_rows`)."""
        frame, variant = self._all_round_rows
        if variant is None:
            return frame
        return frame.filter(pl.lit(~variant)).select(list(ROUND_ROWS_SCHEMA))

    def _variant_round_rows(self) -> pl.DataFrame:
        """The rounds of games of the variants, with their own columns."""
        frame, variant = self._all_round_rows
        if variant is None:
            return pl.DataFrame(schema=VARIANT_ROUND_ROWS_SCHEMA)
        return frame.filter(pl.lit(variant))

    @cached_property
    def _all_round_rows(self) -> tuple[pl.DataFrame, np.ndarray | None]:
        """The stored part of each round: the pool's cards only where it holds carried ones
        (or an open row); with the variants' columns, and which rounds are of games of the
        variants (None when the chunk has none)."""
        rep, r = self.rep, self._rounds
        s = rep.structure
        # pool starts as indices among these rounds (a pool never spans two games)
        at = np.full(len(s.round_game), -1, np.int64)
        at[r] = np.arange(len(r))
        start = at[rep.pool_start[r]]
        here = np.arange(len(r))
        size = here - start + 1
        carried = np.flatnonzero(size > 1)
        offsets = np.zeros(len(r) + 1, np.int64)
        offsets[carried + 1] = size[carried]
        offsets = np.cumsum(offsets)
        flat = np.arange(offsets[-1]) - np.repeat(offsets[carried] - start[carried],
                                                  size[carried])
        valid = pa.py_buffer(np.packbits(size > 1, bitorder="little"))
        pool = pa.LargeListArray.from_buffers(
            pa.large_list(pa.int8()), len(r), [valid, pa.py_buffer(offsets)],
            children=[numeric(rep.prize[r][flat].astype(np.int8))])
        players = rep.players[s.round_game[r]]
        games = s.round_game[r]
        variant = (rep.bid_cards[games] != 1) | (rep.open_prizes[games] != 0)
        opened = s.open_round[r] if len(r) else np.zeros(0, bool)
        if opened.any():  # an open row's cards are its pool
            pool = self._row_cards(r, opened, pool)
        frame = pl.DataFrame({
            "game_id": self._ids.gather(self._round_game), "round_no": s.round_no[r],
            "prize": rep.prize[r], "carried_in": rep.carried_in[r],
            "winner": np.where(rep.winner[r] < 0, 0, rep.winner[r]),
            "pool_carried": pl.Series(pool), "comment": self._comments,
            **{column: rep.bids[r, seat] for seat, column in enumerate(BID_COLUMNS)},
            **(self._variant_columns(r, players, opened) if variant.any() else {}),
        }).with_columns(
            pl.when(pl.lit(rep.winner[r] >= 0)).then(pl.col("winner")),
            *(pl.when(pl.lit(players > seat)).then(pl.col(column))
              for seat, column in enumerate(BID_COLUMNS) if seat >= 2),
        )
        if not variant.any():
            return frame.cast(ROUND_ROWS_SCHEMA), None
        return frame.cast(VARIANT_ROUND_ROWS_SCHEMA), variant

    def _row_cards(self, r: np.ndarray, opened: np.ndarray, pool: pa.Array) -> pa.Array:
        """``pool`` with each open-prize round's row after its top-up, in the order the
        prizes were revealed."""
        rep = self.rep
        games = rep.structure.round_game[r]
        order = np.full((rep.count, 14), 99, np.int64)  # when each prize was revealed
        first = rep.reveal_first
        order[rep.structure.round_game[rep.reveal_round[first]], rep.reveal_rank[first]] = \
            np.flatnonzero(first)
        member = (rep.row[r][:, None] >> np.arange(14)[None, :] & 1) > 0
        ranked = np.argsort(np.where(member, order[games], 1 << 40), axis=1, kind="stable")
        counts = member.sum(axis=1)
        rows = [ranked[i, :counts[i]].tolist() if opened[i] else None for i in range(len(r))]
        classic = pool.to_pylist()
        return pa.array([row if opened[i] else classic[i] for i, row in enumerate(rows)],
                        pa.large_list(pa.int8()))

    def _variant_columns(self, r: np.ndarray, players: np.ndarray,
                         opened: np.ndarray) -> dict[str, pl.Series]:
        """cards_a..cards_d (each bid's cards), revealed, taken and discarded (open
        prizes: null in other rounds)."""
        rep, n = self.rep, len(r)
        out: dict[str, pl.Series] = {}
        for seat, column in enumerate(CARDS_COLUMNS):
            ranks = rep.bid_ranks[r, seat]
            counts = (ranks > 0).sum(axis=1)
            valid = players > seat
            out[column] = _optional_lists(ranks[valid][ranks[valid] > 0], counts, valid)
        if not opened.any():
            for column, dtype in (("revealed", pl.List(pl.Int8)), ("taken", pl.Int8),
                                  ("discarded", pl.Int8)):
                out[column] = pl.Series(column, [None] * n, dtype=dtype)
            return out
        at = np.full(len(rep.structure.round_game), -1, np.int64)
        at[r] = np.arange(n)
        where = at[rep.reveal_round]
        keep = (where >= 0) & rep.reveal_first
        counts = np.bincount(where[keep], minlength=n)
        out["revealed"] = _optional_lists(rep.reveal_rank[keep], counts, opened)
        taken = opened & (rep.winner[r] >= 0)
        out["taken"] = pl.Series(np.where(taken, rep.prize[r], 0)).set(pl.Series(~taken), None)
        gone = opened & (rep.discarded[r] > 0)
        out["discarded"] = pl.Series(rep.discarded[r]).set(pl.Series(~gone), None)
        return out

    @cached_property
    def _comments(self) -> pl.Series:
        """Each kept round's comments, joined by a space (null when it has none)."""
        rep, r = self.rep, self._rounds
        at = np.full(len(rep.structure.round_game), -1, np.int64)
        at[r] = np.arange(len(r))
        owner = rep.structure.comment_round
        texts = rep.tokens.comment
        frame = pl.DataFrame({"at": at[np.maximum(owner, 0)] if len(at) else owner,
                              "owner": owner, "text": texts})
        frame = frame.filter((pl.col("owner") >= 0) & (pl.col("at") >= 0) & (pl.col("text") != ""))
        joined = frame.group_by("at", maintain_order=True).agg(pl.col("text").str.join(" "))
        out = pl.DataFrame({"at": np.arange(len(r))}).join(joined, on="at", how="left",
                                                           maintain_order="left")
        return out["text"]

    def _rejects(self) -> pl.DataFrame:
        """A row per invalid game. The store keeps one copy of a text (the first), so the
        problems are written out only for the first game of each text in the chunk."""
        rep, bad = self.rep, self.invalid_games
        s, t = rep.structure, rep.tokens
        texts = ([self.raw_texts[g] for g in bad] if self.raw_texts is not None else
                 [t.slice_text(int(t.start[s.first[g]]), int(t.end[s.last[g]])) for g in bad])
        ids = [text_id(x) for x in texts]
        first: dict[str, int] = {}
        for i, reject_id in enumerate(ids):
            first.setdefault(reject_id, i)
        shown = bad[list(first.values())]
        problems = self.problems(shown)
        return pl.DataFrame({
            "reject_id": ids,
            "source": pl.repeat(self.source, len(bad), eager=True),
            "source_game": bad + 1 + self.game_offset, "source_line": self.lines[bad],
            "raw_text": texts,
            "errors": errors_column([problems.get(int(g), ()) for g in bad]),
        }, schema=REJECTS_SCHEMA)


class LongGame(ChunkGames):
    """A game too long to read (longer than any window): rejected with the first part of
    its text, unread, under the code ``game-too-long``."""

    def __init__(self, kept: bytes, source: str, line_offset: int, size: int) -> None:
        self.kept = kept.decode("utf-8", "replace")
        self.size = size
        self.source, self.line_offset, self.game_offset, self.limit = source, line_offset, 0, 1
        self._frames = {}
        self.valid_games = np.zeros(0, np.int64)
        self.invalid_games = np.zeros(1, np.int64)

    def problems(self, games: np.ndarray) -> dict[int, list[Problem]]:
        message = (f"this game is {self.size:,} bytes long (a record needs a few thousand); "
                   f"it is not read, and only its first {len(self.kept.encode()):,} bytes "
                   "are kept")
        return {0: [Problem("game-too-long", message, self.line_offset + 1, 1)]}

    def verdicts(self) -> pl.DataFrame:
        errors = [[p.as_dict() for p in self.problems(self.invalid_games)[0]]]
        return pl.DataFrame({
            "source": [self.source], "game": [1], "line": [self.line_offset + 1],
            "players": pl.Series([[]], dtype=pl.List(pl.String)), "valid": [False],
            "finished": [False], "rounds": [0], "scores": pl.Series([[]], dtype=pl.List(pl.Int64)),
            "unclaimed": pl.Series([None], dtype=pl.Int64),
            "winner": pl.Series([None], dtype=pl.String),
            "errors": pl.Series(errors, dtype=ERRORS_DTYPE),
        })

    def _games(self) -> pl.DataFrame:
        return pl.DataFrame(schema=GAMES_SCHEMA)

    def _game_players(self) -> pl.DataFrame:
        return pl.DataFrame(schema=PLAYERS_SCHEMA)

    def _round_rows(self) -> pl.DataFrame:
        return pl.DataFrame(schema=ROUND_ROWS_SCHEMA)

    def _variant_round_rows(self) -> pl.DataFrame:
        return pl.DataFrame(schema=VARIANT_ROUND_ROWS_SCHEMA)

    def _round_takes(self) -> pl.DataFrame:
        return pl.DataFrame(schema=ROUND_TAKES_SCHEMA)

    def game_ids(self) -> pl.Series:
        return pl.Series("game_id", [], dtype=pl.UInt64)

    def _rejects(self) -> pl.DataFrame:
        problem = self.problems(self.invalid_games)[0]
        return pl.DataFrame({
            "reject_id": [text_id(self.kept)], "source": [self.source], "source_game": [1],
            "source_line": [self.line_offset + 1], "raw_text": [self.kept],
            "errors": [[p.as_dict() for p in problem]],
        }, schema=REJECTS_SCHEMA)


class Frames(Mapping[str, pl.DataFrame]):
    """A batch of store frames by table, as a worker hands them over (picklable), with
    the valid games' ids (``game_ids()``) beside them."""

    def __init__(self, tables: dict[str, pl.DataFrame], game_ids: pl.Series) -> None:
        self.tables = tables
        self._game_ids = game_ids

    @classmethod
    def of_reject(cls, text: str, problem: Problem, source: str) -> Frames:
        """A batch holding one reject: a whole file that could not be read as records."""
        rejects = whole_file_rejects(text, problem, source)
        return cls({"games": pl.DataFrame(schema=GAMES_SCHEMA),
                    "game_players": pl.DataFrame(schema=PLAYERS_SCHEMA),
                    "round_rows": pl.DataFrame(schema=ROUND_ROWS_SCHEMA),
                    "rejects": rejects,
                    "variant_round_rows": pl.DataFrame(schema=VARIANT_ROUND_ROWS_SCHEMA),
                    "round_takes": pl.DataFrame(schema=ROUND_TAKES_SCHEMA)},
                   pl.Series("game_id", [], dtype=pl.UInt64))

    def shift(self, games: int) -> None:
        """Count ``source_game`` after the ``games`` games of the batches before."""
        if games:
            for table in ("games", "rejects"):
                self.tables[table] = self.tables[table].with_columns(
                    pl.col("source_game") + games)

    def frames(self) -> Frames:
        return self

    def game_ids(self) -> pl.Series:
        return self._game_ids

    def __getitem__(self, table: str) -> pl.DataFrame:
        return self.tables[table]

    def __iter__(self) -> Iterator[str]:
        return iter(TABLES)

    def __len__(self) -> int:
        return len(TABLES)
