"""Round logs (CSV and JSON Lines, one row per round) read into games and imported."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from paths import ROOT

from gops_records.core.importer import import_paths
from gops_records.core.store.db import reading
from gops_records.games.gops.replay import read_chunk
from gops_records.games.gops.replay.frames import ChunkGames
from gops_records.games.gops.roundlogs import RoundLogError, read_round_log, round_log_games

# The 3-card game 2-4 written with numbers, ranks and suits mixed, dated YYYY-MM-DD,
# and the same players' second game (B takes the A and the 2, A the 3: a 3-3 draw) dated
# YYYY.MM.DD, whose last comment holds a line break.
CSV = """game,round,prize,bid_a,bid_b,player_a,player_b,event,date,cards,tie_rule,comment
g1,1,2,3,1,Ann,Bob,Club,2026-11-26,3,carry,A takes the 2
g1,2,3,A,2,Ann,Bob,Club,2026-11-26,3,carry,
g1,3,A,2s,3♠,Ann,Bob,Club,2026-11-26,3,carry,
g2,1,1,1,2,Ann,Bob,Club,2026.11.27,3,carry,
g2,2,2,2,3,Ann,Bob,Club,2026.11.27,3,carry,
g2,3,3,3,1,Ann,Bob,Club,2026.11.27,3,carry,"two
lines"
"""


def _import(tmp_path: Path, name: str, text: str | bytes, **kwargs):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    db = tmp_path / "t.duckdb"
    return import_paths([path], db, **kwargs), db


def _rows(db: Path, sql: str) -> list[tuple]:
    with reading(db) as con:
        return con.execute(sql).fetchall()


def test_csv_numbers_ranks_suits_and_both_date_forms(tmp_path: Path) -> None:
    summary, db = _import(tmp_path, "log.csv", CSV)
    assert (summary.games_new, summary.games_rejected) == (2, 0)
    rows = _rows(db, "SELECT source_game, source_line, date, date_text, event, result, winner, "
                     "map_from_entries(tags) FROM games ORDER BY source_game")
    assert rows == [
        (1, 2, date(2026, 11, 26), "2026.11.26", "Club", "2-4", "Bob",
         {"A": "Ann", "B": "Bob", "Event": "Club", "Date": "2026.11.26", "TieRule": "carry",
          "Cards": "3"}),
        (2, 5, date(2026, 11, 27), "2026.11.27", "Club", "3-3", None,
         {"A": "Ann", "B": "Bob", "Event": "Club", "Date": "2026.11.27", "TieRule": "carry",
          "Cards": "3"}),
    ]
    assert _rows(db, "SELECT round_no, prize, winner_seat, comment FROM rounds "
                     "ORDER BY game_id = (SELECT game_id FROM games WHERE source_game = 2), "
                     "round_no") == [
        (1, 2, "A", "A takes the 2"), (2, 3, "B", None), (3, 1, "B", None),
        (1, 1, "B", None), (2, 2, "B", None), (3, 3, "A", "two\nlines")]


def test_only_required_columns_and_unnamed_players(tmp_path: Path) -> None:
    text = "round,bid_b,prize,game,bid_a\n1,1,2,x,3\n2,2,3,x,1\n3,3,1,x,2\n"
    summary, db = _import(tmp_path, "min.csv", text)
    # no Cards column: a 13-card game with 3 of its rounds played, so unfinished
    assert (summary.games_new, summary.games_rejected) == (1, 0)
    assert _rows(db, "SELECT cards, finished, result, winner, map_from_entries(tags) "
                     "FROM games") == [
        (13, False, None, None, {})]
    assert _rows(db, "SELECT seat, player, score, outcome FROM game_players ORDER BY seat") == [
        ("A", "A", 2, None), ("B", "B", 4, None)]


def test_three_player_log(tmp_path: Path) -> None:
    text = ("game,round,prize,bid_a,bid_b,bid_c,player_a,player_b,player_c,cards\n"
            "1,1,A,3,3,A,Ann,Bob,Cy,3\n1,2,2,2,A,3,Ann,Bob,Cy,3\n1,3,3,A,2,2,Ann,Bob,Cy,3\n")
    summary, db = _import(tmp_path, "three.csv", text)
    assert summary.games_new == 1
    # round 1 ties at 3 (the ace carries), Cy takes A+2 with the 3, round 3 ties: 3 unclaimed
    assert _rows(db, "SELECT n_players, result, unclaimed, winner FROM games") == [
        (3, "0-0-3", 3, "Cy")]
    assert _rows(db, "SELECT seat, bid, won FROM bids WHERE round_no = 2 ORDER BY seat") == [
        ("A", 2, False), ("B", 1, False), ("C", 3, True)]


def test_unnamed_third_seat_gets_its_letter_as_in_gops(tmp_path: Path) -> None:
    text = ("game,round,prize,bid_a,bid_b,bid_c,cards\n"
            "1,1,1,3,3,1,3\n1,2,2,2,1,3,3\n1,3,3,1,2,2,3\n")
    (game,) = read_round_log(text, "csv")
    assert game.record.tags == {"C": "C", "Cards": "3"}
    assert game.record.players == ["A", "B", "C"]


@pytest.mark.parametrize("column", ["game", "round", "prize", "bid_a", "bid_b"])
def test_a_log_without_a_required_column_is_rejected_naming_it(tmp_path: Path,
                                                                column: str) -> None:
    lines = CSV.splitlines(keepends=True)
    names = lines[0].rstrip("\n").split(",")
    i = names.index(column)
    text = "".join(",".join(c for j, c in enumerate(line.rstrip("\n").split(","))
                            if j != i) + "\n" for line in lines[:4])
    with pytest.raises(RoundLogError, match=f"missing required column {column};"):
        read_round_log(text, "csv")
    summary, db = _import(tmp_path, "cut.csv", text)
    assert (summary.games_new, summary.games_rejected) == (0, 1)
    assert any(column in note for note in summary.notes)
    ((raw, errors),) = _rows(db, "SELECT raw_text, errors FROM rejects")
    assert raw == text
    assert errors[0]["code"] == "round-log" and column in errors[0]["message"]


def test_jsonl_numbers_ranks_and_optional_nulls(tmp_path: Path) -> None:
    rows = [
        {"game": 7, "round": 1, "prize": 2, "bid_a": 3, "bid_b": "A", "player_a": "Ann",
         "player_b": "Bob", "cards": 3, "date": "2026-11-26", "comment": None},
        {"game": 7, "round": 2, "prize": "3", "bid_a": 1, "bid_b": "2", "player_a": "Ann",
         "player_b": "Bob", "cards": 3, "date": "2026-11-26", "comment": "line\u2028sep"},
        {"game": 7, "round": 3, "prize": "A", "bid_a": 2, "bid_b": 3, "player_a": "Ann",
         "player_b": "Bob", "cards": 3, "date": "2026-11-26"},
    ]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    summary, db = _import(tmp_path, "log.jsonl", text)
    assert (summary.games_new, summary.games_rejected) == (1, 0)
    assert _rows(db, "SELECT date, result, winner FROM games") == [
        (date(2026, 11, 26), "2-4", "Bob")]
    assert _rows(db, "SELECT comment FROM rounds ORDER BY round_no") == [
        (None,), ("line\u2028sep",), (None,)]


def test_jsonl_line_that_is_not_json_is_a_reject_of_its_own(tmp_path: Path) -> None:
    text = ('{"game": 1, "round": 1, "prize": 2, "bid_a": 3, "bid_b": 1}\n'
            '{"game": 1, "round": 2, "prize": 3, "bid_a"')  # cut short
    summary, db = _import(tmp_path, "cut.jsonl", text)
    assert (summary.games_new, summary.games_rejected) == (1, 1)  # game 1's readable round
    ((raw, errors),) = _rows(db, "SELECT raw_text, errors FROM rejects")
    assert raw == '{"game": 1, "round": 2, "prize": 3, "bid_a"'
    assert [(e["line"], e["code"]) for e in errors] == [(2, "syntax")]
    assert errors[0]["message"].startswith("not a JSON object")


def test_csv_bom_and_crlf_rows_are_kept_verbatim(tmp_path: Path) -> None:
    text = CSV.replace("\n", "\r\n")
    summary, db = _import(tmp_path, "crlf.csv", b"\xef\xbb\xbf" + text.encode())
    assert (summary.games_new, summary.games_rejected) == (2, 0)
    assert _rows(db, "SELECT comment FROM rounds WHERE comment LIKE 'two%'") == [
        ("two\r\nlines",)]


def test_broken_game_is_rejected_alone_with_its_rows_verbatim(tmp_path: Path) -> None:
    # g2's round 2 reuses the prize 1 and its last row was cut short: both are reported
    # with their line and column; g1 is imported.
    lines = CSV.replace("\n", "\r\n").splitlines(keepends=True)
    lines[5] = "g2,2,1,2,3,Ann,Bob,Club,2026.11.27,3,carry,\r\n"
    lines[6] = "g2,3,3,3\r\n"
    text = "".join(lines[:7])
    summary, db = _import(tmp_path, "broken.csv", text)
    assert (summary.games_new, summary.games_rejected) == (1, 1)
    ((raw, line, game, errors),) = _rows(
        db, "SELECT raw_text, source_line, source_game, errors FROM rejects")
    assert raw == lines[0] + "".join(lines[4:7])
    assert (line, game) == (5, 2)
    found = {(e["code"], e["line"], e["column"], e["round"]) for e in errors}
    assert ("prize-repeated", 6, 3, 2) in found
    assert ("syntax", 7, 1, 3) in found
    assert any("4 fields but the header has 12" in e["message"] for e in errors)


def test_a_bad_card_names_row_and_column(tmp_path: Path) -> None:
    text = "game,round,prize,bid_a,bid_b\n1,1,2,14,1\n"
    (game,) = read_round_log(text, "csv")
    (problem,) = game.record.problems
    assert (problem.code, problem.line, problem.column, problem.round) == ("syntax", 2, 4, 1)
    assert "bid_a '14' is not a card" in problem.message


# -- headers, separators, types: problems a spreadsheet or a script makes ----------------


def test_a_semicolon_separated_log_is_read_like_a_comma_separated_one(tmp_path: Path) -> None:
    text = CSV.replace(",", ";").replace("A takes the 2", "A takes the 2, then the 3")
    summary, db = _import(tmp_path, "semi.csv", text)
    assert (summary.games_new, summary.games_rejected) == (2, 0)
    assert _rows(db, "SELECT result FROM games ORDER BY source_game") == [("2-4",), ("3-3",)]
    assert _rows(db, "SELECT comment FROM rounds WHERE comment LIKE 'A takes%'") == [
        ("A takes the 2, then the 3",)]


def test_missing_columns_list_the_header_and_the_near_matches() -> None:
    text = "Game;Round;Prize;Bid A;Bid B;Comment\n1;1;2;3;1;x\n"
    with pytest.raises(RoundLogError) as caught:
        read_round_log(text, "csv")
    message = str(caught.value)
    assert message.startswith("missing required columns bid_a, bid_b; a round log needs game, "
                              "round, prize, bid_a, bid_b.")
    assert "The header has: Game, Round, Prize, Bid A, Bid B, Comment" in message
    assert "did you mean 'Bid A' -> bid_a, 'Bid B' -> bid_b?" in message
    with pytest.raises(RoundLogError, match="did you mean 'prizes' -> prize"):
        read_round_log("game,round,prizes,bid_a,bid_b\n1,1,2,3,1\n", "csv")


def test_a_column_named_twice_rejects_the_file(tmp_path: Path) -> None:
    text = "game,round,prize,bid_a,bid_b,bid_a\n1,1,2,3,1,2\n"
    with pytest.raises(RoundLogError, match=r"column 'bid_a' appears twice in the header "
                                            r"\(fields 4 and 6\)"):
        read_round_log(text, "csv")
    summary, db = _import(tmp_path, "twice.csv", text)
    assert (summary.games_new, summary.games_rejected) == (0, 1)
    assert _rows(db, "SELECT errors[1].code FROM rejects") == [("round-log",)]


def _jsonl_game(**changes) -> str:
    rows = [{"game": 1, "round": r, "prize": p, "bid_a": a, "bid_b": b, "player_a": "Ann",
             "player_b": "Bob", "event": "Club", "cards": 3}
            for r, p, a, b in ((1, 2, 3, 1), (2, 3, 1, 2), (3, 1, 2, 3))]
    rows[1].update(changes)
    return "".join(json.dumps(r) + "\n" for r in rows)


@pytest.mark.parametrize(("changes", "column", "words"), [
    ({"event": ["x"]}, 8, "event is a list ([\"x\"]): a round log's value is text or a number"),
    ({"player_a": 123}, 6, "player_a is the number 123, but it is text"),
    ({"game": None}, 1, "game is null: every row needs the game it belongs to"),
    ({"cards": True}, 9, "cards is true or false (true)"),
])
def test_a_json_value_of_the_wrong_type_is_a_problem_not_stored(
        tmp_path: Path, changes: dict, column: int, words: str) -> None:
    summary, db = _import(tmp_path, "typed.jsonl", _jsonl_game(**changes))
    assert summary.games_new == 0 and summary.games_rejected >= 1
    errors = [e for (errs,) in _rows(db, "SELECT errors FROM rejects") for e in errs]
    found = [e for e in errors if words in e["message"]]
    assert found, errors
    assert (found[0]["code"], found[0]["line"], found[0]["column"]) == ("syntax", 2, column)


def test_a_json_key_given_twice_is_a_problem(tmp_path: Path) -> None:
    text = _jsonl_game().splitlines(keepends=True)
    text[1] = text[1].replace('"bid_a": 1', '"bid_a": 1, "bid_a": 3')
    (game,) = read_round_log("".join(text), "jsonl")
    assert [p.message for p in game.record.problems] == [
        "key 'bid_a' is given twice in this row; only the last value would count"]


def test_the_round_log_date_rule_is_stated_in_its_own_words(tmp_path: Path) -> None:
    text = CSV.replace("2026-11-26", "26/11/2026", 1)
    (first, _) = read_round_log(text, "csv")
    (problem,) = first.record.problems
    assert (problem.code, problem.line, problem.column) == ("tag-value", 2, 9)
    assert problem.message == ("date '26/11/2026' is not YYYY-MM-DD or YYYY.MM.DD (a round "
                               "log's date; write ?? for unknown parts)")
    summary, db = _import(tmp_path, "dated.csv", CSV.replace("2026-11-26", "2026-13-26"))
    (errors,) = [e for (e,) in _rows(db, "SELECT errors FROM rejects")]
    # one problem, in the round log's terms: not also the .gops rule's "Date '2026.13.26'"
    assert [e["message"] for e in errors] == [
        "date '2026-13-26' has no month 13 (months are 01 to 12)"]


# -- the two variants: bids of several cards and open prizes -------------------------------

DOCS = ROOT / "docs"


def _doc_blocks(doc: str, fence: str) -> list[str]:
    return re.findall(rf"```{fence}\n(.*?)```", (DOCS / doc).read_text("utf-8"), re.DOTALL)


def _ids(chunk) -> list[int]:
    return chunk.game_ids().to_list()


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_the_docs_variant_logs_are_the_notation_worked_games(tmp_path: Path, kind: str) -> None:
    (text,) = _doc_blocks("import.md", f"{kind} variants")
    worked = [b for b in _doc_blocks("notation.md", "gops")
              if "Alice" in b and ("BidCards" in b or "OpenPrizes" in b)]
    assert len(worked) == 2
    from_gops = [_ids(ChunkGames(read_chunk(b.encode()), "n.gops"))[0] for b in worked]
    logged = round_log_games(text.encode(), kind, f"log.{kind}")
    assert logged.valid.tolist() == [True, True]
    assert _ids(logged) == from_gops  # the same games, so the same ids
    summary, db = _import(tmp_path, f"log.{kind}", text)
    assert (summary.games_new, summary.games_rejected) == (2, 0)
    assert _rows(db, "SELECT bid_cards, open_prizes, result, unclaimed FROM games "
                     "ORDER BY source_game") == [(2, None, "4-7", 0), (1, 3, "9-4", 2)]
    assert _rows(db, "SELECT round_no, cards_a, cards_b, bid_a, bid_b, winner_seat FROM rounds "
                     "JOIN games USING (game_id) WHERE bid_cards = 2 ORDER BY round_no") == [
        (1, [7, 1], [6, 2], 8, 8, None), (2, [3, 2], [7, 1], 5, 8, "B"),
        (3, [6, 5], [5, 4], 11, 9, "A")]
    assert _rows(db, "SELECT round_no, revealed, taken, discarded, pool_cards FROM rounds "
                     "JOIN games USING (game_id) WHERE open_prizes = 3 ORDER BY round_no") == [
        (1, [4, 1, 5], 5, None, [4, 1, 5]), (2, [2], None, 2, [4, 1, 2]),
        (3, [3], 4, None, [4, 1, 3]), (4, [], 3, None, [1, 3]), (5, [], 1, None, [1])]


def _problems(text: str, kind: str = "csv") -> list[tuple[str, int, int, str]]:
    chunk = round_log_games(text.encode(), kind, f"x.{kind}")
    found = chunk.problems(chunk.invalid_games)
    return [(p.code, p.line, p.column, p.message) for g in sorted(found) for p in found[g]]


def test_bids_of_several_cards_problems_name_row_and_column() -> None:
    text = ("game,round,prize,bid_a,bid_b,cards,bid_cards\n"
            "1,1,3,5,4+2,5,2\n"       # A bids one card
            "1,2,5,3+3,4+1,5,2\n"     # A bids the 3 twice, B the 4 again
            "1,3,1,5+2,3+5,5,2\n")    # a third round of a 5-card game of pairs
    assert [(c, line, col) for c, line, col, _ in _problems(text)] == [
        ("bid-count", 2, 4), ("bid-card-repeated", 3, 4), ("card-not-in-hand", 3, 5),
        ("too-many-rounds", 4, 1)]
    messages = [m for *_, m in _problems(text)]
    assert messages[0] == 'A bids 1 card (5); a bid in this game is 2 cards ([BidCards "2"])'
    assert messages[2] == "B bids 4, already spent in round 1 (line 2)"
    # the same bid of several cards in a classic game: bids there are one card
    classic = "game,round,prize,bid_a,bid_b,cards\n1,1,3,5,4+2,5\n"
    assert [(c, line, col) for c, line, col, _ in _problems(classic)] == [("bid-count", 2, 5)]


def test_open_prize_problems_name_row_and_column() -> None:
    text = ("game,round,revealed,prize,bid_a,bid_b,cards,open_prizes,tie_rule\n"
            "1,1,4 1,4,3,2,5,3,discard\n"     # reveals 2 of the 3 the row needs
            "1,2,4 2,-,4,4,5,3,discard\n"     # reveals the 4 again
            "1,3,5,3,5,1,5,3,discard\n")      # takes the 3, never revealed
    found = _problems(text)
    # the repeated 4 does not join the row, so round 3's top-up is one prize short too
    assert [(c, line, col) for c, line, col, _ in found] == [
        ("reveal-count", 2, 1), ("prize-repeated", 3, 3), ("reveal-count", 4, 1),
        ("prize-not-in-row", 4, 4)]
    assert found[-1][3] == "A takes 3, which is not in the row (A 5)"
    ties = ("game,round,revealed,prize,bid_a,bid_b,cards,open_prizes\n"
            "1,1,3 1,3,4,4,4,2\n"   # a tie, but a prize taken
            "1,2,4,,1,3,4,2\n")     # B wins, but nobody takes a prize (an empty cell)
    assert [(c, line, col) for c, line, col, _ in _problems(ties)] == [
        ("take-mismatch", 2, 4), ("take-mismatch", 3, 1)]


def test_revealed_prizes_in_a_classic_game_are_a_problem() -> None:
    text = "game,round,revealed,prize,bid_a,bid_b,cards\n1,1,2 3,2,3,1,3\n"
    (game,) = read_round_log(text, "csv")
    (problem,) = game.record.problems
    assert (problem.code, problem.line, problem.column) == ("syntax", 2, 3)
    assert problem.message.startswith("revealed '2 3' is for games with open prizes")


@pytest.mark.parametrize("value", [[9, [4]], [True, 4], [{"rank": 9}]])
def test_a_json_bid_list_holds_cards_only(value: list) -> None:
    row = {"game": 1, "round": 1, "prize": 2, "bid_a": value, "bid_b": [3, 1],
           "bid_cards": 2}
    (game,) = read_round_log(json.dumps(row) + "\n", "jsonl")
    problems = game.record.problems
    assert {(p.code, p.line, p.column) for p in problems} == {("syntax", 1, 4)}
    assert any("bid_a is a list" in p.message for p in problems)
