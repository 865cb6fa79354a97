"""The Game viewer on games of both variants, simulated as `gops simulate --bid-cards 2` and
`gops simulate --open-prizes 3` write them: each bid of several cards shows its cards and
strength, an open-prize game shows per round what was revealed, the row on offer, the
prize taken and by whom and the prize a tie set aside; the caption names the variant.

What the page should show is worked out here from the records' text alone (the bids as
written, the row kept by hand), not from the library the page calls."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import polars as pl
import pytest
from gops_records.dashboards.text import escape_md
from test_apptest import charts_of, metrics, start
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.game_refs import game_ref
from gops_records.core.importer import import_paths

#: file stem -> the `gops simulate` options that wrote it
SIMULATED = {
    "pairs": ["--bid-cards", "2"],
    "pairs3": ["--bid-cards", "2", "--players", "3", "--tie-rule", "discard"],
    "row": ["--open-prizes", "3", "--tie-rule", "discard"],
    "row3": ["--open-prizes", "3", "--players", "3"],
    "plain": ["--cards", "5"],  # the classic game
}
GAMES = 5  # of each
VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}
ROUND = re.compile(r"(?:^|\s)(\d+)\.\s")


def value(card: str) -> int:
    """A written card's value: ``10♣`` -> 10, ``K♦`` -> 13."""
    rank = card.rstrip("♣♠♥♦")
    return VALUES.get(rank) or int(rank)


def rank(card: str) -> str:
    return card.rstrip("♣♠♥♦")


def parse_games(text: str) -> list[dict]:
    """Each game of a simulated file: its tags and its rounds' tokens, as written."""
    games = []
    for block in ("\n\n" + text.strip()).split("\n\n[")[1:]:
        block = "[" + block
        lines = block.splitlines()
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        moves = " ".join(line for line in lines if not line.startswith("[")).strip()
        moves = moves.rsplit(" ", 1)[0]  # the result
        parts = ROUND.split(" " + moves)[1:]
        rounds = [parts[i + 1].replace("( ", "(").split() for i in range(0, len(parts), 2)]
        games.append({"tags": tags, "rounds": rounds})
    return games


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[dict]]]:
    """The database of the simulated files, and each file's games (with their ids)."""
    tmp = tmp_path_factory.mktemp("game-variants")
    folder = tmp / "records"
    folder.mkdir()
    runner = CliRunner()
    games: dict[str, list[dict]] = {}
    for stem, options in SIMULATED.items():
        out = folder / f"{stem}.gops"
        done = runner.invoke(app, ["simulate", "-n", str(GAMES), "--seed", "4", *options,
                                   "--out", str(out)])
        assert done.exit_code == 0, done.output
        games[stem] = parse_games(out.read_text(encoding="utf-8"))
        assert len(games[stem]) == GAMES
    db = tmp / "variants.duckdb"
    assert import_paths([folder], db).games_new == GAMES * len(SIMULATED)
    with duckdb.connect(str(db), read_only=True) as con:
        ids = con.execute("SELECT source, source_game, game_id FROM games").fetchall()
    for source, position, game_id in ids:
        games[Path(source).stem][position - 1]["id"] = str(game_id)
    return db, games


def _open(at, game_id: str) -> pl.DataFrame:
    """The Game viewer on one game; its round table."""
    at.query_params["game_id"] = game_id
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return pl.from_pandas(at.dataframe[0].value)


def _caption(at) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Game **"))


@pytest.mark.parametrize(("stem", "discard"), [("pairs", False), ("pairs3", True)])
def test_bids_of_two_cards_show_their_cards_and_strength(simulated, monkeypatch, stem,
                                                         discard):
    db, games = simulated
    at = start(db, monkeypatch, "gops/game.py")
    ties = 0
    for game in games[stem]:
        table = _open(at, game["id"])
        tags, rounds = game["tags"], game["rounds"]
        names = [tags[s] for s in "ABCD" if s in tags]
        assert table.columns == ["round", "prize", "pool", "value", *names, "taken by",
                                 "score", "comment"]
        assert _caption(at).startswith(f"Game **{game_ref(int(game['id']))}** · "
                                       f"{escape_md('bids of 2 cards')} · ")
        assert metrics(at)["Rounds"] == "6 of 6"  # 13 cards, two a bid
        assert table["round"].to_list() == list(range(1, 7))
        assert table["prize"].to_list() == [rank(r[0]) for r in rounds]
        running, carried = [0] * len(names), []
        for row, (prize, *bids) in zip(table.iter_rows(named=True), rounds, strict=True):
            strengths = [sum(value(c) for c in bid.split("+")) for bid in bids]
            assert all(bid.count("+") == 1 for bid in bids)
            assert [row[n] for n in names] == [f"{bid} = {s}"
                                                for bid, s in zip(bids, strengths, strict=True)]
            pool = [*carried, prize]
            assert row["pool"] == "+".join(rank(c) for c in pool)
            assert row["value"] == sum(value(c) for c in pool)
            top = max(strengths)
            if strengths.count(top) == 1:
                winner = strengths.index(top)
                running[winner] += row["value"]
                assert row["taken by"] == names[winner]
                carried = []
            else:
                ties += 1
                assert row["taken by"] == ("tie: unclaimed" if row["round"] == 6 or discard
                                           else "tie: carried")
                carried = [] if discard else pool
            assert row["score"] == "-".join(map(str, running))
        assert tags["Result"] == "-".join(map(str, running))
        bids = next(frame for spec, frame in charts_of(at)
                    if "Bids against" in str(spec.get("title")))
        assert sorted(bids.filter(pl.col("player") == names[0])["bid"].to_list()) == sorted(
            sum(value(c) for c in r[1].split("+")) for r in rounds)
    assert ties > 0 or stem == "pairs"  # 3 players tie: the tie texts were checked


def _row_rounds(game: dict, discard: bool) -> list[dict]:
    """Each round of an open-prize game as the page should read it, the row kept by hand."""
    names = [game["tags"][s] for s in "ABCD" if s in game["tags"]]
    row: list[str] = []
    running = [0] * len(names)
    out = []
    for number, tokens in enumerate(game["rounds"], start=1):
        close = next(i for i, t in enumerate(tokens) if t.endswith(")"))
        revealed = [rank(t.strip("()")) for t in tokens[: close + 1] if t.strip("()")]
        bids, taken = tokens[close + 1: -1], tokens[-1]
        row = [*row, *revealed]
        offered = " ".join(row)
        strengths = [value(b) for b in bids]
        aside = ""
        if taken != "-":
            winner = strengths.index(max(strengths))
            running[winner] += value(taken)
            by = names[winner]
            row.remove(rank(taken))
        else:  # a tie: under discard the prize revealed last is set aside, even at the end
            aside = row.pop() if discard else ""
            last = number == len(game["rounds"])
            by = ("tie: unclaimed" if last else "tie: set aside" if discard
                  else "tie: row stays")
        out.append({"round": number, "revealed": "(" + " ".join(revealed) + ")",
                    "row": offered, **{n: rank(b) for n, b in zip(names, bids, strict=True)},
                    "taken": rank(taken), "by": by, "set aside": aside,
                    "score": "-".join(map(str, running))})
    assert "-".join(map(str, running)) == game["tags"]["Result"]
    return out


@pytest.mark.parametrize(("stem", "discard"), [("row", True), ("row3", False)])
def test_open_prizes_show_the_row_the_prize_taken_and_the_prize_set_aside(
        simulated, monkeypatch, stem, discard):
    db, games = simulated
    at = start(db, monkeypatch, "gops/game.py")
    ties = 0
    for game in games[stem]:
        table = _open(at, game["id"])
        want = _row_rounds(game, discard)
        names = [game["tags"][s] for s in "ABCD" if s in game["tags"]]
        assert table.columns == ["round", "revealed", "row", *names, "taken", "by",
                                 "set aside", "score", "comment"]
        assert "pool" not in table.columns
        assert table.drop("comment").to_dicts() == want
        ties += sum(r["taken"] == "-" for r in want)
        assert escape_md("open prizes (row of 3)") in _caption(at)
        assert metrics(at)["Rounds"] == "13 of 13"
        assert [str(spec.get("title")) for spec, _ in charts_of(at)] != []
        assert not any("Bids against" in str(spec.get("title")) for spec, _ in charts_of(at))
        note = next(m.value for m in at.markdown if m.value.startswith("**Round by round"))
        assert ("set aside" in note) is discard
    assert ties > 0  # the games have ties, so "set aside" / "row stays" was checked
    if discard:
        assert any(r["set aside"] for g in games[stem] for r in _row_rounds(g, True))


def test_a_classic_game_keeps_its_table(simulated, monkeypatch):
    db, games = simulated
    at = start(db, monkeypatch, "gops/game.py")
    game = games["plain"][0]
    table = _open(at, game["id"])
    names = [game["tags"]["A"], game["tags"]["B"]]
    # the bids and who took the pool first (a phone shows the first columns)
    assert table.columns == ["round_no", "prize", *names, "taken_by", "pool_value", "score",
                             "pool_cards", "carried_in", "comment"]
    assert table["prize"].to_list() == [rank(r[0]) for r in game["rounds"]]
    assert table[names[0]].to_list() == [rank(r[1]) for r in game["rounds"]]
    # the event comes straight after the reference: no variant named
    ref = game_ref(int(game["id"]))
    assert _caption(at).startswith(f"Game **{ref}** · {escape_md(game['tags']['Event'])} · ")
    assert metrics(at)["Rounds"] == "5 of 5"
    assert len(charts_of(at)) == 2
