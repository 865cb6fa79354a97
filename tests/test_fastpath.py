"""The vectorised fast path against the exact path: the same frames, value for value.

The exact path is the reference: parse, validate and batch every game one at a time
(what the importer did before the fast path). Each test runs both on the same text and
compares every table (columns, dtypes, values, row order), and also checks that the
fast path really took the games it should, so a test cannot pass by the fast path
giving every game back to the exact one.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from gops_records.fastpath import record_body, record_frames, stream
from gops_records.fastpath.lines import COMPLEX, ROUND, LineBook
from gops_records.notation import GameRecord, RoundRecord, iter_games, write_game, write_games
from gops_records.notation.model import CardToken
from gops_records.rules import Game, PrizeOrder, RuleProfile, TieRule
from gops_records.simulate import BrokenRecord, simulate
from gops_records.store.db import connect, reading
from gops_records.store.frames import Batch
from gops_records.store.loader import KnownGames, load_frames
from gops_records.validate import validate_game

TABLES = ("games", "game_players", "round_rows", "rejects")
SOURCE = "club.gops"


def exact_frames(text: str) -> dict[str, pl.DataFrame]:
    """The reference: every game through the parser, the validator and Batch."""
    batch = Batch()
    for number, record in enumerate(iter_games(text), start=1):
        report = validate_game(record)
        if report.valid:
            batch.add_game(report, SOURCE, number)
        else:
            batch.add_reject(text[record.start:record.end], report.problems, SOURCE, number,
                             record.line)
    return batch.frames()


def fast_frames(text: str, chunk_bytes: int) -> tuple[dict[str, pl.DataFrame], int]:
    """The fast path's frames over all chunks, and how many games it took itself."""
    chunks = list(record_frames(text.encode("utf-8"), SOURCE, chunk_bytes=chunk_bytes))
    if not chunks:
        return Batch().frames(), 0
    frames = {t: pl.concat([c.frames()[t] for c in chunks]) for t in TABLES}
    return frames, sum(c.fast_games for c in chunks)


def assert_same(text: str, chunk_bytes: int = 1 << 20) -> tuple[dict[str, pl.DataFrame], int]:
    """Both paths agree on ``text``; returns the frames and the fast path's game count."""
    expected = exact_frames(text)
    got, fast = fast_frames(text, chunk_bytes)
    for table in TABLES:
        assert_frame_equal(got[table], expected[table], check_exact=True)
    return got, fast


def club_text(games: int, seed: int, profile: RuleProfile | None = None,
              broken: int = 0) -> tuple[str, int]:
    """Simulated club games as one file, and how many of them are valid."""
    items = list(simulate(games, seed, profile, broken=broken))
    texts = [i.text if isinstance(i, BrokenRecord) else write_game(i) for i in items]
    return "\n".join(texts), sum(not isinstance(i, BrokenRecord) for i in items)


# -- simulated games -----------------------------------------------------------------------

@pytest.mark.parametrize("profile", [
    RuleProfile(),
    RuleProfile(tie_rule=TieRule.DISCARD),
    RuleProfile(players=3),
    RuleProfile(players=4, tie_rule=TieRule.DISCARD),
    RuleProfile(cards=5, players=3, prize_order=PrizeOrder.ASCENDING),
    RuleProfile(cards=7, prize_order=PrizeOrder.DESCENDING, tie_rule=TieRule.DISCARD),
    RuleProfile(cards=1),
], ids=lambda p: f"{p.players}p-{p.cards}c-{p.tie_rule}-{p.prize_order}")
def test_simulated_games_are_all_taken_and_match(profile: RuleProfile) -> None:
    text, valid = club_text(40, seed=profile.cards * 10 + profile.players, profile=profile)
    frames, fast = assert_same(text, chunk_bytes=4000)
    assert fast == valid == frames["games"].height == 40
    assert frames["game_players"].height == 40 * profile.players


def test_game_ids_come_without_building_the_games_frame() -> None:
    text, _ = club_text(30, seed=59, broken=5)
    for chunk in record_frames(text.encode(), SOURCE, chunk_bytes=3000):
        tables = chunk.frames()
        ids = tables.game_ids()
        assert ids.dtype == pl.UInt64
        assert ids.to_list() == tables["games"]["game_id"].to_list()


def test_broken_records_go_to_the_exact_path_with_their_messages() -> None:
    text, valid = club_text(120, seed=3, broken=30)
    frames, fast = assert_same(text, chunk_bytes=6000)
    assert fast == valid == 120
    rejects = frames["rejects"]
    assert rejects.height == 30
    assert set(rejects["source_game"]) <= set(range(1, 151))
    # rejects keep the file's line numbers, not their chunk's
    lines = text.split("\n")
    assert rejects["source_line"].max() > 1000
    for reject in rejects.iter_rows(named=True):
        first = reject["source_line"]
        assert lines[first - 1] == reject["raw_text"].split("\n")[0]
        span = reject["raw_text"].count("\n")
        assert all(first <= e["line"] <= first + span for e in reject["errors"])


def test_every_chunk_size_gives_the_same_frames() -> None:
    text, _ = club_text(30, seed=5, broken=6)
    expected = exact_frames(text)
    for chunk_bytes in (1, 700, 2_500, 1 << 20):
        got, _ = fast_frames(text, chunk_bytes)
        for table in TABLES:
            assert_frame_equal(got[table], expected[table], check_exact=True)


# -- hand-checked values -----------------------------------------------------------------

CLUB = """[Event "Thursday club"]
[A "Alice"]
[B "Bruno"]
[TieRule "{rule}"]
[Result "{result}"]

1. 8♦ 9♣ 9♠ {{tie: the 8 stays}}
2. 5♦ 7♣ J♠
3. K♦ K♣ Q♠
4. 2♦ A♣ 2♠
5. Q♦ J♣ K♠ ; Bruno again
6. 3♦ 2♣ 3♠
7. 10♦ Q♣ 10♠
8. 7♦ 10♣ A♠
9. A♦ 3♣ 4♠
10. J♦ 8♣ 8♠
11. 4♦ 6♣ 5♠
12. 9♦ 5♣ 6♠
13. 6♦ 4♣ 7♠
{result}
"""


def test_the_club_game_under_carry_and_discard() -> None:
    carry, fast = assert_same(CLUB.format(rule="carry", result="45-46"))
    assert fast == 1
    game = carry["games"].row(0, named=True)
    assert (game["result"], game["winner"], game["unclaimed"]) == ("45-46", "Bruno", 0)
    rounds = carry["round_rows"]
    assert rounds["pool_carried"][1].to_list() == [8, 5]  # the tied 8 joins the 5
    assert rounds["pool_carried"][0] is None  # a pool of the prize alone is not stored
    assert (rounds["carried_in"][1], rounds["prize"][1]) == (8, 5)
    assert rounds["winner"].to_list()[:3] == [None, 1, 0]  # a tie, then B, then A
    assert rounds["comment"].to_list()[:5] == ["tie: the 8 stays", None, None, None,
                                              "Bruno again"]
    discard, fast = assert_same(CLUB.format(rule="discard", result="34-38"))
    assert fast == 1
    game = discard["games"].row(0, named=True)
    assert (game["result"], game["unclaimed"]) == ("34-38", 19)  # the 8 and the J
    assert discard["round_rows"]["pool_carried"].null_count() == 13  # nothing is carried


def test_a_wrong_result_is_rejected_not_taken() -> None:
    frames, fast = assert_same(CLUB.format(rule="discard", result="45-46"))
    assert fast == 0
    assert frames["games"].height == 0
    assert frames["rejects"]["errors"][0][0]["code"] == "result-mismatch"


def test_a_tie_in_the_last_round_is_unclaimed_under_carry() -> None:
    # B keeps the 4 for the last round: a 4-4 tie, so the 6 is nobody's (B had won it)
    text = (CLUB.format(rule="carry", result="45-40").replace("9. A♦ 3♣ 4♠", "9. A♦ 3♣ 7♠")
            .replace("13. 6♦ 4♣ 7♠", "13. 6♦ 4♣ 4♠"))
    frames, fast = assert_same(text)
    assert fast == 1
    game = frames["games"].row(0, named=True)
    assert (game["result"], game["winner"], game["unclaimed"]) == ("45-40", "Alice", 6)
    assert frames["round_rows"]["winner"][-1] is None  # a tie


def test_unfinished_games_with_a_star() -> None:
    record = next(iter(simulate(1, 11)))
    assert isinstance(record, GameRecord)
    tags = {k: v for k, v in record.tags.items() if k != "Result"}
    short = replace(record, tags=tags, rounds=record.rounds[:6], result=None)
    starred = replace(short, tags=dict(tags, Result="*"))
    claimed = replace(short, result=record.result)  # a result for 6 rounds: incomplete
    text = write_games([short, starred, claimed, record])
    frames, fast = assert_same(text)
    assert fast == 3
    games = frames["games"]
    assert games["finished"].to_list() == [False, False, True]
    assert games["result"].to_list()[:2] == [None, None]
    assert frames["game_players"]["outcome"].to_list()[:4] == [None] * 4
    assert frames["rejects"]["errors"][0][0]["code"] == "incomplete"


# -- layouts the fast path leaves to the exact path ----------------------------------------

LAYOUTS = {
    "header comments": '; club night\n{ notes,\n  two lines }\n[Event "x"]\n',
    "comment line between rounds": "1. 8♦ 9♣ 9♠\n{the 8 stays}\n",
    "brace comment hiding a terminator": "{ a note\n45-46\n}\n",
    "comments after terminators": "",
    "phone style": "8d 9c 9s 5d 7c js\n",
    "CRLF": "\r\n",
    "tabs": "\t1.\t8♦\t9♣\t9♠\n",
    "tags on one line": '[A "Ann"] [B "Ben"]\n',
    "lower-case tags": '[event "x"]\n[tierule "Discard"]\n',
    "escaped quote": '[Event "the \\"big\\" night"]\n',
    "duplicate tag": '[Event "x"]\n[Event "y"]\n',
    "tag after rounds": "1. 8♦ 9♣ 9♠\n[Event \"late\"]\n",
    "empty game": "*\n",
    "two rounds on a line": "1. 8♦ 9♣ 9♠ 2. 5♦ 7♣ J♠\n",
    "unicode digits": "١. 8♦ 9♣ 9♠\n",
    "ten as T": "1. T♦ t♣ 10♠\n",
    "unknown tag": '[Weather "rain"]\n[Weather2 "sun"]\n',
    "BOM mid-file": "\ufeff[Event \"x\"]\n",
}


def _spliced(base: str, snippet: str, where: int) -> str:
    lines = base.split("\n")
    return "\n".join(lines[:where]) + "\n" + snippet + "\n".join(lines[where:])


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_unusual_layouts_give_the_same_frames(name: str) -> None:
    base, valid = club_text(12, seed=17, broken=2)
    snippet = LAYOUTS[name]
    texts = []
    for where in (0, 20, 40):  # before the tags, inside tags, inside rounds
        if name == "CRLF":
            texts.append(base.replace("\n", "\r\n"))
        elif name == "comments after terminators":
            texts.append(base.replace("\n\n[", " {done}\n\n[", 3))
        else:
            texts.append(_spliced(base, snippet, where))
    for text in texts:
        for chunk_bytes in (900, 1 << 20):
            _, fast = assert_same(text, chunk_bytes)
            # only the games around the odd text left the fast path (a terminator line
            # with a comment takes the next game along: the exact parser ends it)
            assert fast >= valid - (6 if name == "comments after terminators" else 3)


def test_crlf_and_tabs_are_still_fast() -> None:
    base, valid = club_text(10, seed=23)
    _, fast = assert_same(base.replace("\n", "\r\n"))
    assert fast == valid
    _, fast = assert_same(base.replace("] ", "]\t").replace(". ", ".\t"))
    assert fast == valid


def test_a_comment_left_open_runs_to_the_end() -> None:
    base, _ = club_text(8, seed=29)
    lines = base.split("\n")
    text = "\n".join(lines[:40] + ["{ never closed"] + lines[40:])
    for chunk_bytes in (500, 1 << 20):
        frames, fast = assert_same(text, chunk_bytes)
        assert fast == 1  # the game before the comment
        assert frames["rejects"].height == 1


def test_games_commented_out_across_chunk_cuts() -> None:
    base, valid = club_text(10, seed=53)
    games = base.split("\n\n[")
    hidden = "\n\n[".join(games[3:6])  # three whole games inside one brace comment
    text = "\n\n[".join(games[:3]) + "\n\n{ not played:\n[" + hidden + "\n}\n\n[" + \
        "\n\n[".join(games[6:])
    for chunk_bytes in (300, 700, 1_500, 1 << 20):
        frames, fast = assert_same(text, chunk_bytes)
        assert frames["games"].height == valid - 3
        assert fast >= valid - 5  # the games around the comment may go the exact way


def test_the_same_game_twice_keeps_file_order() -> None:
    record = next(iter(simulate(1, 31)))
    assert isinstance(record, GameRecord)
    rounds = list(record.rounds)
    rounds[0] = replace(rounds[0], comment="first copy")
    first = replace(record, rounds=tuple(rounds))
    text = write_game(first) + "\n{x\n}\n" + write_game(record) + "\n" + write_game(first)
    frames, fast = assert_same(text)
    assert fast == 2
    assert frames["games"]["game_id"].n_unique() == 1
    assert frames["games"]["source_game"].to_list() == [1, 2, 3]


# -- the line book -------------------------------------------------------------------------

def test_a_hash_collision_sends_the_line_to_the_exact_path() -> None:
    book = LineBook()
    line = pl.Series(["1. 8♦ 9♣ 9♠\n"])
    book._add(line.hash().to_numpy(), ["1. 5♦ 9♣ 9♠\n"])  # another line, same hash
    assert book.rows(line).tolist() == [0]
    assert book.arrays["kind"][0] == COMPLEX
    fresh = LineBook()
    row = fresh.rows(line)[0]
    assert fresh.arrays["kind"][row] == ROUND
    assert (fresh.arrays["prize"][row], fresh.arrays["winner"][row]) == (8, -1)


def test_record_body_checks_utf8_like_decode() -> None:
    assert bytes(record_body(b"\xef\xbb\xbf1-2\n")) == b"1-2\n"
    assert bytes(record_body("ü".encode("latin-1"), "latin-1")) == "ü".encode()
    with pytest.raises(ValueError, match="line 2"):
        record_body(b"ok\n\xfc\n")


# -- generated records ---------------------------------------------------------------------

def _played(profile: RuleProfile, rng: random.Random, rounds: int) -> list[RoundRecord]:
    game = Game(profile)
    prizes = list(range(1, profile.cards + 1))
    if profile.prize_order is PrizeOrder.SHUFFLED:
        rng.shuffle(prizes)
    elif profile.prize_order is PrizeOrder.DESCENDING:
        prizes.reverse()
    out = []
    for prize in prizes[:rounds]:
        bids = tuple(rng.choice(game.hand(s)) for s in range(profile.players))
        game.play_round(prize, bids)
        out.append(RoundRecord(CardToken(prize), tuple(CardToken(b) for b in bids),
                               rng.choice([None, None, "a note", "x } y"])))
    return out


@st.composite
def records(draw: st.DrawFn) -> str:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    profile = RuleProfile(cards=draw(st.sampled_from([2, 3, 5, 13])),
                          players=draw(st.integers(2, 4)),
                          tie_rule=draw(st.sampled_from(list(TieRule))),
                          prize_order=draw(st.sampled_from(list(PrizeOrder))))
    texts = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.sampled_from([profile.cards, profile.cards, profile.cards - 1, 0]))
        rounds = _played(profile, rng, n)
        game = Game(profile)
        for r in rounds:
            game.play_round(r.prize.rank, tuple(b.rank for b in r.bids))
        tags = {"Event": draw(st.sampled_from(["Club", "", " spaced ", "Ü"])),
                "TieRule": profile.tie_rule.value, "Cards": str(profile.cards),
                "PrizeOrder": profile.prize_order.value}
        for seat in "ABCD"[:profile.players]:
            tags[seat] = draw(st.sampled_from(["Ann", "Bo", "A", ""]))
        if draw(st.booleans()):
            tags["Date"] = draw(st.sampled_from(["2026.11.26", "2026.13.01", "2026.11.??"]))
        result = tuple(game.scores) if n == profile.cards else None
        if draw(st.booleans()) and result is not None:
            tags["Result"] = "-".join(map(str, result))
        texts.append(write_game(GameRecord(tags, tuple(rounds), result)))
    text = "\n".join(texts)
    # a few small edits, any of which may break a game
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["swap-suit", "digit", "drop", "dup", "comment",
                                     "star", "space", "brace", "tag-case"]))
        line = lines[i]
        if edit == "swap-suit":
            lines[i] = line.replace("♣", "♠", 1) if "♣" in line else line.replace("♦", "D")
        elif edit == "digit":
            lines[i] = line.replace("3", "4", 1)
        elif edit == "drop":
            del lines[i]
        elif edit == "dup":
            lines.insert(i, line)
        elif edit == "comment":
            lines[i] = line + " {c}"
        elif edit == "star":
            lines.insert(i, "*")
        elif edit == "space":
            lines[i] = "  " + line.replace(" ", "  ")
        elif edit == "brace":
            lines.insert(i, "{")
        else:
            lines[i] = line.lower()
        if not lines:
            lines = [""]
    return "\n".join(lines)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records(), st.sampled_from([300, 1 << 20]))
def test_generated_records_give_the_same_frames(text: str, chunk_bytes: int) -> None:
    assert_same(text, chunk_bytes)


# -- the loader ------------------------------------------------------------------------------

def _table_rows(db: Path, table: str) -> list[tuple]:
    with reading(db) as con:
        columns = "game_id, source_game" if table == "games" else "*"
        return sorted(con.execute(f"SELECT {columns} FROM {table}").fetchall(), key=str)


def test_known_ids_and_the_anti_join_load_the_same_rows(tmp_path: Path) -> None:
    first, _ = club_text(6, seed=41)
    more, _ = club_text(6, seed=43, broken=2)
    repeated = first.split("\n\n[")[0] + "\n"  # the first game again, same batch
    batches = [exact_frames(first), exact_frames(more + "\n" + repeated + "\n" + first)]
    totals = {}
    for name, use_known in (("known", True), ("join", False)):
        db = tmp_path / f"{name}.duckdb"
        con = connect(db)
        con.execute("BEGIN")
        known = KnownGames(con) if use_known else None
        counts = [load_frames(con, 1, frames, known) for frames in batches]
        con.execute("COMMIT")
        con.close()
        totals[name] = ([(c.games_new, c.games_duplicate) for c in counts],
                        {t: _table_rows(db, t) for t in ("games", "game_players", "rounds",
                                                          "bids")})
    assert totals["known"] == totals["join"]
    assert totals["known"][0] == [(6, 0), (6, 7)]  # 6 + the repeat: 7 duplicates


# -- threads ---------------------------------------------------------------------------------

def test_stopping_early_and_errors_in_workers_end_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    text, _ = club_text(40, seed=47)
    chunks = record_frames(text.encode(), SOURCE, chunk_bytes=500)
    first = next(chunks)
    assert first.games >= 1
    chunks.close()  # the producer thread is unblocked and the workers shut down

    def broken(*args: object) -> None:
        raise RuntimeError("worker failed")

    monkeypatch.setattr(stream, "_chunk_frames", broken)
    with pytest.raises(RuntimeError, match="worker failed"):
        list(record_frames(text.encode(), SOURCE, chunk_bytes=500))
