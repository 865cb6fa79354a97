"""Gin Rummy in the store: what an import keeps, quarantines, skips and replaces."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from gin_play import random_hand
from paths import ROOT

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gin.checking import read_gin
from gops_records.games.gin.notation import write_hands

HERE = Path(__file__).parent
DOCS = ROOT / "docs"
(GAME,) = re.findall(r"```gin-game\n(.*?)```", (DOCS / "gin.md").read_text("utf-8"), re.S)
ISSUE = (HERE / "issue_example.gin").read_text("utf-8")
GAME_SHEET = """\
[Match "Alice-Bruno"] [Game "1"] [A "Alice"] [B "Bruno"]
1. B up 6 B gin v 35 0-60
2. B up 3 A biggin v 79 129-0
169-0
"""


def rows(db: Path, sql: str) -> list[tuple]:
    with reading(db) as con:
        return con.execute(sql).fetchall()


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "game.gin").write_text(GAME, "utf-8")
    (folder / "undercut.gin").write_text(ISSUE.replace('"Alice-Bruno"', '"Other"'), "utf-8")
    return folder


def test_hands_turns_melds_and_games_are_stored(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    summary = import_paths([club], db)
    assert (summary.games_seen, summary.games_new, summary.games_rejected) == (3, 3, 0)
    assert any("hand 1 of game 1 is missing before hand 3" in n for n in summary.notes)
    assert rows(db, "SELECT hand_no, outcome, out_seat, winner_seat, points, out_deadwood, "
                    "opponent_deadwood_before, opponent_deadwood, knock_limit, turns, "
                    "stock_left, upcard_taken FROM gin_hands ORDER BY source, hand_no") == [
        (1, "gin", "B", "B", 60, 0, 35, 35, 6, 2, 31, "B"),
        (2, "big_gin", "A", "A", 129, 0, 79, 79, 3, 3, 30, None),
        (3, "undercut", "A", "B", 26, 2, 17, 1, 7, 7, 26, None)]
    # the undercut: 7♠ laid off onto 4♠ 5♠ 6♠ and 9♦ onto the nines
    assert rows(db, "SELECT seat, kind, cards, laid_off FROM gin_melds m JOIN gin_hands h "
                    "USING (hand_id) WHERE h.hand_no = 3 ORDER BY seat, meld_no") == [
        ("A", "run", ["4♠", "5♠", "6♠"], ["7♠"]), ("A", "set", ["9♠", "9♣", "9♥"], ["9♦"]),
        ("A", "run", ["J♦", "Q♦", "K♦"], []), ("B", "set", ["8♣", "8♦", "8♥"], []),
        ("B", "run", ["2♥", "3♥", "4♥", "5♥"], [])]
    assert rows(db, "SELECT turn_no, seat, draw, taken, discard, out, deadwood_after, "
                    "t.stock_left FROM gin_turns t JOIN gin_hands h USING (hand_id) "
                    "WHERE h.hand_no = 3 AND turn_no IN (1, 3, 7) ORDER BY turn_no") == [
        # 4♠ 5♠ 6♣ J♦ Q♦ K♣ 10♥ beside the nines: 55; K♦ for K♣ makes J♦ Q♦ K♦: 25
        (1, "A", "pass", None, None, None, 55, 31), (3, "A", "stock", "K♦", "K♣", None, 25, 30),
        (7, "A", "stock", "6♠", "6♣", "knock", 2, 26)]
    # the worked game: 169 to Alice, one hand each, no blitz
    assert rows(db, "SELECT match, game_no, recorded, hands, hands_won_a, hands_won_b, "
                    "total_a, total_b, finished, winner, game_score, blitz, reversed "
                    "FROM gin_games") == [
        ("Alice-Bruno", 1, "full", 2, 1, 1, 129, 60, True, "Alice", 169, False, False)]
    assert rows(db, "SELECT player, won, points, deadwood, dealt, took_upcard FROM "
                    "gin_player_hands WHERE hand_no = 1 ORDER BY seat") == [
        ("Alice", False, 0, 35, False, False), ("Bruno", True, 60, 0, True, True)]
    assert rows(db, "SELECT sources FROM imports") == [
        ([str(club / "game.gin"), str(club / "undercut.gin")],)]


def test_a_re_import_adds_nothing_and_skips_unchanged_files(club: Path, tmp_path: Path):
    db = tmp_path / "t.duckdb"
    import_paths([club], db)
    before = {t: rows(db, f"SELECT count(*) FROM {t}") for t in
              ("gin_hands", "gin_turns", "gin_melds", "gin_games", "rejects")}
    again = import_paths([club], db)
    assert (again.games_new, again.games_duplicate, again.files_unchanged) == (0, 3, 2)
    reread = import_paths([club], db, reparse=True)
    assert (reread.games_new, reread.games_duplicate, reread.files_unchanged) == (0, 3, 0)
    assert {t: rows(db, f"SELECT count(*) FROM {t}") for t in before} == before


def test_an_invalid_hand_is_quarantined_with_its_text_and_problems(tmp_path: Path):
    broken = ISSUE.replace("4. B s:8♦ Q♣", "4. B s:8♦ Q♥").replace(  # B does not hold Q♥
        '"Alice-Bruno"', '"Other"')
    (tmp_path / "bad.gin").write_text(GAME + "\n" + broken, "utf-8")
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path / "bad.gin"], db)
    assert (summary.games_new, summary.games_rejected, summary.rejects_new) == (2, 1, 1)
    ((source_game, line, text, errors),) = rows(
        db, "SELECT source_game, source_line, raw_text, errors FROM rejects")
    assert source_game == 3 and text == broken.rstrip("\n")
    assert [(e["code"], e["line"], e["round"]) for e in errors] == [
        ("card-not-in-hand", line + 5, 4)]
    assert summary.rejected[0].startswith(f"{tmp_path / 'bad.gin'}:{line + 5}: card-not-in-hand")


def test_a_sheet_of_stored_hands_is_checked_and_counted_as_duplicate(tmp_path: Path):
    (tmp_path / "game.gin").write_text(GAME, "utf-8")
    (tmp_path / "game.ginsheet").write_text(GAME_SHEET, "utf-8")
    (tmp_path / "wrong.ginsheet").write_text(GAME_SHEET.replace("up 6", "up 7"), "utf-8")
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path / "game.gin"], db)
    summary = import_paths([tmp_path / "game.ginsheet", tmp_path / "wrong.ginsheet"], db)
    assert (summary.games_new, summary.games_duplicate, summary.games_rejected) == (0, 1, 1)
    assert rows(db, "SELECT errors[1].code FROM rejects") == [("sheet-mismatch",)]
    assert rows(db, "SELECT recorded, count(*) FROM gin_hands GROUP BY ALL") == [("full", 2)]


def test_full_hands_replace_the_sheet_lines_stored_before(tmp_path: Path):
    sheet = GAME_SHEET.replace("169-0", "*").replace("2. B up 3 A biggin v 79 129-0\n", "")
    (tmp_path / "game.ginsheet").write_text(sheet, "utf-8")
    (tmp_path / "game.gin").write_text(GAME, "utf-8")
    db = tmp_path / "t.duckdb"
    first = import_paths([tmp_path / "game.ginsheet"], db)
    assert first.games_new == 1
    assert rows(db, "SELECT recorded, hand_no, upcard, upcard_rank FROM gin_hands") == [
        ("sheet", 1, None, 6)]
    assert rows(db, "SELECT recorded, finished, total_b FROM gin_games") == [
        ("sheet", False, 60)]
    second = import_paths([tmp_path / "game.gin"], db)
    assert second.games_new == 2 and not [n for n in second.notes if "mismatch" in n]
    assert rows(db, "SELECT recorded, hand_no FROM gin_hands ORDER BY hand_no") == [
        ("full", 1), ("full", 2)]
    # the finished game from the full hands replaces the unfinished one from the sheet
    assert rows(db, "SELECT recorded, finished, game_score FROM gin_games") == [
        ("full", True, 169)]


def test_a_sheet_line_that_disagrees_with_its_full_record_is_named_when_replaced(tmp_path):
    (tmp_path / "game.ginsheet").write_text(
        GAME_SHEET.replace("B gin v 35 0-60", "B gin v 36 0-61").replace("169-0", "*"),
        "utf-8")
    (tmp_path / "game.gin").write_text(GAME, "utf-8")
    db = tmp_path / "t.duckdb"
    import_paths([tmp_path / "game.ginsheet"], db)
    summary = import_paths([tmp_path / "game.gin"], db)
    (note,) = [n for n in summary.notes if "sheet-mismatch" in n]
    assert note.startswith(f"{tmp_path / 'game.ginsheet'}:2: sheet-mismatch: hand 1 of game 1")
    assert rows(db, "SELECT DISTINCT recorded FROM gin_hands") == [("full",)]


def test_a_big_file_read_in_windows_reads_as_the_whole_file(tmp_path: Path):
    records = []
    for seed in range(40):
        _, record = random_hand(seed)
        match = f"m{seed // 7}"  # matches of several hands, each a window of its own
        records.append(replace(record, tags=(("Match", match), *record.tags)))
    text = write_hands(records)
    whole = [r for b in read_gin(text, "big.gin", window=10_000) for r in b.records]
    batches = list(read_gin(text, "big.gin", window=3))
    assert len(batches) > 3
    parts = [r for b in batches for r in b.records]
    assert [(r.position, r.line, r.raw_text, r.problems) for r in parts] == \
        [(r.position, r.line, r.raw_text, r.problems) for r in whole]
    assert all(len({dict(r.report.record.tags)["Match"] for r in b.records}) >= 1
               and b.records[0].report.record.tag("Match") != batches[i - 1].records[-1]
               .report.record.tag("Match") for i, b in enumerate(batches) if i)


def test_an_undecodable_file_is_quarantined_whole(tmp_path: Path):
    letters = GAME.translate(str.maketrans("♠♣♦♥", "scdh")).replace("Bruno", "Brüno")
    (tmp_path / "latin.gin").write_bytes(letters.encode("latin-1"))
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path / "latin.gin"], db)
    assert (summary.games_rejected, summary.games_new) == (1, 0)
    assert rows(db, "SELECT source_game, errors[1].code FROM rejects") == [(None, "encoding")]
    fixed = import_paths([tmp_path / "latin.gin"], db, encoding="latin-1")
    assert fixed.games_new == 2


@pytest.mark.parametrize("query", re.findall(r"```sql-gin\n(.*?)```",
                                             (DOCS / "schema.md").read_text("utf-8"), re.S))
def test_the_documented_gin_queries_run(club: Path, tmp_path: Path, query: str) -> None:
    db = tmp_path / "t.duckdb"
    import_paths([club], db)
    assert rows(db, query)  # the worked hands have something for every example


def test_random_legal_hands_are_stored_with_their_scores_turns_and_deadwood(tmp_path: Path):
    hands = [random_hand(seed) for seed in range(25)]  # random play reaches the wall
    (tmp_path / "random.gin").write_text(write_hands([r for _, r in hands]), "utf-8")
    (tmp_path / "out.gin").write_text(GAME + "\n" + ISSUE.replace('"Alice-Bruno"', '"x"'),
                                      "utf-8")  # a gin, a big gin, an undercut
    db = tmp_path / "t.duckdb"
    summary = import_paths([tmp_path], db)
    assert (summary.games_new, summary.games_rejected) == (28, 0)
    stored = rows(db, "SELECT source_record, outcome, winner_seat, points, turns, stock_left "
                      "FROM gin_hands WHERE source LIKE '%random.gin' ORDER BY source_record")
    for (position, outcome, winner, points, turns, stock), (hand, record) in zip(
            stored, hands, strict=True):
        result = hand.result
        assert (outcome, points, turns, stock) == (
            result.outcome.value, result.points, len(record.turns), hand.stock_left), position
        assert winner == (result.winner.value if result.winner else None)
    # every turn is stored; the stock counts down by the stock draws
    assert rows(db, "SELECT count(*) FROM gin_turns t JOIN gin_hands h USING (hand_id) WHERE "
                    "h.source LIKE '%random.gin'")[0][0] == sum(len(r.turns) for _, r in hands)
    assert rows(db, "SELECT count(*) FROM gin_turns WHERE out IS NOT NULL") == [(3,)]
    assert rows(db, "SELECT count(*) FROM gin_turns t JOIN gin_hands h USING (hand_id) "
                    "WHERE t.turn_no = h.turns AND t.stock_left <> h.stock_left") == [(0,)]
    # going out keeps no more than the deadwood declared (the best arrangement may be less)
    assert rows(db, "SELECT count(*) FROM gin_turns t JOIN gin_hands h USING (hand_id) "
                    "WHERE t.out IS NOT NULL AND t.deadwood_after > h.out_deadwood") == [(0,)]
    assert rows(db, "SELECT count(*) FROM gin_turns WHERE out IN ('gin', 'big_gin') "
                    "AND deadwood_after <> 0") == [(0,)]
