"""Game lists, the round-by-round game view, imports and rejects."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from gops_records.core.game_refs import parse_game_ids
from gops_records.core.import_log import list_imports, list_source_files
from gops_records.games.gops.analytics import (
    Filters,
    game_detail,
    list_games,
    list_rejects,
)


def test_list_games_newest_first(con):
    out = list_games(con, Filters())
    assert out.columns[:8] == ["game_id", "date", "event", "match", "players", "result",
                               "winner", "rounds_played"]
    assert out.select("source_game", "players", "result", "winner", "rounds_played").rows() == [
        (6, "Ann · Bob · Cid · Dee", "0-0-3-2", "Cid", 3),
        (4, "Ann · Bob · Cid", "3-0-7", "Cid", 4),
        (3, "Ann · Cid", "2-1", "Ann", 4),
        (5, "Bob · Cid", "*", None, 2),        # unfinished
        (1, "Ann · Bob", "4-6", "Bob", 4),
        (2, "Ann · Bob", "7-3", "Ann", 4),
    ]
    assert out["date"][0] == dt.date(2026, 2, 5)


def test_list_games_limit_player_and_filters(con):
    assert list_games(con, Filters(), limit=2)["source_game"].to_list() == [6, 4]
    assert list_games(con, Filters(), player="Cid")["source_game"].to_list() == [6, 4, 3, 5]
    assert list_games(con, Filters(events=("Club",)), player="Cid")["source_game"].to_list() \
        == [3, 5]
    assert list_games(con, Filters(), player="Nobody").height == 0


def test_list_games_says_draw(calm_con):
    assert list_games(calm_con, Filters()).select("result", "winner").rows() == [("3-3", "draw")]


def test_game_detail_round_by_round(con, game_ids):
    detail = game_detail(con, game_ids["G2"])
    assert detail is not None
    h = detail.header
    assert (h["event"], h["site"], h["date"], h["tie_rule"], h["cards"], h["n_players"]) == (
        "Club", "Hall", dt.date(2026, 1, 8), "carry", 4, 2)
    assert (h["result"], h["winner"], h["players"], h["scores"]) == (
        "7-3", "Ann", ["Ann", "Bob"], [7, 3])
    assert h["source"].endswith("club.gops") and h["source_line"] == 7  # its first tag
    assert h["bid_columns"] == ["Ann", "Bob"]
    assert h["tags"]["Match"] == "M1"
    r = detail.rounds
    assert r.columns == ["round_no", "prize", "pool_cards", "pool_value", "carried_in", "Ann",
                         "Bob", "taken_by", "score", "comment"]
    assert r.drop("comment").rows() == [
        (1, 4, "4", 4, 0, 4, 4, "tie", "0-0"),
        (2, 2, "4+2", 6, 4, 1, 1, "tie", "0-0"),
        (3, 1, "4+2+1", 7, 6, 3, 2, "Ann", "7-0"),
        (4, 3, "3", 3, 0, 2, 3, "Bob", "7-3"),
    ]


def test_game_detail_four_players_and_unfinished(con, game_ids):
    four = game_detail(con, game_ids["G6"])
    assert four.header["bid_columns"] == ["Ann", "Bob", "Cid", "Dee"]
    assert four.rounds.select("Ann", "Bob", "Cid", "Dee", "taken_by", "score").rows() == [
        (3, 3, 1, 2, "tie", "0-0-0-0"),
        (1, 2, 3, 1, "Cid", "0-0-3-0"),
        (2, 1, 2, 3, "Dee", "0-0-3-2"),
    ]
    open_game = game_detail(con, game_ids["G5"])
    assert (open_game.header["result"], open_game.header["winner"]) == ("*", None)
    assert open_game.rounds["score"].to_list() == ["0-0", "5-0"]


def test_game_detail_unknown_id(con):
    assert game_detail(con, "0000000000000000") is None


def test_game_detail_keeps_same_named_players_apart(tmp_path):
    from gops_records.core.importer import import_paths
    from gops_records.core.store.db import reading

    path = tmp_path / "twins.gops"
    path.write_text('[A "Kim"] [B "Kim"] [Cards "2"]\n1. A 2 A 2. 2 A 2\n1-2\n', encoding="utf-8")
    import_paths([path], tmp_path / "t.duckdb")
    with reading(tmp_path / "t.duckdb") as con:
        gid = list_games(con, Filters())["game_id"][0]
        detail = game_detail(con, gid)
    assert detail.header["bid_columns"] == ["Kim (A)", "Kim (B)"]
    assert detail.rounds.select("Kim (A)", "Kim (B)", "taken_by").rows() == [
        (2, 1, "Kim"), (1, 2, "Kim")]


def test_imports_and_rejects(con):
    imports = list_imports(con)
    assert imports.height == 1
    row = imports.row(0, named=True)
    assert (row["files"], row["games_new"], row["games_rejected"]) == (2, 6, 1)
    rejects = list_rejects(con)
    assert rejects.columns[:7] == ["import_id", "source", "source_game", "source_line", "codes",
                                   "first_error", "raw_text"]
    assert rejects.columns[7:] == ["n_errors", "reject_id", "errors"]
    bad = rejects.row(0, named=True)
    assert bad["codes"] == "card-not-in-hand, unknown-card"
    assert bad["first_error"] == ("line 2, column 17: Bob (B) bids 2, already spent in round 1 "
                                  "(line 2)")
    assert bad["n_errors"] == 2
    assert bad["errors"] == [
        {"code": "card-not-in-hand",
         "message": "Bob (B) bids 2, already spent in round 1 (line 2)", "line": 2,
         "column": 17, "round": 2},
        {"code": "unknown-card", "message": "Bob (B) bids 9, which is not in a 4-card suit",
         "line": 2, "column": 26, "round": 3},
    ]
    assert bad["raw_text"].startswith('[Event "Club"]') and bad["source"].endswith("broken.gops")
    assert list_rejects(con, limit=0).height == 0


def test_source_files_lists_each_file_read(con, club_db):
    files = list_source_files(con)
    assert files.columns == ["source", "import_id", "bytes", "games", "distinct_games",
                             "rejected", "sha256"]
    rows = {Path(r[0]).name: r[1:6] for r in files.rows()}
    folder = club_db.parent
    assert rows == {"broken.gops": (1, (folder / "broken.gops").stat().st_size, 0, 0, 1),
                    "club.gops": (1, (folder / "club.gops").stat().st_size, 6, 6, 0)}


def test_game_ids_from_links_decimal_or_version_1_hex():
    assert parse_game_ids("12") == [12]
    assert parse_game_ids(" 900150983cd24fb0 ") == [0x900150983CD24FB0]
    assert parse_game_ids("0123456789012345") == [123456789012345, 0x0123456789012345]
    assert parse_game_ids("²") == [] and parse_game_ids("no-such-game") == []
    assert parse_game_ids(str(1 << 64)) == [] and parse_game_ids(-1) == []


def test_game_detail_by_number_text_or_hex(con, game_ids):
    gid = next(iter(game_ids.values()))
    by_number = game_detail(con, gid)
    assert by_number is not None
    assert game_detail(con, str(gid)).header == by_number.header
    assert game_detail(con, f"{gid:016x}").header == by_number.header
    assert game_detail(con, "²") is None
