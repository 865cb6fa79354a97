"""The simulator: valid, reproducible records; named players who keep their personality;
broken records that fail with exactly their intended code; the prize-vs-random anchor."""

from __future__ import annotations

import io
import random
import re
import statistics

import pytest

from gops_records.core.clubs import UnknownBotError
from gops_records.games.gops.bots import Bot, Personality, PrizeBot, RandomBot
from gops_records.games.gops.errors import CardNotInHand, PrizeRepeated
from gops_records.games.gops.notation import GameRecord, write_game, write_games
from gops_records.games.gops.reading import parse, read_reports
from gops_records.games.gops.rules import PrizeOrder, RuleProfile, TieRule
from gops_records.games.gops.simulate import (
    CLUBS,
    ROSTER,
    BrokenRecord,
    Defect,
    Evening,
    break_record,
    broken_records,
    play_evening,
    play_game,
    player,
    roster,
    simulate,
    simulate_game,
    write_simulation,
)
from gops_records.games.gops.validate import validate_game

PROFILES = [
    RuleProfile(),
    RuleProfile(tie_rule=TieRule.DISCARD),
    RuleProfile(players=3),
    RuleProfile(players=4, tie_rule=TieRule.DISCARD),
    RuleProfile(cards=7, prize_order=PrizeOrder.ASCENDING),
    RuleProfile(cards=5, players=3, prize_order=PrizeOrder.DESCENDING),
]


def codes(record_text: str) -> set[str]:
    """The codes of a record's problems (a result left unchecked is no defect of its own)."""
    (report,) = read_reports(record_text)
    return {p.code for p in report.problems} - {"result-unchecked"}


@pytest.mark.parametrize("profile", PROFILES, ids=str)
def test_every_simulated_game_validates(profile):
    games = list(simulate(60, seed=11, profile=profile))
    assert len(games) == 60
    for record in games:
        assert isinstance(record, GameRecord)
        report = validate_game(record)
        assert report.valid, report.problems
        assert report.finished and report.profile == profile
        assert record.result == report.outcome.scores
        assert record.tags["Result"] == "-".join(map(str, record.result))
        # the canonical text reads back as the same game, and validates too
        (again,) = parse(write_game(record))
        assert again == record and validate_game(again).valid


def test_tags_name_the_event_players_and_rules():
    record = next(simulate(1, seed=4, profile=RuleProfile(cards=7, players=3,
                                                          tie_rule="discard",
                                                          prize_order="ascending")))
    tags = record.tags
    # a single game is not part of a match: no Match tag
    assert list(tags) == ["Event", "Site", "Date", "Round", "A", "B", "C", "TieRule", "Cards",
                          "PrizeOrder", "Result"]
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", tags["Date"])
    assert (tags["Event"], tags["Site"]) in {(c.event, c.site) for c in CLUBS}
    assert tags["TieRule"] == "discard" and tags["Cards"] == "7"
    assert tags["PrizeOrder"] == "ascending"
    assert len({tags["A"], tags["B"], tags["C"]}) == 3
    default = next(simulate(1, seed=4))
    assert default.tags["TieRule"] == "carry"
    assert "Cards" not in default.tags and "PrizeOrder" not in default.tags
    assert "C" not in default.tags


def test_evenings_are_matches_of_three_games_with_rotating_seats():
    games = list(simulate(100, seed=2))
    evenings: dict[tuple[str, str], list[GameRecord]] = {}
    for g in games:
        evenings.setdefault((g.tags["Event"], g.tags["Date"]), []).append(g)
    assert len(evenings) >= 2
    for evening in evenings.values():
        assert [g.tags["Round"] for g in evening] == [str(i) for i in
                                                      range(1, len(evening) + 1)]
        matches: dict[str, list[GameRecord]] = {}
        for g in evening:
            if "Match" in g.tags:
                matches.setdefault(g.tags["Match"], []).append(g)
        assert matches
        for match in matches.values():
            assert len(match) == 3
            assert match[0].tags["A"] == match[1].tags["B"] == match[2].tags["A"]
            assert match[0].tags["B"] == match[1].tags["A"] == match[2].tags["B"]
        # single games (no Match) only fill the end of an evening
        singles = [g for g in evening if "Match" not in g.tags]
        assert len(singles) < 3 and evening[-len(singles):] == singles if singles else True


def test_dates_follow_the_clubs_weekdays_and_never_go_back():
    assert CLUBS[0].evening(0).isoformat() == "2025-01-07"  # Gops Society, a Tuesday
    assert CLUBS[2].evening(0).isoformat() == "2025-01-09"  # Thursday Club, a Thursday
    assert CLUBS[1].evening(2).weekday() == CLUBS[1].weekday == 2
    dates = [g.tags["Date"] for g in simulate(400, seed=1)]
    assert dates[0] == "2025.01.07"
    assert dates == sorted(dates) and len(set(dates)) > 5


def test_same_seed_same_games_different_seed_different_games():
    a = list(simulate(50, seed=99, broken=3))
    b = list(simulate(50, seed=99, broken=3))
    c = list(simulate(50, seed=100, broken=3))
    assert a == b
    assert a != c


def test_write_simulation_is_write_games_of_simulate_and_independent_of_jobs():
    kwargs = dict(profile=RuleProfile(players=3), broken=4)
    items = list(simulate(130, 8, **kwargs))
    expected = "\n".join(i.text if isinstance(i, BrokenRecord) else write_game(i)
                         for i in items)
    one, two = io.StringIO(), io.StringIO()
    summary = write_simulation(one, 130, 8, **kwargs)
    write_simulation(two, 130, 8, jobs=2, **kwargs)
    assert one.getvalue() == expected == two.getvalue()
    assert summary.games == 130 and summary.broken == 4
    assert summary.evenings == len({(i.tags["Event"], i.tags["Date"]) for i in items
                                    if isinstance(i, GameRecord)})
    assert sum(summary.defects.values()) == 4
    assert all(player(n).personality.value == p for n, p in summary.players.items())
    valid = [i for i in items if isinstance(i, GameRecord)]
    assert write_games(valid) == "\n".join(write_game(g) for g in valid)


def test_a_name_always_plays_its_personality():
    assert len(ROSTER) == 24 and len({p.name for p in ROSTER}) == 24
    for personality in Personality:
        assert len(roster([personality.value])) == 4
    checked = 0
    for record in simulate(300, seed=5, profile=RuleProfile(players=3)):
        for seat, name in zip("ABC", record.players, strict=True):
            kind = player(name).personality
            i = "ABC".index(seat)
            for rnd in record.rounds:
                prize, bid = rnd.prize.rank, rnd.bids[i].rank
                if kind is Personality.PRIZE:
                    assert bid == prize
                    checked += 1
    assert checked > 1000


def test_bots_option_limits_the_players():
    games = list(simulate(40, seed=3, bots=["prize", "random"]))
    kinds = {player(n).personality for g in games for n in g.players}
    assert kinds == {Personality.PRIZE, Personality.RANDOM}
    # with two personalities and two seats, every game is one against the other
    for g in games:
        assert {player(n).personality for n in g.players} == kinds
    with pytest.raises(UnknownBotError, match="unknown bot 'wizard'"):
        list(simulate(1, seed=0, bots=["wizard"]))


def test_play_evening_uses_given_attendees():
    folks = tuple(roster(["saver"]))
    evening = Evening("Test night", "Here", CLUBS[0].evening(0), RuleProfile(), 7,
                      attendees=folks)
    games = list(play_evening(evening, random.Random(0)))
    assert len(games) == 7
    assert {n for g in games for n in g.players} <= {p.name for p in folks}
    assert [g.tags.get("Match") for g in games] == ["1"] * 3 + ["2"] * 3 + [None]


def test_play_game_refuses_a_cheating_bot_and_checks_given_prizes():
    class Cheat(Bot):
        personality = Personality.PRIZE

        def bid(self, s, rng):
            return 13

    with pytest.raises(CardNotInHand, match="bids 13, which is not in its hand"):
        play_game(RuleProfile(), [Cheat(), RandomBot()], random.Random(0))
    with pytest.raises(PrizeRepeated):
        play_game(RuleProfile(cards=3), [PrizeBot(), PrizeBot()], random.Random(0),
                  prizes=[1, 1, 2])
    with pytest.raises(ValueError, match="2 players need 2 bots"):
        play_game(RuleProfile(), [PrizeBot()], random.Random(0))


@pytest.mark.parametrize("defect", list(Defect))
def test_each_defect_fails_with_exactly_its_code(defect):
    rng = random.Random(21)
    for players in (2, 3, 4):
        profile = defect.profile_for(RuleProfile(players=players))
        for _ in range(15):
            base = simulate_game(profile, roster()[:players], rng,
                                 {"Event": "Test", "Date": "2025.02.06"})
            assert validate_game(base).valid
            broken = break_record(base, defect, rng)
            assert broken.code == defect.code
            assert codes(broken.text) == {defect.code}, (broken.detail, broken.text)


def test_defects_that_need_a_special_game_say_so():
    rng = random.Random(0)
    base = simulate_game(RuleProfile(), roster()[:2], rng)
    with pytest.raises(ValueError, match="fewer than 13 cards"):
        break_record(base, Defect.UNKNOWN_CARD, rng)
    with pytest.raises(ValueError, match="fixed prize order"):
        break_record(base, Defect.PRIZE_ORDER, rng)
    assert Defect.UNKNOWN_CARD.profile_for(RuleProfile()).cards == 10
    assert Defect.UNKNOWN_CARD.profile_for(RuleProfile(cards=8)).cards == 8


def test_broken_records_cover_every_defect():
    records = broken_records(2 * len(Defect), seed=3, tags={"Event": "Quarantine demo"})
    assert [r.defect for r in records].count(Defect.SYNTAX) == 2
    assert {r.defect for r in records} == set(Defect)
    for r in records:
        assert codes(r.text) == {r.code}
        assert r.detail


def test_simulate_mixes_broken_records_in():
    items = list(simulate(40, seed=6, broken=5))
    broken = [i for i in items if isinstance(i, BrokenRecord)]
    assert len(items) == 45 and len(broken) == 5
    assert len({b.defect for b in broken}) == 5
    for b in broken:
        assert codes(b.text) == {b.code}


def test_prize_bot_beats_random_by_the_known_margin():
    """Sanity anchor (gops-facts): under the discard rule with 13 cards, bidding the prize
    against a uniformly random bidder gains (N^2-1)/6 = 28 points per game on average.

    The per-game difference has sd about 15.4, so over 2000 games the mean has standard
    error about 0.35; the tolerance of 1.5 is more than 4 standard errors.
    """
    profile = RuleProfile(tie_rule=TieRule.DISCARD)
    rng = random.Random(2026)
    diffs = []
    for _ in range(2000):
        game = play_game(profile, [PrizeBot(), RandomBot()], rng)
        diffs.append(game.scores[0] - game.scores[1])
    assert statistics.mean(diffs) == pytest.approx((13**2 - 1) / 6, abs=1.5)
    assert 13 < statistics.stdev(diffs) < 18


def test_bundled_samples_are_what_make_samples_builds_and_validate():
    from gops_records.pipelines import make_samples

    files = make_samples.build()
    broken = make_samples.broken()
    folder = make_samples.SAMPLES
    for name, text in files.items():
        assert (folder / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m gops_records.pipelines.make_samples")
    assert make_samples.check(folder) == []
    assert 10 <= len(broken) <= 15 and len({b.defect for b in broken}) == len(Defect)
    players = {len(g.players) for name in files if name != make_samples.BROKEN_FILE
               for g in parse(files[name])}
    rules = {g.tags["TieRule"] for name in files for g in parse(files[name])}
    assert players == {2, 3} and rules == {"carry", "discard"}
    assert 200 <= sum(e.games for e in make_samples.EVENINGS) <= 500


def test_the_sample_pipeline_finds_a_stale_file_and_a_stray_one(tmp_path, capsys):
    """--check compares with a fresh build: a changed file and a .gops file the build does
    not make are both named, and nothing is written."""
    from gops_records.pipelines import make_samples

    assert make_samples.main(["--out", str(tmp_path)]) == 0
    assert make_samples.main(["--out", str(tmp_path), "--check"]) == 0
    first = tmp_path / make_samples.file_name(make_samples.EVENINGS[0])
    first.write_text(first.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (tmp_path / "stray.gops").write_text("", encoding="utf-8")
    assert make_samples.main(["--out", str(tmp_path), "--check"]) == 1
    err = capsys.readouterr().err
    assert f"{first}: differs from a fresh build" in err
    assert f"{tmp_path / 'stray.gops'}: not made by this script" in err
