"""Issue 22, Gin first-class in the CLI: `--game` names the game kind (gops / gin) in every
command, `--number N` a record's place in a file (`--game N` still works, with a note);
`gops replay REF` replays a stored Gops game, Gin Rummy game or Gin Rummy hand; help names
every notation; Gin dates print as dates."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
import typer
from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.core.games_query import GameNotFound
from gops_records.core.store.db import reading

ROOT = Path(__file__).resolve().parents[2]
ENV = {"COLUMNS": "250", "GOPS_DB": ""}
(GAME,) = re.findall(r"```gin-game\n(.*?)```", (ROOT / "docs" / "gin.md").read_text("utf-8"),
                     re.S)
SHEET = """\
[Event "Club"] [Date "2026.12.03"] [Match "Ann-Bob"] [Game "1"] [A "Ann"] [B "Bob"]
1. B up 6 B gin v 35 0-60 = 0-60
2. B up 3 A biggin v 79 129-0 = 129-60
169-0
"""
SMALL = """[Event "Club"]
[A "Ann"]
[B "Bob"]
[Cards "3"]

1. 2D 3C AS
2. 3D AC 2S
3. AD 2C 3S
2-4
"""
NOTATIONS = (".gops", "CSV", "JSONL", ".gin", ".ginsheet")
COMMANDS = typer.main.get_command(app).commands


def gops(*args: str | Path):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    club = tmp_path / "club"
    club.mkdir()
    (club / "game.gin").write_text(GAME, "utf-8")
    (club / "dated.ginsheet").write_text(SHEET, "utf-8")
    (club / "small.gops").write_text(SMALL, "utf-8")
    path = tmp_path / "t.duckdb"
    assert gops("import", club, "--db", path).exit_code == 0
    return path


def _gin_games(db: Path) -> dict[str, dict]:
    listed = gops("games", "--game", "gin", "--json", "--db", db)
    assert listed.exit_code == 0, listed.output
    return {g["match"]: g for g in map(json.loads, listed.stdout.splitlines())}


def test_replay_a_stored_gin_sheet_game_by_the_ref_gops_games_prints(db: Path) -> None:
    game = _gin_games(db)["Ann-Bob"]
    result = gops("replay", game["game_ref"], "--db", db)
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"Gin Rummy game {game['game_ref']} ({game['game_id']}) in {db}, "
                            "first imported from ")
    assert "Club, 2026-12-03" in first and "00:00:00" not in result.stdout
    assert "Game: Ann wins 169: 129 - 60 + 100 + 20 x (1 - 1) = 169, no blitz" in result.stdout
    by_id = gops("replay", str(game["game_id"]), "--db", db)
    assert by_id.exit_code == 0 and by_id.stdout == result.stdout


def test_a_gin_game_of_full_hands_lists_its_hands_and_each_hand_replays(db: Path) -> None:
    game = _gin_games(db)["Alice-Bruno"]
    result = gops("replay", game["game_ref"], "--db", db)
    assert result.exit_code == 0, result.output
    assert "Game: Alice wins 169" in result.stdout
    with reading(db) as con:
        hands = con.execute("SELECT hand_no, hand_id FROM gin_hands WHERE game_id = ? "
                            "ORDER BY hand_no", [game["game_id"]]).fetchall()
    refs = [f"g{hand_id:016x}"[:9] for _, hand_id in hands]
    assert f"hand 1 {refs[0]}" in result.stdout and f"hand 2 {refs[1]}" in result.stdout
    hand = gops("replay", refs[1], "--db", db)
    assert hand.exit_code == 0, hand.output
    assert hand.stdout.startswith(f"Gin Rummy hand {refs[1]} ({hands[1][1]}) in {db}")
    assert "Outcome: big gin: Alice scores 129 (129-0)" in hand.stdout


def test_a_gops_ref_still_replays_and_game_kind_narrows_the_search(db: Path) -> None:
    listed = gops("games", "--json", "--db", db)
    (small,) = map(json.loads, listed.stdout.splitlines())
    result = gops("replay", small["game_ref"], "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"game {small['game_ref']} ({small['game_id']}) in {db}")
    assert gops("replay", small["game_ref"], "--db", db, "--game", "gops").exit_code == 0
    wrong = gops("replay", small["game_ref"], "--db", db, "--game", "gin")
    assert wrong.exit_code == 2
    assert f"no stored Gin Rummy game or hand has the reference {small['game_ref']!r}" in \
        wrong.stderr
    gin_ref = _gin_games(db)["Ann-Bob"]["game_ref"]
    assert gops("replay", gin_ref, "--db", db, "--game", "gops").exit_code == 2
    numbered = gops("replay", small["game_ref"], "--db", db, "--number", "2")
    assert numbered.exit_code == 2 and "--number N picks a record of a file" in numbered.stderr


def test_an_unknown_ref_is_an_error_naming_close_refs(db: Path) -> None:
    game = _gin_games(db)["Ann-Bob"]
    ref = game["game_ref"]
    typo = ref[:3] + ("0" if ref[3] != "0" else "1") + ref[4:]
    result = gops("replay", typo, "--db", db)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"no stored game has the reference {typo!r}" in result.stderr
    assert f"did you mean {ref!r}?" in result.stderr


def test_an_ambiguous_ref_names_each_record_it_could_be() -> None:
    from gops_records.core.replay_lookup import Found, choose

    found = [Found("gops", "game", 0x1A2B000000000001), Found("gin", "hand", 0x1A2B000000000002)]
    with pytest.raises(GameNotFound) as caught:
        choose("g1a2b", found, ())
    message = str(caught.value)
    assert "'g1a2b' names several stored records: game g1a2b0000 (Gops), hand g1a2b0000 " \
        "(Gin Rummy)" in message
    assert "give more of its hex digits" in message
    assert choose("g1a2b", found[1:], ()) == found[1]


def test_number_picks_a_record_of_a_file_and_game_n_still_works_with_a_note(
        tmp_path: Path, data_dir: Path) -> None:
    club = data_dir / "club.gops"
    new = gops("replay", club, "--number", "3")
    assert new.exit_code == 0, new.output
    assert new.stdout.startswith(f"{club} game 3 ") and new.stderr == ""
    for old in (["--game", "3"], ["-g", "3"]):
        result = gops("replay", club, *old)
        assert result.exit_code == 0 and result.stdout == new.stdout
        assert result.stderr == ("gops: note: --game N for a game's number in a file is "
                                 "deprecated: use --number N (--game names the game kind: "
                                 "gops or gin)\n")
    gin = tmp_path / "game.gin"
    gin.write_text(GAME, "utf-8")
    hand = gops("replay", gin, "--number", "2")
    assert hand.exit_code == 0 and "Alice goes big gin" in hand.stdout
    assert gops("replay", gin, "--game", "2").stdout == hand.stdout
    assert gops("replay", club, "--number", "0").exit_code == 2
    clash = gops("replay", club, "--number", "2", "--game", "3")
    assert clash.exit_code == 2 and "--number" in clash.stderr
    unknown = gops("replay", club, "--game", "chess")
    assert unknown.exit_code == 2 and "'gops' or 'gin'" in unknown.stderr


def test_every_game_option_names_the_game_kind() -> None:
    with_game = {}
    for name, command in COMMANDS.items():
        for param in command.params:
            if "--game" in param.opts:
                with_game[name] = param
    assert {"games", "replay", "simulate"} <= set(with_game)
    for name, param in with_game.items():
        ctx = click.Context(COMMANDS[name])
        help_text = param.get_help_record(ctx)
        assert help_text is not None and "gops|gin" in help_text[0], (name, help_text)
        assert "--number" not in " ".join(param.opts)


def test_game_kind_completes_in_replay_as_in_games() -> None:
    import os
    import subprocess
    import sys

    def complete(words: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "gops_records"], capture_output=True,
                              text=True, timeout=60,
                              env={**os.environ, "_GOPS_COMPLETE": "complete_bash",
                                   "COMP_WORDS": words,
                                   "COMP_CWORD": str(len(words.split()))})
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert complete("gops replay x.gops --game ") == complete("gops games --game ") == [
        "gops", "gin"]


def test_every_registered_games_parts_load_and_follow_their_protocols() -> None:
    """Each part a game registers loads (a typo in plugin.py fails here, not at a user's
    command), and the parts the CLI calls have what their protocols ask for."""
    from gops_records.core import registry
    from gops_records.core.export_format import ExportFormat

    for game in registry.games():
        for name in game.parts:
            assert game.part(name) is not None, (game.name, name)
        for fmt in game.part("exports") or ():
            assert isinstance(fmt, ExportFormat) and callable(registry.load(fmt.writer))
        listing, replay = game.part("games"), game.part("replay")
        assert all(callable(getattr(listing, m)) for m in ("find", "stored", "table", "summary"))
        assert all(callable(getattr(replay, m)) for m in ("replay_file", "find", "close",
                                                          "replay_stored"))
        assert isinstance(replay.stored_noun, str)
    names = [f.name for _, formats in registry.parts("exports") for f in formats]
    assert len(names) == len(set(names))  # a format name names one game's writer


def test_game_accepts_exactly_the_registered_games() -> None:
    """`--game` of gops games takes the registry's names (the first the default), of gops
    replay the same names; anything else is a usage error."""
    from gops_records.core import registry

    names = registry.game_names()
    param = next(p for p in COMMANDS["games"].params if "--game" in p.opts)
    assert _choices(param) == names and param.default == names[0]
    for name in names:
        assert gops("games", "--game", name, "--db", "/nonexistent/x.duckdb").exit_code == 2
        assert "no such option" not in gops("replay", "g1234", "--game", name).stderr
    refused = gops("games", "--game", "chess")
    assert refused.exit_code == 2 and "'chess' is not one of" in refused.stderr
    assert gops("replay", "g1234", "--game", "chess").exit_code == 2
    formats = next(p for p in COMMANDS["export"].params if "--format" in p.opts)
    assert _choices(formats) == tuple(f.name for _, part in registry.parts("exports")
                                      for f in part)


def _choices(param) -> tuple[str, ...]:
    """The values an option's Enum offers, as help shows them (``<gops|gin>``)."""
    values = tuple(member.value for member in param.type_descriptor.annotation)
    assert param.display_type(None) == f"<{'|'.join(values)}>"
    return values


@pytest.mark.parametrize("args", [[], ["import"], ["validate"]])
def test_help_names_every_notation(args: list[str]) -> None:
    result = gops(*args, "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for notation in NOTATIONS:
        assert notation in text, (args, notation)


def test_gin_dates_print_as_dates_in_text_and_json(db: Path) -> None:
    text = gops("games", "--game", "gin", "--db", db).stdout
    assert re.search(r"^2026-12-03\s+Club\s+Ann-Bob", text, re.M) and "00:00" not in text
    assert _gin_games(db)["Ann-Bob"]["date"] == "2026-12-03"


def test_each_kind_replays_in_a_fresh_interpreter(db: Path, data_dir: Path) -> None:
    """`gops replay` loads what it needs itself: no module an earlier test imported hides
    an import circle (gops_records.games.gops.report imported first once failed)."""
    import os
    import subprocess
    import sys

    (small,) = map(json.loads, gops("games", "--json", "--db", db).stdout.splitlines())
    gin = _gin_games(db)["Ann-Bob"]["game_ref"]
    for args in ([small["game_ref"], "--db", db], [gin, "--db", db],
                 [data_dir / "club.gops", "--number", "2"]):
        done = subprocess.run([sys.executable, "-m", "gops_records", "replay", *map(str, args)],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, **ENV})
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Outcome: " in done.stdout or "Game: " in done.stdout


def test_a_hand_kept_as_a_sheet_line_replays_its_game_with_a_note(db: Path) -> None:
    game = _gin_games(db)["Ann-Bob"]
    with reading(db) as con:
        ((hand_id,),) = con.execute("SELECT hand_id FROM gin_hands WHERE game_id = ? AND "
                                    "hand_no = 2", [game["game_id"]]).fetchall()
    ref = f"g{hand_id:016x}"[:9]
    result = gops("replay", ref, "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Gin Rummy game {game['game_ref']} ")
    assert result.stderr == (f"gops: note: Gin Rummy hand {ref} is kept as a line of a score "
                             "sheet (hand 2): its game is replayed\n")
    assert "Its hands in full" not in result.stdout  # a sheet game has no full hands
