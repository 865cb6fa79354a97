"""Round logs: spreadsheet-style CSV or JSON Lines files with one row per round.

Columns (see docs/import.md): ``game``, ``round``, ``prize``, ``bid_a``, ``bid_b`` are
required; ``bid_c`` and ``bid_d`` add players; ``player_a``..``player_d``, ``event``,
``site``, ``date`` (YYYY-MM-DD or YYYY.MM.DD), ``event_round`` (the Round tag: which
game of the event), ``match``, ``tie_rule``, ``cards``, ``prize_order``, ``bid_cards``,
``open_prizes``, ``revealed`` and ``comment`` are optional. Cards are numbers 1-13 or ranks
(A, 2..10, J, Q, K; a trailing suit letter or symbol is ignored).

The two variants of the rules (docs/notation.md) are written as in ``.gops``: a bid of
several cards joins them with ``+`` (``9+4``, ``9C+4C``; in JSON also a list ``[9, 4]``),
and a game with open prizes (its ``open_prizes`` column) gives each round the prizes its
top-up revealed in ``revealed`` (separated by spaces, empty for none; in JSON also a list)
and the prize taken in ``prize`` (``-`` or empty when nobody takes one). The rows become
the same :class:`GameRecord` values the ``.gops`` reader makes, so the one replay checks
both variants; nothing here knows their rules.

A CSV file may separate its fields with commas, semicolons (what spreadsheets write in
many locales) or tabs: the separator that makes the most known column names of the
header row is used. A header that lacks a required column is refused with the header
found and the near matches (``Bid A`` for ``bid_a``); a column named twice is refused too.
In JSON Lines, a value of the wrong type (a list, ``true``, a number for a name, a null
``game``) or a key given twice is a problem of its row's game.

A CSV file whose header has ``game_ref`` was written by ``gops export``: its free-text
cells (names, event, site, round, match, comment) are read exactly, not trimmed, with the
export's escape of cells a spreadsheet would run as formulas undone (:func:`unescape_cell`).

Each game's rows become a :class:`GameRecord`, so round logs are validated by exactly
the same replay as .gops records (:func:`round_log_games`, used by both ``gops import``
and ``gops validate``).
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
from dataclasses import dataclass, field

from gops_records.core.errors import GopsError
from gops_records.core.problems import Problem, Span
from gops_records.games.gops.cards import SEATS, SUIT_BY_TEXT, parse_rank
from gops_records.games.gops.notation.model import Bid, CardToken, GameRecord, RoundRecord, bid_of
from gops_records.games.gops.replay.tags import date_problem

REQUIRED = ("game", "round", "prize", "bid_a", "bid_b")
OPTIONAL = ("bid_c", "bid_d", "player_a", "player_b", "player_c", "player_d", "event", "site",
            "date", "event_round", "match", "best_of", "tie_rule", "cards", "prize_order",
            "bid_cards", "open_prizes", "revealed", "comment")
COLUMNS = REQUIRED + OPTIONAL
#: Columns whose JSON value must be text (a number there is a problem: names are text).
TEXT_COLUMNS = ("player_a", "player_b", "player_c", "player_d", "event", "site", "date",
                "tie_rule", "prize_order", "comment")
#: Field separators a CSV round log may use, the first preferred on a tie.
DELIMITERS = (",", ";", "\t")
#: No round log row needs a longer line; a round log with one is damaged and is refused
#: whole (the CSV and JSON readers would hold it all). ``.gops`` records have no such
#: limit: their reader takes any layout in time linear in its size.
MAX_LINE_BYTES = 1 << 20
_TAG_OF = {"event": "Event", "site": "Site", "date": "Date", "event_round": "Round",
           "match": "Match", "best_of": "BestOf", "tie_rule": "TieRule", "cards": "Cards",
           "prize_order": "PrizeOrder", "bid_cards": "BidCards", "open_prizes": "OpenPrizes"}
#: Columns whose JSON value may be a list of cards, and how the list is written as text.
LIST_COLUMNS = {"bid_a": "+", "bid_b": "+", "bid_c": "+", "bid_d": "+", "revealed": " "}
#: What joins the cards of a bid of several cards.
BID_JOIN = "+"
#: An open-prize round's ``prize`` when nobody takes one (an empty cell says the same).
NO_PRIZE = "-"
SEAT_LETTERS = "abcd"
#: What a cell a spreadsheet would run as a formula starts with (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: What a gops export puts before such a cell, and before one that starts with it (so the
#: escape can be undone): a spreadsheet shows the cell as text.
ESCAPE = "'"
#: The columns of free text (names, event, site, round, match, comment): the ones a gops
#: export escapes, and whose cells it writes exactly (spaces and all).
FREE_TEXT_COLUMNS = ("player_a", "player_b", "player_c", "player_d", "event", "site",
                     "event_round", "match", "comment")
#: The column only a gops export writes: a CSV file with it is read as gops wrote it,
#: its free text unescaped and not trimmed (:func:`unescape_cell`).
EXPORT_MARK = "game_ref"
_DATE_FORMAT = "is not YYYY.MM.DD (write ?? for unknown parts)"


class RoundLogError(GopsError, ValueError):
    """A round log that cannot be read at all (a required column is missing, bad CSV);
    ``line`` is where the reading stopped."""

    code = "round-log"

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


class LineTooLong(RoundLogError):
    """A round log with a line longer than :data:`MAX_LINE_BYTES`."""

    code = "line-too-long"


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
    #: what is wrong with the row itself, as (message, column name or None), e.g. a row
    #: cut short or a JSON value of the wrong type: reported on the row's game
    problems: tuple[tuple[str, str | None], ...] = field(default=())


def escape_cell(text: str) -> str:
    """A free-text cell as a gops export writes it: ``'`` before a cell that starts like
    a formula (:data:`FORMULA_STARTS`) or with ``'``; other cells as they are."""
    return ESCAPE + text if text.startswith((*FORMULA_STARTS, ESCAPE)) else text


def unescape_cell(text: str) -> str:
    """The text :func:`escape_cell` was given: one leading ``'`` dropped when what follows
    it is one that escape_cell adds one before."""
    escaped = text.startswith(ESCAPE) and text[1:].startswith((*FORMULA_STARTS, ESCAPE))
    return text[1:] if escaped else text


def find_long_line(data: bytes, limit: int = MAX_LINE_BYTES) -> tuple[int, int] | None:
    """(line number, length in bytes) of the first line longer than ``limit``, else None.

    Jumps from the last line break in each window of ``limit + 1`` bytes to the next, so
    a normal file costs about one ``rfind`` per ``limit`` bytes.
    """
    pos, size = 0, len(data)
    while size - pos > limit:
        cut = data.rfind(b"\n", pos, pos + limit + 1)
        if cut < 0:
            end = data.find(b"\n", pos)
            return data.count(b"\n", 0, pos) + 1, (size if end < 0 else end) - pos
        pos = cut + 1
    return None


def _card(value: str, line: int, column: int, what: str,
          problems: list[Problem], round_no: int) -> CardToken:
    text = value.strip()
    rank = parse_rank(text)
    if rank is None and len(text) > 1 and text[-1].lower() in SUIT_BY_TEXT:
        rank = parse_rank(text[:-1])
    if rank is None:
        problems.append(Problem("syntax", f"{what} {_short(value)!r} is not a card: write "
                                "1-13 or A, 2-10, J, Q, K", line, column, round_no))
        rank = 0  # kept in its place, unread: the replay reports nothing more about it
    return CardToken(rank, None, Span(line, column, 0, 0))


def _bid(value: str, line: int, column: int, what: str,
         problems: list[Problem], round_no: int) -> Bid:
    """A bid: one card, or several joined by ``+`` (``9+4``, ``9C + 4C``), as the .gops
    reader reads it; how many cards a bid must have is the replay's to check."""
    parts = value.split(BID_JOIN)
    cards = [_card(part, line, column, what, problems, round_no) for part in parts]
    return bid_of(cards, Span(line, column, 0, 0))


def _revealed(value: str, line: int, column: int, problems: list[Problem],
              round_no: int) -> tuple[CardToken, ...]:
    """The prizes an open-prize round's top-up revealed: cards separated by spaces or
    commas (none for an empty value)."""
    return tuple(_card(text, line, column, "revealed prize", problems, round_no)
                 for text in re.split(r"[\s,]+", value.strip()) if text)


def _lines(text: str) -> list[str]:
    """Physical lines split at ``\n`` only, line ends kept (as the csv module counts them)."""
    return io.StringIO(text).readlines()


def _name(cell: str) -> str:
    return cell.strip().lstrip("\ufeff").strip().lower()


def _normal(name: str) -> str:
    """A header name as a column name might be meant: ``Bid A`` -> ``bid_a``."""
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def delimiter_of(header_line: str) -> str:
    """The field separator of a CSV header row: the one of :data:`DELIMITERS` that makes
    the most known column names (near spellings such as ``Bid A`` count), then the most
    fields; a comma when none does better."""
    def score(d: str) -> tuple[int, int]:
        try:
            cells = next(csv.reader([header_line], delimiter=d), [])
        except csv.Error:  # e.g. a stray CR, a huge field: the full read says so
            return -1, 0
        return sum(_normal(_name(c)) in COLUMNS for c in cells), len(cells)

    return max(DELIMITERS, key=lambda d: (score(d), -DELIMITERS.index(d)))


def _check_header(written: list[str], names: list[str]) -> None:
    """Refuse a header that names a column twice or lacks a required one (RoundLogError)."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names, start=1):
        if name and name in seen:
            raise RoundLogError(f"column {name!r} appears twice in the header (fields "
                                f"{seen[name]} and {i}); a round log names each column once")
        seen.setdefault(name, i)
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise RoundLogError(missing_message(missing, written))


def missing_message(missing: list[str], written: list[str]) -> str:
    """What a header lacking ``missing`` is told: the columns found and the near matches."""
    text = ("missing required column" + ("s " if len(missing) > 1 else " ")
            + ", ".join(missing) + "; a round log needs " + ", ".join(REQUIRED))
    shown = [w for w in written if w.strip()]
    text += (". The header has: " + ", ".join(shown)) if shown else ". The header is empty"
    free = [w for w in shown if _name(w) not in COLUMNS]
    hints = []
    for column in missing:
        exact = [w for w in free if _normal(_name(w)) == column]
        close = exact or [w for w in free if _normal(_name(w)) in difflib.get_close_matches(
            column, [_normal(_name(x)) for x in free], n=1, cutoff=0.7)]
        if close:
            hints.append(f"{close[0].strip()!r} -> {column}")
            free.remove(close[0])
    if hints:
        text += "; did you mean " + ", ".join(hints) + "? (rename the header cells)"
    return text


def _rows_from_csv(text: str) -> tuple[list[str], list[_Row]]:
    lines = _lines(text)
    delimiter = delimiter_of(lines[0]) if lines else ","
    try:
        reader = csv.reader(io.StringIO(text), delimiter=delimiter)
        written = next(reader, None)
        if written is None:
            raise RoundLogError("the file is empty: a round log needs a header row with "
                                "the columns " + ", ".join(REQUIRED))
        header = [_name(h) for h in written]
        _check_header(written, header)
        rows = []
        end = reader.line_num
        for record in reader:
            start, end = end, reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            problems = []
            if len(record) != len(header):
                problems.append((f"{len(record)} fields but the header has {len(header)}"
                                 + (" (the row may be cut short)" if len(record) < len(header)
                                    else ""), None))
            values = dict(zip(header, record, strict=False))
            if not values.get("game", "").strip():
                problems.append(("game is empty: every row needs the game it belongs to",
                                 "game"))
            rows.append(_Row(start + 1, "".join(lines[start:end]), values, tuple(problems)))
    except csv.Error as exc:
        raise RoundLogError(f"not readable as CSV: {exc}", reader.line_num or 1) from exc
    return header, rows


class _Object(dict):
    """A JSON object that remembers the keys given more than once."""

    repeated: list[str]


def _object(pairs: list[tuple[str, object]]) -> _Object:
    obj = _Object()
    obj.repeated = []
    for key, value in pairs:
        if key in obj:
            obj.repeated.append(key)
        obj[key] = value
    return obj


def _json_value(key: str, value: object) -> tuple[str, str | None]:
    """A JSON value as the row's text, and what is wrong with its type (None: nothing)."""
    if value is None:
        return "", ("game is null: every row needs the game it belongs to"
                    if key == "game" else None)
    if isinstance(value, list) and key in LIST_COLUMNS and all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in value):
        return LIST_COLUMNS[key].join(map(str, value)), None  # [9, 4] is the bid 9+4
    if isinstance(value, bool | list | dict):
        shown = json.dumps(value, ensure_ascii=False)
        kind = ("true or false" if isinstance(value, bool)
                else "a list" if isinstance(value, list) else "an object")
        return shown, (f"{key} is {kind} ({_short(shown)}): a round log's value is text or "
                       "a number")
    if isinstance(value, int | float) and key in TEXT_COLUMNS:
        return str(value), (f"{key} is the number {value}, but it is text: write it in quotes "
                            f'("{value}") if that is what was meant')
    return str(value), None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole(text: str, problems: list[tuple[str, str | None]], where: str) -> str:
    """``text`` with any lone surrogate (half a character, which JSON can escape as
    ``\\ud800`` and no file or database holds) replaced by U+FFFD, and a problem of the
    row's game saying so."""
    found = _SURROGATE.search(text)
    if found is None:
        return text
    problems.append((f"{where} holds \\u{ord(found.group()):04x}, half of a character (a lone "
                     "surrogate), which is not text: write the whole character",
                     where if where in COLUMNS else None))
    return _SURROGATE.sub("\ufffd", text)


def _json_int(digits: str) -> int | str:
    """A JSON integer; one too long to be a card or a round stays its text (Python refuses
    to convert more than 4,300 digits, and no round log value needs 20)."""
    return int(digits) if len(digits) <= 20 else digits


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _rows_from_jsonl(text: str) -> tuple[list[str], list[_Row]]:
    rows, header = [], []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        unreadable = None
        try:
            obj = json.loads(line, object_pairs_hook=_object, parse_int=_json_int)
        except json.JSONDecodeError as exc:
            unreadable = f"not a JSON object: {exc.msg} (column {exc.colno})"
        except RecursionError:  # hostile nesting ({"game": {"game": ... 100,000 deep)
            unreadable = ("not a round: its JSON is nested too deeply (a round log row is "
                          "one flat object)")
        else:
            if not isinstance(obj, dict):
                unreadable = f"expected a JSON object, got {type(obj).__name__}"
        if unreadable is not None:  # the row is a reject of its own; the others are read
            rows.append(_Row(number, line, {}, ((unreadable, None),)))
            continue
        values: dict[str, str] = {}
        problems: list[tuple[str, str | None]] = []
        repeated = list(obj.repeated)
        for raw_key, value in obj.items():
            key = _whole(str(raw_key), problems, "a key").strip().lower()
            if key in values:
                repeated.append(key)
            text, problem = _json_value(key, value) if key in COLUMNS else (
                "" if value is None else str(value), None)
            values[key] = _whole(text, problems, key)
            if problem:
                problems.append((problem, key))
        for key in dict.fromkeys(repeated):
            problems.append((f"key {key!r} is given twice in this row; only the last value "
                             "would count", key.strip().lower()))
        if "game" not in values:
            problems.append(("this row has no game: every row needs the game it belongs to",
                             None))
        header += [k for k in values if k not in header]
        rows.append(_Row(number, line, values, tuple(problems)))
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise RoundLogError(missing_message(missing, header))
    return header, rows


def read_round_log(text: str, kind: str) -> list[LoggedGame]:
    """Games in a round log's text; ``kind`` is 'csv' or 'jsonl'. Raises RoundLogError."""
    header, rows = _rows_from_csv(text) if kind == "csv" else _rows_from_jsonl(text)
    order = {name: i + 1 for i, name in enumerate(header)}
    groups: dict[str, list[_Row]] = {}
    for row in rows:
        groups.setdefault(row.values.get("game", "").strip(), []).append(row)
    header_line = _lines(text)[0] if kind == "csv" and text else ""
    exported = kind == "csv" and EXPORT_MARK in order  # written by gops export
    return [_game(rows, order, header_line, exported) for rows in groups.values()]


def _date_tag(value: str, line: int, column: int, problems: list[Problem]) -> str | None:
    """The Date tag of a round log's ``date`` value, or None (and a problem stated with the
    round log's own rule, YYYY-MM-DD or YYYY.MM.DD) when it is not a date."""
    tag = value.replace("-", ".")
    problem = date_problem(tag)
    if problem is None:
        return tag
    message = (f"date {value!r} is not YYYY-MM-DD or YYYY.MM.DD (a round log's date; write ?? "
               "for unknown parts)" if problem.endswith(_DATE_FORMAT)
               else problem.replace(f"Date {tag!r}", f"date {value!r}", 1))
    problems.append(Problem("tag-value", message, line, column))
    return None


def _cell(values: dict[str, str], column: str, exported: bool) -> str:
    """A cell's value: trimmed, or in a gops export a free-text cell exactly as it was
    before :func:`escape_cell`."""
    value = values.get(column, "")
    return unescape_cell(value) if exported and column in FREE_TEXT_COLUMNS else value.strip()


def _game(rows: list[_Row], order: dict[str, int], header_line: str,
          exported: bool = False) -> LoggedGame:
    problems: list[Problem] = []
    first = rows[0].values
    tags: dict[str, str] = {}
    players = sum(1 for s in SEAT_LETTERS
                  if any(r.values.get(f"bid_{s}", "").strip() for r in rows))
    players = max(players, 2)
    for i in range(players):
        name = _cell(first, f"player_{SEAT_LETTERS[i]}", exported)
        if name:
            tags[SEATS[i]] = name
        elif i == players - 1 and players > 2:  # as in .gops, the last seat's tag sets
            tags[SEATS[i]] = SEATS[i]           # the number of players
    for column, tag in _TAG_OF.items():
        value = _cell(first, column, exported)
        if value and column == "date":
            value = _date_tag(value, rows[0].line, order[column], problems)
        if value:
            tags[tag] = value
    open_prizes = bool(first.get("open_prizes", "").strip())  # as the OpenPrizes tag
    rounds = []
    for number, row in enumerate(sorted(rows, key=lambda r: _round_no(r)), start=1):
        v = row.values
        for message, column in row.problems:
            problems.append(Problem("syntax", message, row.line, order.get(column, 1)
                                    if column else 1, number))
        if not v:  # a line that could not be read as a row: its one problem says so
            continue
        written = v.get("round", "").strip()
        if written != str(number):
            problems.append(Problem("round-number", f"round {_short(written)!r} is round "
                                    f"{number} of this game (rounds must run 1, 2, 3, ...)",
                                    row.line,
                                    order["round"], number))
        bids = tuple(_bid(v.get(f"bid_{s}", ""), row.line, order.get(f"bid_{s}", 0),
                          f"bid_{s}", problems, number) for s in SEAT_LETTERS[:players])
        comment = _cell(v, "comment", exported) or None
        span = Span(row.line, 1, 0, 0)
        prize_text, revealed_text = v.get("prize", ""), v.get("revealed", "")
        if open_prizes:
            revealed = _revealed(revealed_text, row.line, order.get("revealed", 1), problems,
                                 number)
            taken = None if prize_text.strip() in ("", NO_PRIZE) else _card(
                prize_text, row.line, order["prize"], "prize taken", problems, number)
            rounds.append(RoundRecord(taken, bids, comment, number, span, revealed))
            continue
        if revealed_text.strip():
            problems.append(Problem("syntax", f"revealed {_short(revealed_text)!r} is for games "
                                    "with open prizes: give the game's open_prizes (the size "
                                    "of the row) or leave revealed empty", row.line,
                                    order["revealed"], number))
        prize = _card(prize_text, row.line, order["prize"], "prize", problems, number)
        rounds.append(RoundRecord(prize, bids, comment, number, span))
    raw = header_line + "".join(r.text for r in rows)
    record = GameRecord(tags, tuple(rounds), None, rows[0].line, problems=tuple(problems))
    return LoggedGame(record, raw, rows[0].line)


def _round_no(row: _Row) -> int:
    text = row.values.get("round", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 \
        else 10**6 + row.line


def round_log_games(data: bytes, kind: str, source: str, encoding: str = "utf-8"):
    """Every game of a round log file's bytes, replayed: the
    :class:`~gops_records.games.gops.replay.frames.ChunkGames` both ``gops import`` (its frames) and
    ``gops validate`` (its verdicts) read; None when the file holds no rounds.

    Raises :class:`LineTooLong` or :class:`RoundLogError` when the file cannot be read as
    a round log, and DecodeError when its bytes are not text in ``encoding``.
    """
    from gops_records.core.sources import decode
    from gops_records.games.gops.replay import replay_tokens
    from gops_records.games.gops.replay.frames import ChunkGames
    from gops_records.games.gops.replay.records import record_tokens

    if not data.strip():  # as a .gops file: an empty file holds no games
        return None
    long_line = find_long_line(data)
    if long_line is not None:
        line, size = long_line
        raise LineTooLong(f"{source}: line {line} is {size:,} bytes long (a round log's row "
                          f"never needs more than {MAX_LINE_BYTES:,}); the file is damaged or "
                          "not a round log, so it is quarantined whole", line)
    logged = read_round_log(decode(data, encoding, source), kind)
    if not logged:
        return None
    records = [game.record for game in logged]
    rep = replay_tokens(record_tokens(records))
    extra = {i: list(game.record.problems) for i, game in enumerate(logged)
             if game.record.problems}
    return ChunkGames(rep, source, raw_texts=[game.raw_text for game in logged], extra=extra)
