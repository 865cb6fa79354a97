"""Store frames of Gin Rummy records, built column by column (polars) for a bulk load.

:func:`gin_frames` turns one :class:`~gops_records.games.gin.checking.GinBatch` into the frames
of the ``gin_hands``, ``gin_turns``, ``gin_melds`` and ``gin_games`` tables (docs/schema.md)
and the shared ``rejects`` table: a valid record's rows, an invalid record's reject (its
text and every problem, ``round`` holding the turn, or the sheet's hand). Columns are
gathered as lists and made into frames once, in the tables' column order (``import_id``
and ``date`` are added by the loader, as for Gops games).

A full hand's turns are walked again to fill what the record leaves implicit: the card a
pile draw took when the record does not name it, the stock left, and the least deadwood
the player holds after each turn (the memoised search of :mod:`arrangement`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from gops_records.core.store.frames import REJECTS_SCHEMA, TAGS_DTYPE, errors_column, text_id
from gops_records.games.gin.arrangement import min_deadwood
from gops_records.games.gin.cards import Card, GinSuit, mask_of, parse_cards
from gops_records.games.gin.checking import GinBatch, GinRecord
from gops_records.games.gin.keys import game_id, game_number, hand_id, sheet_line_id
from gops_records.games.gin.melds import as_meld, lay_off
from gops_records.games.gin.notation import DrawKind, OutWord, TurnRecord, write_hand
from gops_records.games.gin.replay import HandReport
from gops_records.games.gin.rules import HandResult, Seat, knock_limit
from gops_records.games.gin.sheet import write_line
from gops_records.games.gin.sheet_check import SheetReport

#: The tables a batch fills, in load order.
GIN_TABLES = ("gin_hands", "gin_turns", "gin_melds", "gin_games", "rejects")

GIN_HANDS_SCHEMA = {
    "hand_id": pl.UInt64, "source": pl.String, "source_record": pl.Int32,
    "source_line": pl.Int32, "recorded": pl.String, "game_id": pl.UInt64,
    "event": pl.String, "site": pl.String, "date_text": pl.String, "match": pl.String,
    "game_no": pl.Int16, "hand_no": pl.Int16, "player_a": pl.String, "player_b": pl.String,
    "dealer": pl.String, "upcard": pl.String, "upcard_rank": pl.Int8,
    "knock_limit": pl.Int8, "runs": pl.String, "finished": pl.Boolean, "outcome": pl.String,
    "out_seat": pl.String, "winner_seat": pl.String, "points": pl.Int16,
    "out_deadwood": pl.Int16, "opponent_deadwood_before": pl.Int16,
    "opponent_deadwood": pl.Int16, "turns": pl.Int16, "stock_left": pl.Int8,
    "pile_draws": pl.Int16, "upcard_taken": pl.String, "raw_text": pl.String,
    "tags": TAGS_DTYPE,
}
GIN_TURNS_SCHEMA = {
    "hand_id": pl.UInt64, "turn_no": pl.Int16, "seat": pl.String, "draw": pl.String,
    "taken": pl.String, "discard": pl.String, "out": pl.String,
    "deadwood_after": pl.Int16, "stock_left": pl.Int8, "comment": pl.String,
}
GIN_MELDS_SCHEMA = {
    "hand_id": pl.UInt64, "seat": pl.String, "meld_no": pl.Int8, "kind": pl.String,
    "cards": pl.List(pl.String), "wraps": pl.Boolean, "laid_off": pl.List(pl.String),
}
GIN_GAMES_SCHEMA = {
    "game_id": pl.UInt64, "source": pl.String, "source_line": pl.Int32,
    "recorded": pl.String, "event": pl.String, "site": pl.String, "date_text": pl.String,
    "match": pl.String, "game_no": pl.Int16, "player_a": pl.String, "player_b": pl.String,
    "first_dealer": pl.String, "hands": pl.Int16, "hands_won_a": pl.Int16,
    "hands_won_b": pl.Int16, "draws": pl.Int16, "total_a": pl.Int16, "total_b": pl.Int16,
    "finished": pl.Boolean, "winner_seat": pl.String, "winner": pl.String,
    "game_score": pl.Int16, "blitz": pl.Boolean, "reversed": pl.Boolean, "tags": TAGS_DTYPE,
}
SCHEMAS = {"gin_hands": GIN_HANDS_SCHEMA, "gin_turns": GIN_TURNS_SCHEMA,
           "gin_melds": GIN_MELDS_SCHEMA, "gin_games": GIN_GAMES_SCHEMA,
           "rejects": REJECTS_SCHEMA}
_OUT_TEXT = {OutWord.KNOCK: "knock", OutWord.GIN: "gin", OutWord.BIG_GIN: "big_gin"}


@dataclass(frozen=True, slots=True)
class TurnState:
    """A turn as played: who, the card taken (a pile draw's filled in), and after it the
    least deadwood of the cards the player holds and the stock left."""

    number: int
    seat: Seat
    turn: TurnRecord
    taken: Card | None
    deadwood: int
    stock_left: int


def walk(report: HandReport, until: int | None = None) -> list[TurnState]:
    """The hand's turns (the first ``until`` of them) walked from its deal: the seats
    alternate from the non-dealer, a pile draw takes the top of the pile, a stock draw
    the card named; the deadwood is the memoised least-deadwood search's."""
    rec, hand = report.record, report.hand
    assert hand is not None
    order = hand.profile.runs
    held = {Seat.A: mask_of(parse_cards(rec.tag("DealA") or "")),
            Seat.B: mask_of(parse_cards(rec.tag("DealB") or ""))}
    pile = [hand.upcard]
    stock = 31
    seat = hand.dealer.other
    states = []
    for number, turn in enumerate(rec.turns[:until], 1):
        taken: Card | None = None
        if turn.draw is DrawKind.STOCK:
            taken, stock = turn.card, stock - 1
        elif turn.draw is DrawKind.PILE and pile:
            taken = pile.pop()
        if taken is not None:
            held[seat] |= 1 << taken
        if turn.discard is not None:
            held[seat] &= ~(1 << turn.discard)
            pile.append(turn.discard)
        states.append(TurnState(number, seat, turn, taken, min_deadwood(held[seat], order),
                                stock))
        seat = seat.other
    return states


class GinFrames(dict):
    """The frames of one batch (a Mapping of table name to frame, as the importer's Gops
    frames are) with the ids of its valid records (:meth:`game_ids`): a full hand's
    ``hand_id``, a sheet's ``game_id``: what a re-import checks is still stored. Each is
    by the record's position in the file in :attr:`positions`."""

    def __init__(self, tables: Mapping[str, pl.DataFrame], ids: pl.Series,
                 positions: dict[int, int]):
        super().__init__(tables)
        self.ids = ids
        self.positions = positions

    def game_ids(self) -> pl.Series:
        return self.ids

    def frames(self) -> GinFrames:
        return self

    @classmethod
    def empty(cls) -> GinFrames:
        return cls({t: pl.DataFrame(schema=s) for t, s in SCHEMAS.items()},
                   pl.Series("game_id", [], dtype=pl.UInt64), {})


class _Columns:
    """Rows of one table gathered column by column."""

    def __init__(self, schema: Mapping[str, pl.DataType]):
        self.schema = schema
        self.data: dict[str, list] = {name: [] for name in schema}

    def add(self, **row) -> None:
        for name, values in self.data.items():
            values.append(row.get(name))

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.data, schema=self.schema)


def _tag_columns(tags: dict[str, str]) -> dict:
    return {"event": tags.get("Event"), "site": tags.get("Site"),
            "date_text": tags.get("Date"), "match": tags.get("Match"),
            "game_no": game_number(tags.get("Game")), "player_a": tags.get("A"),
            "player_b": tags.get("B"), "game_id": game_id(tags)}


def _tag_list(tags) -> list[dict]:
    return [{"key": k, "value": v} for k, v in tags]


def _result_columns(result: HandResult | None) -> dict:
    if result is None:
        return {"finished": False}
    return {"finished": True, "outcome": result.outcome.value,
            "out_seat": result.went_out.value if result.went_out else None,
            "winner_seat": result.winner.value if result.winner else None,
            "points": result.points, "out_deadwood": result.out_deadwood,
            "opponent_deadwood_before": result.defender_before,
            "opponent_deadwood": result.defender_after}


class _Builder:
    def __init__(self, source: str):
        self.source = source
        self.tables = {name: _Columns(schema) for name, schema in SCHEMAS.items()}
        self.rejects: list[GinRecord] = []
        self.ids: list[int] = []
        self.positions: dict[int, int] = {}

    # -- full hands -------------------------------------------------------------------------

    def hand(self, record: GinRecord) -> int:
        report = record.report
        assert isinstance(report, HandReport) and report.hand is not None
        rec, hand, result = report.record, report.hand, report.result
        text = write_hand(rec)
        key = hand_id(rec, text)
        tags = dict(rec.tags)
        order = hand.profile.runs
        walk = self.turns(key, report)
        self.tables["gin_hands"].add(
            hand_id=key, source=self.source, source_record=record.position,
            source_line=record.line, recorded="full", **_tag_columns(tags),
            hand_no=game_number(tags.get("Hand")), dealer=hand.dealer.value,
            upcard=hand.upcard.text, upcard_rank=hand.upcard.rank, knock_limit=hand.limit,
            runs=order.value, **_result_columns(result),
            turns=len(rec.turns), stock_left=hand.stock_left, pile_draws=walk[0],
            upcard_taken=walk[1], raw_text=text, tags=_tag_list(rec.tags))
        if result is not None and result.went_out is not None:
            self.melds(key, report)
        return key

    def turns(self, key: int, report: HandReport) -> tuple[int, str | None]:
        """The hand's turns (``gin_turns``); returns its pile draws and who took the upcard."""
        table = self.tables["gin_turns"]
        pile_draws, upcard_taken = 0, None
        for state in walk(report):
            turn = state.turn
            if turn.draw is DrawKind.PILE:
                pile_draws += 1
                if state.number <= 2:
                    upcard_taken = state.seat.value
            table.add(hand_id=key, turn_no=state.number, seat=state.seat.value,
                      draw=turn.draw.value,
                      taken=state.taken.text if state.taken is not None else None,
                      discard=turn.discard.text if turn.discard is not None else None,
                      out=_OUT_TEXT.get(turn.out) if turn.out is not None else None,
                      deadwood_after=state.deadwood, stock_left=state.stock_left,
                      comment=" ".join(turn.comments) or None)
        return pile_draws, upcard_taken

    def melds(self, key: int, report: HandReport) -> None:
        """The melds spread at the end: the player out's (with what was laid off onto
        each) and the opponent's."""
        hand, rec = report.hand, report.record
        assert hand is not None and hand.went_out is not None
        order = hand.profile.runs
        table = self.tables["gin_melds"]
        response = rec.response
        layoffs = response.layoffs if response is not None else ()
        extended = lay_off(hand.out_melds, layoffs, order) if layoffs else hand.out_melds
        assert extended is not None
        for number, (meld, grown) in enumerate(zip(hand.out_melds, extended, strict=True), 1):
            table.add(hand_id=key, seat=hand.went_out.value, meld_no=number,
                      kind=meld.kind.value, cards=[c.text for c in meld.cards],
                      wraps=meld.wraps,
                      laid_off=[c.text for c in grown.cards if c not in meld.cards])
        if response is None:
            return
        for number, cards in enumerate(response.melds, 1):
            meld = as_meld(cards, order)
            assert meld is not None  # the replay checked it
            table.add(hand_id=key, seat=response.seat.value, meld_no=number,
                      kind=meld.kind.value, cards=[c.text for c in meld.cards],
                      wraps=meld.wraps, laid_off=[])

    def games(self, batch: GinBatch, valid: set[int]) -> None:
        """A row per game of the batch whose hands are all there, valid and replayed."""
        if batch.grouping is None:
            return
        table = self.tables["gin_games"]
        for match in batch.grouping.matches:
            for group in match.games:
                if not group.checked or not all(id(h) in valid for h in group.hands):
                    continue
                first = group.hands[0].record
                tags = dict(first.tags)
                game, score = group.game, group.score
                line = first.span.line if first.span is not None else 1
                offset = next((r.line_offset for r in batch.records
                               if r.report is group.hands[0]), 0)
                self._game_row(table, tags, first.tags, line + offset, "full", game, score)

    def _game_row(self, table: _Columns, tags: dict[str, str], tag_list, line: int,
                  recorded: str, game, score) -> None:
        names = {"A": tags.get("A"), "B": tags.get("B")}
        winner = score.winner.value if score is not None else None
        table.add(source=self.source, source_line=line, recorded=recorded,
                  **_tag_columns(tags), first_dealer=game.first_dealer.value,
                  hands=len(game.hands), hands_won_a=game.hands_won[0],
                  hands_won_b=game.hands_won[1],
                  draws=sum(h.winner is None for h in game.hands), total_a=game.totals[0],
                  total_b=game.totals[1], finished=score is not None, winner_seat=winner,
                  winner=names.get(winner) if winner else None,
                  game_score=score.points if score is not None else None,
                  blitz=score.blitz if score is not None else None,
                  reversed=score.reversed if score is not None else None,
                  tags=_tag_list(tag_list))

    # -- sheets -----------------------------------------------------------------------------

    def sheet(self, record: GinRecord) -> int:
        report = record.report
        assert isinstance(report, SheetReport) and report.game is not None
        sheet = report.record
        tags = dict(sheet.tags)
        key = game_id(tags)
        assert key is not None  # a sheet without Match and Game is not valid
        table = self.tables["gin_hands"]
        runs = report.profile.runs.value
        for number, (line, result) in enumerate(zip(sheet.lines, report.results,
                                                    strict=True), 1):
            text = " ".join([write_line(line, number), *(f"{{{c}}}" for c in line.comments)])
            start = line.where.start.line if line.where is not None else record.line
            table.add(hand_id=sheet_line_id(sheet.tags, line, number), source=self.source,
                      source_record=record.position, source_line=start, recorded="sheet",
                      **_tag_columns(tags), hand_no=number, dealer=line.dealer.value,
                      upcard_rank=line.upcard,
                      knock_limit=knock_limit(Card.of(line.upcard, GinSuit.SPADES)),
                      runs=runs, **_result_columns(result), raw_text=text,
                      tags=_tag_list(sheet.tags))
        self._game_row(self.tables["gin_games"], tags, sheet.tags, record.line, "sheet",
                       report.game, report.score)
        return key

    def reject(self, record: GinRecord) -> None:
        self.rejects.append(record)

    def frames(self) -> GinFrames:
        tables = {name: cols.frame() for name, cols in self.tables.items()
                  if name != "rejects"}
        tables["rejects"] = pl.DataFrame({
            "reject_id": [text_id(r.raw_text) for r in self.rejects],
            "source": [self.source] * len(self.rejects),
            "source_game": [r.position for r in self.rejects],
            "source_line": [r.line for r in self.rejects],
            "raw_text": [r.raw_text for r in self.rejects],
            "errors": errors_column([r.problems for r in self.rejects]),
        }, schema=REJECTS_SCHEMA)
        return GinFrames(tables, pl.Series("game_id", self.ids, dtype=pl.UInt64),
                         self.positions)


def gin_frames(batch: GinBatch) -> GinFrames:
    """The store frames of one batch of records (see the module docstring)."""
    builder = _Builder(batch.source)
    valid: set[int] = set()
    for record in batch.records:
        if not record.valid:
            builder.reject(record)
            continue
        key = builder.hand(record) if record.kind == "hand" else builder.sheet(record)
        builder.ids.append(key)
        builder.positions[record.position] = key
        valid.add(id(record.report))
    builder.games(batch, valid)
    return builder.frames()


__all__ = ["GIN_TABLES", "GinFrames", "SCHEMAS", "TurnState", "gin_frames", "walk"]
