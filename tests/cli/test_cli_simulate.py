"""`gops simulate`: records on stdout or in a file, a summary on stderr, clear errors."""

from __future__ import annotations

from collections import Counter

from typer.testing import CliRunner

from gops_records.cli import app
from gops_records.games.gops.reading import parse
from gops_records.games.gops.simulate import player
from gops_records.games.gops.validate import validate_game

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["simulate", *args])


def test_writes_valid_games_to_stdout_and_a_summary_to_stderr():
    result = run("--games", "12", "--seed", "3")
    assert result.exit_code == 0, result.output
    games = parse(result.stdout)
    assert len(games) == 12
    assert all(validate_game(g).valid for g in games)
    assert "gops simulate: 12 games in 1 club evening; 2 players, 13 cards, tie rule carry" \
        in result.stderr
    assert "games/s" in result.stderr and "written to stdout" in result.stderr
    assert "gops simulate" not in result.stdout


def test_same_seed_same_file(tmp_path):
    a, b, c = tmp_path / "a.gops", tmp_path / "b.gops", tmp_path / "c.gops"
    assert run("-n", "30", "--seed", "5", "--out", str(a)).exit_code == 0
    assert run("-n", "30", "--seed", "5", "--out", str(b), "--jobs", "2").exit_code == 0
    assert run("-n", "30", "--seed", "6", "--out", str(c)).exit_code == 0
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    assert a.read_text(encoding="utf-8").startswith('[Event "Gops Society"]\n')


def test_rule_options_reach_the_records(tmp_path):
    out = tmp_path / "three.gops"
    result = run("-n", "9", "--seed", "1", "--players", "3", "--tie-rule", "discard",
                 "--cards", "8", "--prize-order", "descending", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "3 players, 8 cards, tie rule discard, prizes descending" in result.stderr
    games = parse(out.read_text(encoding="utf-8"))
    assert len(games) == 9
    for g in games:
        assert validate_game(g).valid
        assert g.n_players == 3 and len(g.rounds) == 8
        assert g.tags["TieRule"] == "discard" and g.tags["Cards"] == "8"
        assert g.tags["PrizeOrder"] == "descending"
        assert [r.prize.rank for r in g.rounds] == list(range(8, 0, -1))


def test_bots_option_picks_the_personalities():
    result = run("-n", "20", "--seed", "2", "--bots", "prize, prize-plus-one")
    assert result.exit_code == 0, result.output
    names = {n for g in parse(result.stdout) for n in g.players}
    assert {player(n).personality.value for n in names} == {"prize", "prize-plus-one"}
    assert "prize: " in result.stderr and "prize-plus-one: " in result.stderr
    assert "noisy:" not in result.stderr


def test_broken_records_fail_validation_with_their_codes():
    result = run("-n", "20", "--seed", "4", "--broken", "9")
    assert result.exit_code == 0, result.output
    assert "20 games + 9 broken (" in result.stderr
    games = parse(result.stdout)
    assert len(games) == 29
    reports = [validate_game(g) for g in games]
    assert sum(r.valid for r in reports) == 20
    found = Counter(frozenset(p.code for p in r.problems) - {"result-unchecked"}
                    for r in reports if not r.valid)
    assert set(found) == {frozenset({c}) for c in (
        "card-not-in-hand", "prize-repeated", "result-mismatch", "incomplete", "wrong-suit",
        "syntax", "unknown-card", "tag-value", "prize-order")}


def test_usage_errors():
    result = run("--bots", "prize,wizard")
    assert result.exit_code == 2
    assert "unknown bot 'wizard'" in result.stderr
    assert run("--players", "5").exit_code == 2
    assert run("--tie-rule", "sometimes").exit_code == 2
    result = run("--start", "next tuesday")
    assert result.exit_code == 2 and "--start" in result.stderr
    result = run("--cards", "2", "--broken", "1")
    assert result.exit_code == 2 and "at least 3 cards" in result.stderr


def test_unwritable_out_is_a_clear_error(tmp_path):
    result = run("-n", "1", "--out", str(tmp_path / "missing" / "x.gops"))
    assert result.exit_code == 2
    assert "cannot write" in result.stderr


def test_zero_games_is_an_empty_file(tmp_path):
    out = tmp_path / "none.gops"
    result = run("-n", "0", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text() == ""


def test_help_has_an_example():
    result = runner.invoke(app, ["simulate", "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.stdout and "gops simulate --games" in result.stdout
    for option in ("--games", "--seed", "--players", "--tie-rule", "--cards", "--bots",
                   "--broken", "--out"):
        assert option in result.stdout
