"""Round logs: spreadsheet-style CSV or JSON Lines files with one row per round.

Columns (see docs/import.md): ``game``, ``round``, ``prize``, ``bid_a``, ``bid_b`` are
required; ``bid_c`` and ``bid_d`` add players; ``player_a``..``player_d``, ``event``,
``site``, ``date`` (YYYY-MM-DD or YYYY.MM.DD), ``event_round`` (the Round tag: which
game of the event), ``match``, ``tie_rule``, ``cards``, ``prize_order`` and ``comment``
are optional. Cards are numbers 1-13 or ranks
(A, 2..10, J, Q, K; a trailing suit letter or symbol is ignored).

Each game's rows become a :class:`GameRecord`, so round logs are validated by exactly
the same replay as .gops records.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass

from gops_records.cards import SEATS, SUIT_BY_TEXT, parse_rank
from gops_records.errors import GopsError
from gops_records.notation.model import CardToken, GameRecord, Problem, RoundRecord, Span

REQUIRED = ("game", "round", "prize", "bid_a", "bid_b")
OPTIONAL = ("bid_c", "bid_d", "player_a", "player_b", "player_c", "player_d", "event", "site",
            "date", "event_round", "match", "tie_rule", "cards", "prize_order", "comment")
COLUMNS = REQUIRED + OPTIONAL
_TAG_OF = {"event": "Event", "site": "Site", "date": "Date", "event_round": "Round",
           "match": "Match", "tie_rule": "TieRule", "cards": "Cards",
           "prize_order": "PrizeOrder"}
SEAT_LETTERS = "abcd"


class RoundLogError(GopsError, ValueError):
    """A round log that cannot be read at all (a required column is missing, bad CSV)."""

    code = "round-log"


@dataclass(frozen=True, slots=True)
class LoggedGame:
    """One game read from a round log, with the exact text of its rows."""

    record: GameRecord
    raw_text: str
    line: int


@dataclass(frozen=True, slots=True)
class _Row:
    line: int  # the row's first line (a quoted field may hold line breaks)
    text: str  # the row exactly as written, line ends included
    values: dict[str, str]
    problem: str | None = None  # e.g. a row cut short: reported on the row's game


def _card(value: str, line: int, column: int, what: str,
          problems: list[Problem], round_no: int) -> CardToken:
    text = value.strip()
    rank = parse_rank(text)
    if rank is None and len(text) > 1 and text[-1].lower() in SUIT_BY_TEXT:
        rank = parse_rank(text[:-1])
    if rank is None:
        problems.append(Problem("syntax", f"{what} {value!r} is not a card: write 1-13 or "
                                "A, 2-10, J, Q, K", line, column, round_no))
        rank = 0
    return CardToken(rank, None, Span(line, column, 0, 0))


def _lines(text: str) -> list[str]:
    """Physical lines split at ``\n`` only, line ends kept (as the csv module counts them)."""
    return io.StringIO(text).readlines()


def _rows_from_csv(text: str) -> tuple[list[str], list[_Row]]:
    lines = _lines(text)
    try:
        reader = csv.reader(io.StringIO(text))
        header = next(reader, None)
        if header is None:
            raise RoundLogError("the file is empty: a round log needs a header row with "
                                "the columns " + ", ".join(REQUIRED))
        header = [h.strip().lower().lstrip("\ufeff") for h in header]
        rows = []
        end = reader.line_num
        for record in reader:
            start, end = end, reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            problem = None
            if len(record) != len(header):
                problem = (f"{len(record)} fields but the header has {len(header)}"
                           + (" (the row may be cut short)" if len(record) < len(header)
                              else ""))
            rows.append(_Row(start + 1, "".join(lines[start:end]),
                             dict(zip(header, record, strict=False)), problem))
    except csv.Error as exc:
        raise RoundLogError(f"not readable as CSV: {exc}") from exc
    return header, rows


def _rows_from_jsonl(text: str) -> tuple[list[str], list[_Row]]:
    rows, header = [], []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RoundLogError(f"line {number}: not a JSON object: {exc.msg}") from exc
        except RecursionError:  # hostile nesting ({"game": {"game": ... 100,000 deep)
            raise RoundLogError(f"line {number}: not a round: its JSON is nested too deeply "
                                "(a round log row is one flat object)") from None
        if not isinstance(obj, dict):
            raise RoundLogError(f"line {number}: expected a JSON object, got {type(obj).__name__}")
        values = {str(k).strip().lower(): "" if v is None else str(v) for k, v in obj.items()}
        header += [k for k in values if k not in header]
        rows.append(_Row(number, line, values))
    return header, rows


def read_round_log(text: str, kind: str) -> list[LoggedGame]:
    """Games in a round log's text; ``kind`` is 'csv' or 'jsonl'. Raises RoundLogError."""
    header, rows = _rows_from_csv(text) if kind == "csv" else _rows_from_jsonl(text)
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise RoundLogError("missing required column" + ("s " if len(missing) > 1 else " ")
                            + ", ".join(missing) + "; a round log needs "
                            + ", ".join(REQUIRED))
    order = {name: i + 1 for i, name in enumerate(header)}
    groups: dict[str, list[_Row]] = {}
    for row in rows:
        groups.setdefault(row.values.get("game", "").strip(), []).append(row)
    header_line = _lines(text)[0] if kind == "csv" and text else ""
    return [_game(rows, order, header_line) for rows in groups.values()]


def _game(rows: list[_Row], order: dict[str, int], header_line: str) -> LoggedGame:
    problems: list[Problem] = []
    first = rows[0].values
    tags: dict[str, str] = {}
    players = sum(1 for s in SEAT_LETTERS
                  if any(r.values.get(f"bid_{s}", "").strip() for r in rows))
    players = max(players, 2)
    for i in range(players):
        name = first.get(f"player_{SEAT_LETTERS[i]}", "").strip()
        if name:
            tags[SEATS[i]] = name
        elif i == players - 1 and players > 2:  # as in .gops, the last seat's tag sets
            tags[SEATS[i]] = SEATS[i]           # the number of players
    for column, tag in _TAG_OF.items():
        value = first.get(column, "").strip()
        if value:
            tags[tag] = value.replace("-", ".") if column == "date" else value
    rounds = []
    for number, row in enumerate(sorted(rows, key=lambda r: _round_no(r)), start=1):
        v = row.values
        if row.problem:
            problems.append(Problem("syntax", row.problem, row.line, 1, number))
        written = v.get("round", "").strip()
        if written != str(number):
            problems.append(Problem("round-number", f"round {written!r} is round {number} of "
                                    "this game (rounds must run 1, 2, 3, ...)", row.line,
                                    order["round"], number))
        prize = _card(v.get("prize", ""), row.line, order["prize"], "prize", problems, number)
        bids = tuple(_card(v.get(f"bid_{s}", ""), row.line, order.get(f"bid_{s}", 0),
                           f"bid_{s}", problems, number) for s in SEAT_LETTERS[:players])
        comment = v.get("comment", "").strip() or None
        rounds.append(RoundRecord(prize, bids, comment, number, Span(row.line, 1, 0, 0)))
    raw = header_line + "".join(r.text for r in rows)
    record = GameRecord(tags, tuple(rounds), None, rows[0].line, problems=tuple(problems))
    return LoggedGame(record, raw, rows[0].line)


def _round_no(row: _Row) -> int:
    text = row.values.get("round", "").strip()
    return int(text) if text.isdigit() else 10**6 + row.line
