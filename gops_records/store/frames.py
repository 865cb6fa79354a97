"""Replayed games as columnar batches (polars frames shaped like the DuckDB tables).

This is the exact path: one :class:`GameReport` at a time, in Python. It is used for
everything the vectorised fast path does not take (round logs, unusual layouts, games
with problems) and as the reference the fast path is tested against.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import polars as pl

from gops_records.cards import Seat
from gops_records.notation.model import GameRecord, Problem
from gops_records.notation.writer import format_result
from gops_records.validate import GameReport

TAGS_DTYPE = pl.List(pl.Struct({"key": pl.String, "value": pl.String}))
ERRORS_DTYPE = pl.List(pl.Struct({"code": pl.String, "message": pl.String, "line": pl.Int32,
                                  "column": pl.Int32, "round": pl.Int32}))

GAMES_SCHEMA = {
    "game_id": pl.UInt64, "source": pl.String, "source_game": pl.Int32,
    "source_line": pl.Int32, "event": pl.String, "site": pl.String, "date_text": pl.String,
    "round": pl.String, "match": pl.String, "tie_rule": pl.String, "cards": pl.Int8,
    "prize_order": pl.String, "n_players": pl.Int8, "finished": pl.Boolean,
    "rounds_played": pl.Int8, "unclaimed": pl.Int16, "result": pl.String,
    "winner": pl.String, "tags": TAGS_DTYPE, "ties": pl.Int8, "tie_mask": pl.Int16,
    "carried": pl.Int16, "max_pool": pl.Int16,
}
PLAYERS_SCHEMA = {"game_id": pl.UInt64, "seat": pl.String, "player": pl.String,
                  "score": pl.Int16, "outcome": pl.String}
#: What is stored of a round (table ``round_rows``; the ``rounds`` view derives the rest):
#: the winning seat as 0..3 (null on a tie), the pool's cards only when it holds carried
#: ones (null when it is the prize alone).
ROUND_ROWS_SCHEMA = {"game_id": pl.UInt64, "round_no": pl.Int8, "prize": pl.Int8,
                     "carried_in": pl.Int16, "winner": pl.Int8,
                     "pool_carried": pl.List(pl.Int8), "comment": pl.String,
                     "bid_a": pl.Int8, "bid_b": pl.Int8, "bid_c": pl.Int8, "bid_d": pl.Int8}
#: The rounds columns holding the bids of seats A..D.
BID_COLUMNS = ("bid_a", "bid_b", "bid_c", "bid_d")
REJECTS_SCHEMA = {"reject_id": pl.String, "source": pl.String, "source_game": pl.Int32,
                  "source_line": pl.Int32, "raw_text": pl.String, "errors": ERRORS_DTYPE}


def game_key(record: GameRecord) -> str:
    """The text a game's identity is computed from: its tags (but Result) and its cards.

    Comments, layout, suits, the written result and the file it came from do not count,
    so the same game written twice gets the same id: with or without a result (in a
    valid game it can only repeat the replayed points), in a .gops record or a round log
    (which has no result). Tags are sorted by name, rounds are ranks.
    """
    tags = "\x1f".join(f"{k}={v}" for k, v in sorted(record.tags.items()) if k != "Result")
    rounds = ";".join(",".join(str(c.rank) for c in (r.prize, *r.bids)) for r in record.rounds)
    return f"{tags}\x1e{rounds}"


def text_id(text: str) -> str:
    """A stable 16-hex-digit id of a text (a reject's raw text): the first half of its MD5."""
    return hashlib.md5(text.encode("utf-8")).hexdigest()[:16]


def content_id(text: str) -> int:
    """A stable 64-bit id: :func:`text_id`'s 16 hex digits as a number (a game's id)."""
    return int(text_id(text), 16)


def summary(report: GameReport) -> dict[str, int]:
    """A game's tie and pool summary (the games columns ties, tie_mask, carried, max_pool).

    ``carried`` is the value of the prizes carried into a later round: the prizes of the
    tied rounds but a tied last round (its pool is left unclaimed), under the carry rule.
    """
    tied = [r for r in report.rounds if r.winner is None]
    carry = report.profile.tie_rule.value == "carry"
    last = report.profile.cards
    return {
        "ties": len(tied),
        "tie_mask": sum(1 << (r.round_no - 1) for r in tied),
        "carried": sum(r.prize for r in tied if r.round_no < last) if carry else 0,
        "max_pool": max((r.pool_value for r in report.rounds), default=0),
    }


def outcome_of(scores: tuple[int, ...], seat: int) -> str:
    """'win' for the single top score, 'draw' for a shared top score, else 'loss'."""
    top = max(scores)
    if scores[seat] < top:
        return "loss"
    return "win" if scores.count(top) == 1 else "draw"


@dataclass
class Batch:
    """Rows for each table, built game by game, turned into frames by :meth:`frames`."""

    games: dict[str, list] = field(default_factory=lambda: {c: [] for c in GAMES_SCHEMA})
    players: dict[str, list] = field(default_factory=lambda: {c: [] for c in PLAYERS_SCHEMA})
    rounds: dict[str, list] = field(default_factory=lambda: {c: [] for c in ROUND_ROWS_SCHEMA})
    rejects: dict[str, list] = field(default_factory=lambda: {c: [] for c in REJECTS_SCHEMA})

    def __len__(self) -> int:
        return len(self.games["game_id"]) + len(self.rejects["reject_id"])

    def add_game(self, report: GameReport, source: str, source_game: int) -> None:
        rec, out = report.record, report.outcome
        gid = content_id(game_key(rec))
        tags = rec.tags
        g = self.games
        for col, value in (
            ("game_id", gid), ("source", source), ("source_game", source_game),
            ("source_line", rec.line), ("event", tags.get("Event")),
            ("site", tags.get("Site")), ("date_text", tags.get("Date")),
            ("round", tags.get("Round")), ("match", tags.get("Match")),
            ("tie_rule", report.profile.tie_rule.value), ("cards", report.profile.cards),
            ("prize_order", report.profile.prize_order.value),
            ("n_players", report.profile.players), ("finished", report.finished),
            ("rounds_played", len(report.rounds)), ("unclaimed", report.unclaimed),
            ("result", format_result(out.scores) if report.finished else None),
            ("winner", report.winner),
            ("tags", [{"key": k, "value": v} for k, v in tags.items()]),
            *summary(report).items(),
        ):
            g[col].append(value)
        names = report.players
        seats = [Seat.at(i).value for i in range(len(names))]
        p = self.players
        for i, name in enumerate(names):
            p["game_id"].append(gid)
            p["seat"].append(seats[i])
            p["player"].append(name)
            p["score"].append(out.scores[i])
            p["outcome"].append(outcome_of(out.scores, i) if report.finished else None)
        r = self.rounds
        for rnd, rec_round in zip(report.rounds, rec.rounds, strict=True):
            r["game_id"].append(gid)
            r["round_no"].append(rnd.round_no)
            r["prize"].append(rnd.prize)
            r["carried_in"].append(rnd.carried_in)
            r["winner"].append(rnd.winner)
            r["pool_carried"].append(list(rnd.pool_cards) if len(rnd.pool_cards) > 1 else None)
            r["comment"].append(rec_round.comment)
            for i, column in enumerate(BID_COLUMNS):
                r[column].append(rnd.bids[i] if i < len(rnd.bids) else None)

    def add_reject(self, raw_text: str, problems: list[Problem] | tuple[Problem, ...],
                   source: str, source_game: int | None, source_line: int | None) -> None:
        j = self.rejects
        j["reject_id"].append(text_id(raw_text))
        j["source"].append(source)
        j["source_game"].append(source_game)
        j["source_line"].append(source_line)
        j["raw_text"].append(raw_text)
        j["errors"].append([p.as_dict() for p in problems])

    def frames(self) -> dict[str, pl.DataFrame]:
        """One frame per table (games, game_players, round_rows, rejects)."""
        return {
            "games": pl.DataFrame(self.games, schema=GAMES_SCHEMA),
            "game_players": pl.DataFrame(self.players, schema=PLAYERS_SCHEMA),
            "round_rows": pl.DataFrame(self.rounds, schema=ROUND_ROWS_SCHEMA),
            "rejects": pl.DataFrame(self.rejects, schema=REJECTS_SCHEMA),
        }
