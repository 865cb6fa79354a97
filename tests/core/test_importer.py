"""The importer: what lands in each table, and every kind of bad input.

Bad input never crashes the import and never loses a record: each broken record is
quarantined in ``rejects`` exactly as written, with every problem and where it is.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from core.store.gamefiles import SMALL, club_game, counts, run_python

from gops_records.core.importer import import_paths
from gops_records.core.sources import SourceError
from gops_records.core.store.db import reading
from gops_records.games.gops.replay.chunks import KEPT_BYTES
from gops_records.games.gops.roundlogs import find_long_line

LATIN1 = '[Event "Frühjahr"]\n[A "José"]\n[B "Müller"]\n[Cards "3"]\n\n' + SMALL.split("\n\n")[1]


def _rows(db: Path, sql: str) -> list[tuple]:
    with reading(db) as con:
        return con.execute(sql).fetchall()


def _import(tmp_path: Path, files: dict[str, str | bytes], **kwargs):
    for name, content in files.items():
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    db = tmp_path / "t.duckdb"
    return import_paths([tmp_path / "in"], db, **kwargs), db


def test_club_game_tables_hold_the_hand_checked_replay(tmp_path: Path) -> None:
    summary, db = _import(tmp_path, {"club.gops": club_game(1, event="Thursday club")})
    assert (summary.games_seen, summary.games_new, summary.games_rejected) == (1, 1, 0)
    assert _rows(db, "SELECT event, round, tie_rule, cards, n_players, finished, rounds_played, "
                     "unclaimed, result, winner, source_game, source_line FROM games") == [
        ("Thursday club", "1", "carry", 13, 2, True, 13, 0, "45-46", "Bruno", 1, 1)]
    assert _rows(db, "SELECT seat, player, score, outcome FROM game_players ORDER BY seat") == [
        ("A", "Alice", 45, "loss"), ("B", "Bruno", 46, "win")]
    # round 1: 9 v 9 ties, the 8 stays; round 2: the J takes 8 + 5; round 10 ties on the J,
    # round 11: A's 6 takes J + 4
    rounds = _rows(db, "SELECT round_no, prize, pool_cards, pool_value, carried_in, tie, "
                       "winner_seat FROM rounds WHERE round_no IN (1, 2, 10, 11) "
                       "ORDER BY round_no")
    assert rounds == [(1, 8, [8], 8, 0, True, None), (2, 5, [8, 5], 13, 8, False, "B"),
                      (10, 11, [11], 11, 0, True, None), (11, 4, [11, 4], 15, 11, False, "A")]
    assert _rows(db, "SELECT seat, player, bid, won FROM bids WHERE round_no = 2 "
                     "ORDER BY seat") == [("A", "Alice", 7, False), ("B", "Bruno", 11, True)]
    assert _rows(db, "SELECT count(*), count(DISTINCT game_id) FROM bids") == [(26, 1)]
    # the pools each seat took add up to its score
    assert _rows(db, "SELECT winner_seat, sum(pool_value) FROM rounds WHERE NOT tie "
                     "GROUP BY ALL ORDER BY 1") == [("A", 45), ("B", 46)]


def test_imports_table_records_each_import(tmp_path: Path) -> None:
    summary, db = _import(tmp_path, {"a.gops": club_game(1) + "\n" + SMALL.replace("2-4", "9-9")})
    ((import_id, sources, seen, new, dup, rejected, started, finished),) = _rows(
        db, "SELECT import_id, sources, games_seen, games_new, games_duplicate, games_rejected, "
            "started_at, finished_at FROM imports")
    assert (import_id, seen, new, dup, rejected) == (summary.import_id, 2, 1, 0, 1)
    assert sources == [str(tmp_path / "in" / "a.gops")]
    assert started <= finished


def test_rejects_hold_each_broken_record_verbatim_with_every_problem(tmp_path: Path) -> None:
    repeated = SMALL.replace("2. 3D AC 2S", "2. 3D 3C 2S")        # A's 3 is spent
    wrong_result = SMALL.replace("2-4\n", "4-2\n")
    head = "; evening of the 26th\n\n"
    text = (head + club_game(1) + "\n" + repeated + "\n" + club_game(2) + "\n"
            + wrong_result)
    summary, db = _import(tmp_path, {"mixed.gops": text})
    assert (summary.games_seen, summary.games_new, summary.games_rejected) == (4, 2, 2)
    rejects = _rows(db, "SELECT source_game, source_line, raw_text, errors FROM rejects "
                        "ORDER BY source_game")
    first_line = text[:text.index(repeated)].count("\n") + 1
    assert [(g, line) for g, line, _, _ in rejects] == [
        (2, first_line), (4, text[:text.index(wrong_result)].count("\n") + 1)]
    assert rejects[0][2] == repeated.rstrip("\n")  # from the first tag to the terminator
    assert rejects[1][2] == wrong_result.rstrip("\n")
    assert text.count(rejects[0][2]) == 1
    assert rejects[0][3] == [
        {"code": "card-not-in-hand", "message": f"Ann (A) bids 3, already spent in round 1 "
         f"(line {first_line + 5})", "line": first_line + 6, "column": 7, "round": 2},
        {"code": "result-unchecked", "message": "result not checked: the replay stopped at "
         "round 2, which has a problem", "line": first_line + 8, "column": 1, "round": None}]
    (problem,) = rejects[1][3]
    assert (problem["code"], problem["line"], problem["column"], problem["round"]) == (
        "result-mismatch", first_line + 39, 1, None)  # 9 + 1 + 20 + 1 lines on, then 8
    assert "4-2 differs from the replayed points 2-4" in problem["message"]


def test_bom_and_crlf_record_files(tmp_path: Path) -> None:
    broken = SMALL.replace("3. AD 2C 3S", "3. AD 2C").replace("\n", "\r\n")
    text = club_game(1).replace("\n", "\r\n") + "\r\n" + broken
    summary, db = _import(tmp_path, {"bom.gops": b"\xef\xbb\xbf" + text.encode()})
    assert (summary.games_new, summary.games_rejected) == (1, 1)
    assert _rows(db, "SELECT event, winner FROM games") == [("Night", "Bruno")]
    ((raw, errors),) = _rows(db, "SELECT raw_text, errors FROM rejects")
    assert raw == broken.rstrip("\r\n")
    # 20 lines of club game, a blank line, then the small game's round 3 on its line 8
    assert [(e["code"], e["line"], e["round"]) for e in errors] == [("bid-count", 29, 3),
                                                                    ("result-unchecked", 30, None)]


def test_truncated_file_keeps_the_whole_games_and_quarantines_the_cut_one(
        tmp_path: Path) -> None:
    whole = club_game(1) + "\n" + club_game(2)
    text = whole + "\n" + club_game(3)[:-60]  # cut inside round 10
    summary, db = _import(tmp_path, {"cut.gops": text})
    assert (summary.games_new, summary.games_rejected) == (2, 1)
    ((raw, game, errors),) = _rows(db, "SELECT raw_text, source_game, errors FROM rejects")
    assert raw == club_game(3)[:-60].rstrip() and game == 3
    last = errors[-1]
    assert last["code"] == "syntax" and "missing terminator at end of file" in last["message"]
    assert last["line"] == text.count("\n") + 1


def test_latin1_file_is_quarantined_whole_unless_its_encoding_is_given(tmp_path: Path) -> None:
    data = LATIN1.encode("latin-1")
    summary, db = _import(tmp_path, {"old.gops": data})
    assert (summary.games_seen, summary.games_new, summary.games_rejected) == (1, 0, 1)
    assert any("--encoding latin-1" in note for note in summary.notes)
    ((raw, game, errors),) = _rows(db, "SELECT raw_text, source_game, errors FROM rejects")
    assert game is None  # the whole file, not one game
    assert raw == LATIN1.replace("ü", "\\xfc").replace("é", "\\xe9")  # undecodable bytes escaped
    assert [(e["code"], e["line"]) for e in errors] == [("encoding", 1)]
    assert "--encoding latin-1" in errors[0]["message"]

    summary = import_paths([tmp_path / "in"], db, encoding="latin-1")
    assert (summary.games_new, summary.games_rejected) == (1, 0)
    assert _rows(db, "SELECT event, winner FROM games") == [("Frühjahr", "Müller")]


def test_binary_junk_is_quarantined_whole(tmp_path: Path) -> None:
    junk = random.Random(7).randbytes(20_000)
    ascii_junk = bytes(range(0, 32)) * 20 + b"PK\x03\x04 [A \x00 \x7f"
    summary, db = _import(tmp_path, {"a.gops": junk, "b.gops": ascii_junk,
                                     "c.gops": club_game(1)})
    assert (summary.files, summary.games_new, summary.games_rejected) == (3, 1, 2)
    rows = _rows(db, "SELECT source, raw_text, errors FROM rejects ORDER BY source")
    assert rows[0][0].endswith("a.gops") and rows[0][2][0]["code"] == "encoding"
    assert rows[1][0].endswith("b.gops")
    assert rows[1][1] == ascii_junk.decode().strip()  # valid UTF-8: kept as text, NULs too
    assert {e["code"] for e in rows[1][2]} == {"syntax"}


def test_empty_and_comment_only_files_end_as_notes(tmp_path: Path) -> None:
    files = {"empty.gops": "", "blank.gops": " \r\n\n", "comments.gops":
             "; nothing was played\n{ the club was closed }\n", "empty.csv": ""}
    summary, db = _import(tmp_path, files)
    assert (summary.files, summary.games_seen, summary.games_rejected) == (4, 0, 0)
    assert len(summary.notes) == 4
    assert any("comments.gops: no games found" in n for n in summary.notes)
    assert counts(db)["rejects"] == 0 and counts(db)["imports"] == 1


def test_find_long_line() -> None:
    assert find_long_line(b"ab\ncdef\ng", limit=4) is None
    assert find_long_line(b"ab\ncdefg\nh", limit=4) == (2, 5)
    assert find_long_line(b"ab\ncd\nefghij", limit=4) == (3, 6)
    lines = b"".join(b"x" * (i % 7) + b"\n" for i in range(10_000))
    assert find_long_line(lines, limit=6) is None
    assert find_long_line(lines + b"y" * 8, limit=6) == (10_001, 8)


#: Defines ``peak_kb()`` in a child process: its own peak resident memory. On Linux that is
#: VmHWM of /proc/self/status; ru_maxrss is not, because exec keeps the high-water mark of
#: the process it replaced, and a child started by vfork (as subprocess does) reports the
#: test runner's own peak (1.4 GB late in a full run) instead of its own.
PEAK_KB = """import json, resource
def peak_kb():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""


@pytest.mark.slow
def test_a_100_mb_single_game_is_quarantined_in_bounded_memory(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    size = 100 * 2**20
    (folder / "huge.gops").write_bytes(b"8d 9c 9s " * (size // 9))
    (folder / "club.gops").write_text(club_game(1), encoding="utf-8")
    db = tmp_path / "t.duckdb"
    code = (f"{PEAK_KB}from gops_records.core.importer import import_paths\n"
            f"s = import_paths([{str(folder)!r}], {str(db)!r})\n"
            "print(json.dumps([s.as_dict(), peak_kb()]))")
    proc = run_python(code)
    out, err = proc.communicate(timeout=600)  # a guard against a hang, not a speed goal
    assert proc.returncode == 0, err
    summary, peak_kb = json.loads(out)
    assert (summary["games_new"], summary["games_rejected"]) == (1, 1)
    assert peak_kb < 2**20, f"peak {peak_kb / 2**10:.0f} MB"
    ((raw_size, errors),) = _rows(db, "SELECT length(raw_text), errors FROM rejects")
    assert raw_size <= KEPT_BYTES  # its beginning, not 100 MB
    assert errors[0]["code"] == "game-too-long" and errors[0]["line"] == 1
    assert f"{size // 9 * 9:,} bytes long" in errors[0]["message"]


def test_a_100_mb_line_of_many_games_is_read_in_bounded_memory(tmp_path: Path) -> None:
    # one line of games without tags or terminators: each "1." starts the next one
    folder = tmp_path / "in"
    folder.mkdir()
    unit = b"1. 4d 3c 5s 2. 5d 4c 3s "
    (folder / "line.gops").write_bytes(b'[Event "x"] ' + unit * (100 * 2**20 // len(unit)))
    db = tmp_path / "t.duckdb"
    code = (f"{PEAK_KB}from gops_records.core.importer import import_paths\n"
            f"s = import_paths([{str(folder)!r}], {str(db)!r})\n"
            "print(json.dumps([s.as_dict(), peak_kb()]))")
    proc = run_python(code)
    out, err = proc.communicate(timeout=900)  # a guard against a hang, not a speed goal
    assert proc.returncode == 0, err
    summary, peak_kb = json.loads(out)
    assert summary["games_rejected"] == 100 * 2**20 // len(unit)  # each lacks its terminator
    assert summary["rejects_new"] == 2  # the first one has a tag: two distinct texts
    assert peak_kb < 2**20, f"peak {peak_kb / 2**10:.0f} MB"


def test_missing_path_raises_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file or folder"):
        import_paths([tmp_path / "nope.gops"], tmp_path / "t.duckdb")


def test_unreadable_file_is_a_source_error(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "a.gops"
    path.write_text(club_game(1))

    def refuse(*args, **kwargs) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(SourceError, match="a.gops: cannot read: Permission denied"):
        import_paths([path], tmp_path / "t.duckdb")


def test_a_folder_without_records_imports_nothing_and_says_so(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.txt").write_text("no games here")
    summary = import_paths(iter([tmp_path / "in"]), tmp_path / "x.duckdb")
    assert (summary.files, summary.games_seen) == (0, 0)
    assert summary.notes and "no record files" in summary.notes[0]
    assert str(tmp_path / "in") in summary.notes[0]
