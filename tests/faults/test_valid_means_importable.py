"""Issue 21: any record ``gops validate`` calls valid is stored by ``gops import`` and
shown by every page; one bad record never takes the others down.

Records of every notation (.gops of every variant, CSV and JSON Lines round logs, .gin
full hands, .ginsheet score sheets) are made by the simulators and the writers, then
hypothesis changes their tag values: dates (real, edge, impossible, garbage), numbers
(``Game``, ``Hand``, ``Cards``, ``Round``...) and names with odd unicode. For each file:
the records the library behind ``gops validate`` calls valid are exactly the records the
library behind ``gops import`` stores (into a fresh database), the rest are rejects, and
the queries behind every page (``dashboards/data.py``, ``dashboards/gin_data.py``) and
``gops games`` read the stored games without an exception, their dates as Python dates.
A handful of such databases are then shown page by page in Streamlit's AppTest.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random
import tempfile
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gops_records.core import import_log
from gops_records.core.checking import check_source
from gops_records.core.importer import import_paths
from gops_records.games.gin import analytics as gin_analytics
from gops_records.games.gin.game import GinGame
from gops_records.games.gin.games import find_gin_games
from gops_records.games.gin.notation import write_hand
from gops_records.games.gin.rules import DEFAULT_PROFILE
from gops_records.games.gin.sheet import SheetLine, SheetRecord, write_sheet
from gops_records.games.gin.sheet_check import HandFacts
from gops_records.games.gin.simulate import gin_roster, play_match
from gops_records.games.gops import analytics
from gops_records.games.gops.analytics.filters import Filters
from gops_records.games.gops.games import find_games
from gops_records.games.gops.notation import GameRecord, write_game
from gops_records.games.gops.roundlogs import COLUMNS
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.simulate import roster, simulate_game

NOTATIONS = ("gops", "csv", "jsonl", "gin", "ginsheet")
BASE_TAGS = {"Event": "Thursday club", "Site": "Pub", "Date": "2026.11.26"}

# -- the records before any change ----------------------------------------------------------


@lru_cache(maxsize=1)
def gops_records() -> tuple[GameRecord, ...]:
    """One simulated game of each variant: 2, 3 and 4 players, both tie rules, a fixed
    prize order, a short deck, bids of two cards, open prizes (every bidder taking in the
    last: its .gops record writes each seat's take; a round log has no column for them)."""
    rng = random.Random(21)
    players = roster()
    profiles = [RuleProfile(), RuleProfile(players=3, tie_rule="discard"),
                RuleProfile(players=4, cards=7, prize_order="ascending"),
                RuleProfile(bid_cards=2), RuleProfile(open_prizes=3, cards=9),
                RuleProfile(players=3, bid_cards=3, cards=10),
                RuleProfile(open_prizes=3, cards=9, players=3, open_takes="each")]
    return tuple(simulate_game(p, players[:p.players], rng,
                               {**BASE_TAGS, "Round": str(i + 1), "Match": "M"})
                 for i, p in enumerate(profiles))


def base_records(notation: str) -> tuple:
    """The records a file of ``notation`` is made of: a round log (CSV, JSONL) has no
    column for every bidder's take, so it leaves out the game read with OpenTakes each."""
    if notation == "gin":
        return gin_hands()
    if notation == "ginsheet":
        return gin_sheets()
    if notation == "gops":
        return gops_records()
    return tuple(r for r in gops_records() if r.tags.get("OpenTakes") != "each")


@lru_cache(maxsize=1)
def gin_hands() -> tuple:
    """The hands of one simulated match (games 1, 2, ... to two won games)."""
    return tuple(play_match(gin_roster()[:2], "Alice-Bruno", random.Random(21),
                            tags=tuple(BASE_TAGS.items())))


@lru_cache(maxsize=1)
def gin_sheets() -> tuple[SheetRecord, ...]:
    """The same match kept as score sheets, one a game."""
    games: dict[str, list] = {}
    for played in gin_hands():
        games.setdefault(played.record.tag("Game"), []).append(played)
    sheets = []
    for number, hands in games.items():
        game = GinGame(hands[0].result.dealer, DEFAULT_PROFILE)
        lines = []
        for played in hands:
            facts = HandFacts.of_result(played.result, played.record.tag("Upcard") and
                                        _rank(played.record.tag("Upcard")), "")
            lines.append(SheetLine(facts.dealer, facts.upcard, facts.out, facts.points,
                                   facts.seat, facts.deadwood, facts.opponent))
            game.add(played.result)
        tags = (*BASE_TAGS.items(), ("Match", "Alice-Bruno"), ("Game", number),
                ("A", hands[0].record.tag("A")), ("B", hands[0].record.tag("B")))
        sheets.append(SheetRecord(tags, tuple(lines),
                                  game.score().scores if game.over else None))
    return tuple(sheets)


def _rank(upcard: str) -> int:
    from gops_records.games.gin.cards import parse_card

    return parse_card(upcard).rank


# -- writing them, changed -------------------------------------------------------------------

_COLUMN_OF = {"Event": "event", "Site": "site", "Date": "date", "Round": "event_round",
              "Match": "match", "BestOf": "best_of", "TieRule": "tie_rule", "Cards": "cards",
              "PrizeOrder": "prize_order", "BidCards": "bid_cards", "OpenPrizes": "open_prizes",
              "A": "player_a", "B": "player_b", "C": "player_c", "D": "player_d"}


def _rows(record: GameRecord, game: str) -> list[dict[str, str]]:
    """A game as round-log rows (its tags as the columns, its bids as ranks)."""
    fixed = {_COLUMN_OF[t]: v for t, v in record.tags.items() if t in _COLUMN_OF}
    rows = []
    for number, rnd in enumerate(record.rounds, 1):
        row = {"game": game, "round": str(number), **fixed}
        if rnd.revealed is not None:
            row["revealed"] = " ".join(str(c.rank) for c in rnd.revealed)
            row["prize"] = str(rnd.prize.rank) if rnd.prize is not None else "-"
        else:
            row["prize"] = str(rnd.prize.rank)
        for seat, bid in zip("abcd", rnd.bids, strict=False):
            row[f"bid_{seat}"] = "+".join(str(c.rank) for c in bid.cards)
        rows.append(row)
    return rows


def write_file(notation: str, records: list) -> tuple[str, str]:
    """(file name, text) of ``records`` (of the notation's own kind) in one file."""
    if notation == "gops":
        return "records.gops", "\n".join(write_game(r) for r in records)
    if notation == "gin":
        return "hands.gin", "\n".join(write_hand(r) for r in records)
    if notation == "ginsheet":
        return "sheets.ginsheet", "\n".join(write_sheet(r) for r in records)
    rows = [row for i, r in enumerate(records, 1) for row in _rows(r, str(i))]
    if notation == "jsonl":
        return "rounds.jsonl", "".join(json.dumps(row, ensure_ascii=False) + "\n"
                                       for row in rows)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return "rounds.csv", out.getvalue()


def with_tags(record, changes: dict[str, str]):
    """A record (Gops game, Gin hand or sheet) with some tag values changed."""
    if isinstance(record, GameRecord):
        return replace(record, tags={**record.tags, **changes})
    tags = dict(record.tags)
    tags.update(changes)
    return replace(record, tags=tuple(tags.items()))


# -- what hypothesis changes -----------------------------------------------------------------

EDGE_DATES = ["0000.01.01", "0001.01.01", "0999.12.31", "1000.01.01", "9999.12.31",
              "10000.01.01", "2026.02.29", "2024.02.29", "2026.02.30", "2026.13.01",
              "????.??.??", "2026.??.31", "????.02.29", "2026.11.??", " 2026.11.26 ",
              "2026.1.1", "26/11/2026", "", "２０２６.01.01", "2026.1\u0661.01"]
dates = st.one_of(
    st.sampled_from(EDGE_DATES), st.sampled_from(EDGE_DATES),
    st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)).map(lambda d: f"{d:%Y.%m.%d}"
                                                          if d.year >= 1000 else
                                                          f"{d.year:04d}.{d.month:02d}.{d.day:02d}"),
    st.text("0123456789.?-", max_size=12),
)
numbers = st.one_of(st.integers(0, 40_000).map(str), st.integers(1, 3).map(str),
                    st.sampled_from(["3e9", "9" * 26, "9" * 5000, "\u00b2", "\u0661", "007",
                                     "-1", "32767", "32768", "9999", "10000", ""]))
ODD_NAMES = ["\u202eevil", "\u200b", "e\u0301", "😀", '=HYPERLINK("http://x","y")',
             "\ttab", " lead", "'quote", 'say "hi"', "back\\slash", "new\nline", "ß" * 50,
             "\x00nul", "Ａlice", "\ufeffbom"]
names = st.one_of(st.sampled_from(ODD_NAMES),
                  st.text(st.characters(exclude_categories=("Cs",)), min_size=1,
                          max_size=12))

TAGS = {"gops": ("Date", "Event", "Site", "Round", "Match", "A", "B", "C", "D", "Cards",
                 "BidCards", "OpenPrizes", "BestOf", "OpenTakes", "Result"),
        "gin": ("Date", "Event", "Site", "Match", "Game", "Hand", "A", "B"),
        "ginsheet": ("Date", "Event", "Site", "Match", "Game", "A", "B")}
TAGS["csv"] = TAGS["jsonl"] = TAGS["gops"]
VALUES = {"Date": dates, "Game": numbers, "Hand": numbers, "Cards": numbers,
          "Round": numbers, "BidCards": numbers, "OpenPrizes": numbers, "BestOf": numbers,
          "OpenTakes": st.sampled_from(["winner", "each", "WINNER", "all", ""]),
          "Result": st.one_of(numbers, st.sampled_from(["*", "0-0", "9" * 30 + "-1"]))}


@st.composite
def files(draw, notation: str | None = None) -> tuple[str, str]:
    """A file of one notation: its records, a few of them with changed tag values."""
    notation = notation or draw(st.sampled_from(NOTATIONS))
    base = base_records(notation)
    records = [p.record if hasattr(p, "record") else p for p in base]
    if notation == "gin":  # the first game's hands (and the next game's first)
        records = records[:draw(st.integers(1, min(len(records), 12)))]
    else:
        records = draw(st.lists(st.sampled_from(records), min_size=1, max_size=4))
    changed = []
    for i, record in enumerate(records):
        tags = draw(st.lists(st.sampled_from(TAGS[notation]), max_size=3, unique=True))
        if i == 0:  # the first record always gets a new date and (Gin) game number
            tags = ["Date", *(["Game"] if notation in ("gin", "ginsheet") else []), *tags]
        changes = {t: draw(VALUES.get(t, names)) for t in tags}
        changed.append(with_tags(record, changes))
    return write_file(notation, changed)


# -- the property ----------------------------------------------------------------------------


def verdicts(name: str, data: bytes) -> list[bool]:
    """Whether each record of a file is valid, as the library behind ``gops validate``
    says (Gin sheets checked against the full hands given: none here)."""
    found = []
    for checked in check_source(data, name, notes=[]):
        found += checked.verdicts["valid"].to_list()
    return found


def stored_count(con: duckdb.DuckDBPyConnection, name: str) -> int:
    if name.endswith(".gin"):
        return con.execute("SELECT count(*) FROM gin_hands WHERE recorded = 'full'"
                           ).fetchone()[0]
    if name.endswith(".ginsheet"):
        return con.execute("SELECT count(*) FROM gin_games WHERE recorded = 'sheet'"
                           ).fetchone()[0]
    return con.execute("SELECT count(*) FROM games").fetchone()[0]


def _is_date(value) -> bool:
    return value is None or isinstance(value, dt.date)


def show_gops(con: duckdb.DuckDBPyConnection) -> None:
    """Every query the Gops pages and ``gops games`` make, on all games and on the
    sidebar's date range; every game opened in the viewer."""
    first, last = analytics.date_range(con)
    assert _is_date(first) and _is_date(last), (first, last)
    analytics.list_events(con), analytics.list_matches(con), analytics.list_variants(con)
    players = analytics.list_players(con)
    for f in (Filters(), Filters(date_from=first, date_to=last)):
        analytics.list_players(con, f)
        analytics.overview(con, f)
        analytics.evenings(con, f)
        analytics.standings(con, f)
        analytics.match_results(con, f)
        analytics.best_of_matches(con, f), analytics.best_of_games(con, f)
        analytics.head_to_head(con, f)
        shapes = analytics.game_shapes(con, f)
        for of in (analytics.tie_summary_of, analytics.ties_by_round_of,
                   analytics.tie_streaks_of, analytics.carried_per_game_of,
                   analytics.unclaimed_per_game_of):
            of(shapes)
        analytics.ties_by_pair(con, f)
        analytics.final_ties(con, f)
        analytics.pool_distribution(con, f)
        analytics.largest_pools(con, f)
        analytics.row_choices(con, f)
        analytics.games_by_variant(con, f)
        games = analytics.list_games(con, f)
    for player in players[:2]:
        analytics.list_games(con, Filters(), player=player)
        classic = Filters().only(analytics.CLASSIC)
        if classic is not None:
            analytics.player_bidding(con, classic, player)
        analytics.strength_by_prize(con, Filters(), player)
        analytics.open_row_bids(con, Filters(), player)
    for game_id in games["game_id"].to_list() if "game_id" in games.columns else []:
        assert analytics.game_detail(con, game_id) is not None
    import_log.list_imports(con), import_log.list_source_files(con), analytics.list_rejects(con)
    found, _ = find_games(con)
    assert all(_is_date(g.date) for g in found)


GIN_QUERIES = ("list_players", "overview", "standings", "match_results", "game_results",
               "head_to_head", "game_summary", "hands_per_game", "game_scores",
               "endings_by_limit", "endings_by_player", "seat_effects", "deadwood_caught",
               "caught_by_player", "pile_draw_endings", "pile_takers", "list_hands",
               "undercuts_by_limit", "undercuts_by_deadwood", "knockers", "knock_deadwood",
               "turns_to_out", "turns_distribution")


def show_gin(con: duckdb.DuckDBPyConnection) -> None:
    """Every query the Gin pages and ``gops games --game gin`` make."""
    first, last = gin_analytics.date_range(con)
    assert _is_date(first) and _is_date(last), (first, last)
    gin_analytics.list_events(con), gin_analytics.list_matches(con)
    for f in (gin_analytics.GinFilters(),
              gin_analytics.GinFilters(date_from=first, date_to=last)):
        for name in GIN_QUERIES:
            getattr(gin_analytics, name)(con, f)
    find_gin_games(con)


@lru_cache(maxsize=1)
def empty_db() -> bytes:
    """The bytes of a database with the schema and no games (copied for each example:
    making the schema is most of a small import's time)."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "none").mkdir()
        import_paths([Path(folder) / "none"], Path(folder) / "empty.duckdb")
        return (Path(folder) / "empty.duckdb").read_bytes()


def import_and_show(folder: Path, name: str, text: str) -> tuple[int, int]:
    """Validate then import one file into a fresh database and read it as the pages of
    its game do: (valid records, stored records)."""
    data = text.encode("utf-8")
    valid = verdicts(name, data)
    (folder / name).write_bytes(data)
    db = folder / "t.duckdb"
    db.write_bytes(empty_db())
    summary = import_paths([folder / name], db)
    assert summary.games_rejected == valid.count(False), summary.as_dict()
    assert summary.games_new + summary.games_duplicate == valid.count(True), summary.as_dict()
    with duckdb.connect(str(db), read_only=True) as con:
        stored = stored_count(con, name)
        assert stored == summary.games_new
        (show_gin if name.endswith(("gin", "ginsheet")) else show_gops)(con)
    return valid.count(True), stored


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(files())
def test_what_validates_is_stored_and_shown(file: tuple[str, str]) -> None:
    name, text = file
    with tempfile.TemporaryDirectory() as folder:
        import_and_show(Path(folder), name, text)


@pytest.mark.parametrize("notation", NOTATIONS)
def test_the_unchanged_records_of_every_notation_are_all_valid_and_stored(
        notation: str, tmp_path: Path) -> None:
    base = base_records(notation)
    records = [p.record if hasattr(p, "record") else p for p in base]
    valid, stored = import_and_show(tmp_path, *write_file(notation, records))
    assert valid == len(records) and stored == len(records)


# -- the pages, on a handful of such databases ------------------------------------------------

APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
GOPS_PAGES = ("gops/session.py", "gops/players.py", "gops/ties.py", "gops/h2h.py",
              "gops/game.py", "quality.py")
GIN_PAGES = ("gin/standings.py", "gin/hands.py", "gin/knocks.py")
#: Tag values at the edges of what validates, for the pages: the first and last years, a
#: partly unknown date, names a page must escape or render.
PAGE_CHANGES = [
    {"Date": "1000.01.01", "A": "\u202eevil", "Event": "*bold* <b>x</b>"},
    {"Date": "9999.12.31", "B": "😀 e\u0301", "Match": "[link](http://x)"},
    {"Date": "????.02.29", "Event": "$x$ `code`", "Site": "\\"},
]


def page_db(folder: Path) -> Path:
    """One database holding records of every notation with the edge values."""
    for notation in NOTATIONS:
        base = base_records(notation)
        records = [p.record if hasattr(p, "record") else p for p in base]
        if notation == "gin":
            changed = [with_tags(r, {"Date": "9999.12.31"}) for r in records]
        else:
            changed = [with_tags(r, PAGE_CHANGES[i % len(PAGE_CHANGES)])
                       for i, r in enumerate(records)]
        name, text = write_file(notation, changed)
        assert all(verdicts(name, text.encode())), name
        (folder / name).write_text(text, "utf-8")
    db = folder / "pages.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_rejected == 0
    return db


@pytest.mark.slow
def test_every_page_shows_records_at_the_edges_of_what_validates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    db = page_db(tmp_path)
    monkeypatch.setenv("GOPS_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    for page in (*GOPS_PAGES, *GIN_PAGES):
        at.switch_page(page).run()
        assert not at.exception, (page, [e.message for e in at.exception])


def test_a_lone_surrogate_in_a_json_round_log_is_a_problem_of_its_game(tmp_path: Path) -> None:
    """JSON may escape half a character (``"\\ud800"``), which is no text: it made
    validate and the whole import raise UnicodeEncodeError. It is a problem of its row's
    game; the other games are stored."""
    game, other = (_rows(r, str(i)) for i, r in enumerate(gops_records()[:2], 1))
    for row in game:
        row["player_a"] = "Al\ud800"
    game[0]["\udfffkey"] = "x"
    text = "".join(json.dumps(row) + "\n" for row in game + other)  # ASCII: \ud800 escapes
    assert verdicts("s.jsonl", text.encode()) == [False, True]
    assert import_and_show(tmp_path, "s.jsonl", text) == (1, 1)
