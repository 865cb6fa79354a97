"""A Gin Rummy export is a backup: export then import into a fresh database gives back the
store row for row (hands, turns, melds, games, scores, ids), in .gin and .ginsheet alike,
also when two evenings name their matches alike (`[Match "1"]` in each file)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from paths import ROOT

from gops_records.core.export import export_games
from gops_records.core.importer import import_paths

SAMPLES = ROOT / "gops_records" / "samples"
EVENINGS = ("2026-01-15-thursday-club-gin.gin", "2026-01-22-thursday-club-gin.gin")
#: Where a row came from (which import, file, position, how recorded), not what it says.
PLACE = {"gin_hands": ("import_id", "source", "source_record", "source_line"),
         "gin_games": ("import_id", "source", "source_line"),
         "gin_turns": (), "gin_melds": (), "gin_player_hands": ()}
#: What a sheet line says of a hand (a full hand exported as a sheet keeps these).
SHEET_FACTS = ("game_id", "event", "site", "date", "date_text", "match", "game_no", "hand_no",
               "player_a", "player_b", "dealer", "upcard_rank", "knock_limit", "runs",
               "finished", "out_seat", "winner_seat", "points", "out_deadwood",
               "opponent_deadwood")


def numbered_matches(text: str) -> str:
    """The evening with its matches tagged 1, 2, 3 in the order they first appear."""
    names: dict[str, int] = {}
    return re.sub(r'\[Match "([^"]*)"\]',
                  lambda m: f'[Match "{names.setdefault(m.group(1), len(names) + 1)}"]', text)


def table(db: Path, name: str, columns: tuple[str, ...] | None = None) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        if columns is not None:
            return con.execute(f"SELECT {', '.join(columns)} FROM {name} "
                               "ORDER BY ALL").fetchall()
        kept = [c for (c,) in con.execute(f"SELECT column_name FROM (DESCRIBE {name})")
                .fetchall() if c not in PLACE[name]]
        return con.execute(f"SELECT {', '.join(kept)} FROM {name} ORDER BY ALL").fetchall()


def same_store(first: Path, again: Path) -> None:
    for name in PLACE:
        assert table(again, name) == table(first, name), name


@pytest.fixture(scope="module")
def two_evenings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("evenings")
    for name in EVENINGS:
        (folder / name).write_text(numbered_matches((SAMPLES / name).read_text("utf-8")),
                                   "utf-8")
    db = folder / "store.duckdb"
    summary = import_paths([folder / name for name in EVENINGS], db)
    assert (summary.games_new, summary.games_rejected) == (65, 0)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*), count(DISTINCT match) FROM gin_games")\
            .fetchone() == (12, 3)
    return db


def test_two_evenings_with_the_same_match_names_come_back_from_gin(two_evenings: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "all.gin"
    assert export_games(two_evenings, out, "gin").games == 65
    again = tmp_path / "again.duckdb"
    summary = import_paths([out], again)
    assert (summary.games_new, summary.games_rejected) == (65, 0)
    same_store(two_evenings, again)


def test_two_evenings_with_the_same_match_names_come_back_from_ginsheet(
        two_evenings: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.ginsheet"
    assert export_games(two_evenings, out, "ginsheet").games == 12
    again = tmp_path / "again.duckdb"
    summary = import_paths([out], again)
    assert (summary.games_new, summary.games_rejected) == (12, 0)
    # a sheet keeps the sheet tags (docs/gin.md), not a full hand's Hand, Dealer, DealA...
    games = tuple(c for c in _columns(two_evenings, "gin_games")
                  if c not in (*PLACE["gin_games"], "recorded", "tags"))
    assert table(again, "gin_games", games) == table(two_evenings, "gin_games", games)
    assert table(again, "gin_hands", SHEET_FACTS) == table(two_evenings, "gin_hands",
                                                           SHEET_FACTS)
    # and the sheets beside the full hands add nothing: every game is known
    both = tmp_path / "both.duckdb"
    export_games(two_evenings, tmp_path / "all.gin", "gin")
    summary = import_paths([tmp_path / "all.gin", out], both)
    assert (summary.games_new, summary.games_duplicate, summary.games_rejected) == (65, 12, 0)
    same_store(two_evenings, both)


def _columns(db: Path, name: str) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [c for (c,) in con.execute(f"SELECT column_name FROM (DESCRIBE {name})")
                .fetchall()]


def test_the_bundled_gin_samples_come_back_from_gin_and_ginsheet(tmp_path: Path) -> None:
    files = sorted([*SAMPLES.glob("*.gin"), *SAMPLES.glob("*.ginsheet")])
    for path in files:
        shutil.copy(path, tmp_path / path.name)
    first = tmp_path / "first.duckdb"
    stored = import_paths([tmp_path / p.name for p in files], first)
    assert stored.games_rejected == 10  # quarantine-demo.gin: one hand of each defect
    out = tmp_path / "out"
    out.mkdir()
    hands = export_games(first, out / "all.gin", "gin").games
    sheets = export_games(first, out / "all.ginsheet", "ginsheet").games
    again = tmp_path / "again.duckdb"
    summary = import_paths([out / "all.gin", out / "all.ginsheet"], again)
    assert summary.games_rejected == 0 and summary.games_seen == hands + sheets
    assert sheets == len(table(first, "gin_games", ("game_id",))) > 0
    same_store(first, again)


def _simulated_evening(path: Path, seed: int, games: int, week: int) -> None:
    """A simulated club evening whose matches are tagged by their number alone (1, 2, ...),
    as many clubs write them: every evening has a [Match "1"]."""
    import datetime as dt
    import io

    from gops_records.games.gin.simulate import Budget, write_simulation

    text = io.StringIO()
    write_simulation(text, Budget(games=games), seed,
                     start=dt.date(2025, 1, 6) + dt.timedelta(weeks=week))
    path.write_text(re.sub(r'\[Match "[^"]*#(\d+)\)"\]', r'[Match "\1"]', text.getvalue()),
                    "utf-8")


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seeds=st.lists(st.integers(0, 10_000), min_size=2, max_size=2, unique=True),
       games=st.integers(2, 5))
def test_simulated_evenings_come_back_from_gin_and_ginsheet(seeds: list[int], games: int,
                                                            tmp_path_factory) -> None:
    folder = tmp_path_factory.mktemp("simulated")
    files = [folder / f"evening{week}.gin" for week in range(2)]
    for week, (path, seed) in enumerate(zip(files, seeds, strict=True)):
        _simulated_evening(path, seed, games, week)
    first = folder / "first.duckdb"
    stored = import_paths(files, first)
    assert stored.games_rejected == 0
    export_games(first, folder / "all.gin", "gin")
    again = folder / "again.duckdb"
    summary = import_paths([folder / "all.gin"], again)
    assert (summary.games_new, summary.games_rejected) == (stored.games_new, 0)
    same_store(first, again)
    export_games(first, folder / "all.ginsheet", "ginsheet")
    sheets = folder / "sheets.duckdb"
    summary = import_paths([folder / "all.ginsheet"], sheets)
    assert summary.games_rejected == 0
    assert table(sheets, "gin_hands", SHEET_FACTS) == table(first, "gin_hands", SHEET_FACTS)
