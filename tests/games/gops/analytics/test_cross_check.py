"""Random games played through the rules engine, imported, and checked against plain Python.

The SQL (bit masks of spent cards, islands of tied rounds, pairs from rosters) is compared
with a direct computation over the engine's own round results, for 2-4 players, 3-13 cards,
both tie rules, finished and unfinished games.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import duckdb
import numpy as np
import pytest

import gops_records.games.gops.analytics as a
from gops_records.core.importer import import_paths
from gops_records.core.stats import clustered_rate
from gops_records.games.gops.cards import rank_name
from gops_records.games.gops.rules import Game, RoundResult, RuleProfile

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def _games(seed: int, count: int) -> list[tuple[RuleProfile, list[str], list[RoundResult]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        profile = RuleProfile(cards=rng.randint(3, 13), players=rng.choice([2, 2, 3, 4]),
                              tie_rule=rng.choice(["carry", "discard"]))
        names = rng.sample(NAMES, profile.players)
        game = Game(profile)
        prizes = rng.sample(range(1, profile.cards + 1), profile.cards)
        hands = [rng.sample(range(1, profile.cards + 1), profile.cards) for _ in names]
        rounds = profile.cards if rng.random() < 0.85 else rng.randint(1, profile.cards - 1)
        results = [game.play_round(prizes[i], [h[i] for h in hands]) for i in range(rounds)]
        out.append((profile, names, results))
    return out


def _text(profile: RuleProfile, names: list[str], results: list[RoundResult], n: int) -> str:
    seats = "".join(f'[{"ABCD"[i]} "{name}"] ' for i, name in enumerate(names))
    lines = [f'[Event "Sim"] [Round "{n}"] {seats}[Cards "{profile.cards}"] '
             f'[TieRule "{profile.tie_rule.value}"]']
    lines += [f"{r.round_no}. " + " ".join(rank_name(c) for c in (r.prize, *r.bids))
              for r in results]
    if len(results) == profile.cards:
        scores = [0] * len(names)
        for r in results:
            if r.winner is not None:
                scores[r.winner] += r.pool_value
        lines.append("-".join(map(str, scores)))
    else:
        lines.append("*")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory):
    games = _games(seed=2026, count=60)
    folder: Path = tmp_path_factory.mktemp("sim")
    (folder / "sim.gops").write_text(
        "\n".join(_text(p, names, rs, i + 1) for i, (p, names, rs) in enumerate(games)),
        encoding="utf-8")
    summary = import_paths([folder / "sim.gops"], folder / "sim.duckdb")
    assert summary.games_new == len(games) and summary.games_rejected == 0
    con = duckdb.connect(str(folder / "sim.duckdb"), read_only=True)
    yield con, games
    con.close()


def test_ties_and_streaks_match_python(sim):
    con, games = sim
    rounds = sum(len(rs) for _, _, rs in games)
    ties = sum(r.tie for _, _, rs in games for r in rs)
    assert ties > 30  # enough to make the comparison mean something
    assert a.tie_summary(con, a.Filters()).row(-1)[:3] == ("all", rounds, ties)
    streaks: Counter[int] = Counter()
    for _, _, rs in games:
        run = 0
        for r in [*rs, None]:
            if r is not None and r.tie:
                run += 1
            elif run:
                streaks[run] += 1
                run = 0
    assert dict(a.tie_streaks(con, a.Filters()).rows()) == dict(streaks)


def test_pair_ties_match_python(sim):
    con, games = sim
    expected: Counter[tuple[str, str]] = Counter()
    for _, names, rs in games:
        for r in rs:
            top = max(r.bids)
            if r.tie:
                at_top = [names[i] for i, b in enumerate(r.bids) if b == top]
                expected.update((p, o) for p in at_top for o in at_top if p != o)
    got = {(p, o): t for p, o, _, t, *_ in a.ties_by_pair(con, a.Filters()).rows() if t}
    assert got == dict(expected)
    assert len(expected) == 20  # every pair of the five names tied at least once


def test_clustered_pair_intervals_match_python(sim):
    """Each pair's interval is the game-clustered one of its per-game (ties, rounds)."""
    con, games = sim
    per_game: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for _, names, rs in games:
        met: Counter[tuple[str, str]] = Counter()
        for r in rs:
            top = max(r.bids)
            at_top = [names[i] for i, b in enumerate(r.bids) if b == top] if r.tie else []
            met.update((p, o) for p in at_top for o in at_top if p != o)
        for i, p in enumerate(names):
            for j, o in enumerate(names):
                if i != j:
                    per_game.setdefault((p, o), []).append((met[(p, o)], len(rs)))
    out = a.ties_by_pair(con, a.Filters())
    assert out.height == len(per_game)
    widened = 0
    for row in out.iter_rows(named=True):
        k, n = zip(*per_game[(row["player"], row["opponent"])], strict=True)
        want = clustered_rate(np.array(k), np.array(n))
        assert (row["ties"], row["rounds"], row["games"]) == (want.k, want.n, want.games)
        assert (row["ci_low"], row["ci_high"], row["design_effect"]) == pytest.approx(
            (want.low, want.high, want.design_effect))
        widened += row["design_effect"] > 1
    assert widened > 0


def test_carried_values_match_python(sim):
    con, games = sim
    expected: Counter[int] = Counter()
    for profile, _, rs in games:
        if profile.tie_rule.value == "carry":
            expected[sum(r.prize for r in rs if r.tie and r.round_no < profile.cards)] += 1
    assert dict(a.carried_per_game(con, a.Filters()).rows()) == dict(expected)


@pytest.mark.parametrize("player", NAMES)
def test_hand_measures_match_python(sim, player):
    con, games = sim
    habits: Counter[tuple[str, str]] = Counter()
    cells: Counter[tuple[int, int]] = Counter()
    for profile, names, rs in games:
        if player not in names:
            continue
        seat, n = names.index(player), profile.cards
        hand, prizes_left = set(range(1, n + 1)), set(range(1, n + 1))
        for r in rs:
            bid = r.bids[seat]
            if len(hand) > 1:
                phase = ("early", "middle", "late")[math.ceil(3 * r.round_no / n) - 1]
                for ph in ("all", phase):
                    if r.prize in hand:
                        habits[("exact_prize", ph, "n")] += 1
                        habits[("exact_prize", ph, "k")] += bid == r.prize
                    if r.prize + 1 in hand:
                        habits[("prize_plus_one", ph, "n")] += 1
                        habits[("prize_plus_one", ph, "k")] += bid == r.prize + 1
                    habits[("unforced", ph, "n")] += 1
                    habits[("highest_remaining", ph, "k")] += bid == max(hand)
                    habits[("lowest_remaining", ph, "k")] += bid == min(hand)
                below_bid = sum(c < bid for c in hand)
                below_prize = sum(p < r.prize for p in prizes_left)
                width = len(hand) - 1
                cell = (min(below_prize * 5 // width, 4) + 1, min(below_bid * 5 // width, 4) + 1)
                cells[cell] += 1
            hand.discard(bid)
            prizes_left.discard(r.prize)
    out = a.bid_habits(con, a.Filters(), player)
    for habit, phase, k, n, *_ in out.rows():
        if habit in ("exact_prize", "prize_plus_one"):
            assert (k, n) == (habits[(habit, phase, "k")], habits[(habit, phase, "n")])
        else:
            assert (k, n) == (habits[(habit, phase, "k")], habits[("unforced", phase, "n")])
    got = {(p, b): c for p, b, c in a.relative_bids(con, a.Filters(), player).rows()}
    assert got == dict(cells)


@pytest.mark.parametrize("player", NAMES[:3])
def test_clustered_habit_intervals_match_python(sim, player):
    """Each habit's (and the carry effect's) interval is the game-clustered one of its
    per-game counts."""
    con, games = sim
    per_game: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for profile, names, rs in games:
        if player not in names:
            continue
        seat, n = names.index(player), profile.cards
        hand = set(range(1, n + 1))
        counts: Counter[tuple[str, str, str]] = Counter()
        for r in rs:
            bid = r.bids[seat]
            if len(hand) > 1:
                phase = ("early", "middle", "late")[math.ceil(3 * r.round_no / n) - 1]
                pool = "carried pool" if r.carried_in > 0 else "single prize"
                for ph in ("all", phase):
                    if r.prize in hand:
                        counts[("exact_prize", ph, "n")] += 1
                        counts[("exact_prize", ph, "k")] += bid == r.prize
                    if r.prize + 1 in hand:
                        counts[("prize_plus_one", ph, "n")] += 1
                        counts[("prize_plus_one", ph, "k")] += bid == r.prize + 1
                    for habit, hit in (("highest_remaining", bid == max(hand)),
                                       ("lowest_remaining", bid == min(hand))):
                        counts[(habit, ph, "n")] += 1
                        counts[(habit, ph, "k")] += hit
                counts[("carry", pool, "n")] += 1
                counts[("carry", pool, "k")] += bid == max(hand)
            hand.discard(bid)
        for key in {(h, ph) for h, ph, _ in counts}:
            per_game.setdefault(key, []).append((counts[(*key, "k")], counts[(*key, "n")]))
    bidding = a.player_bidding(con, a.Filters(), player)
    rows = [(r["habit"], r["phase"], r) for r in bidding["bid_habits"].iter_rows(named=True)]
    rows += [("carry", r["pool"], {**r, "rate": r["rate_highest"]})
             for r in bidding["carry_effect"].iter_rows(named=True)]
    checked = 0
    for habit, phase, row in rows:
        if (habit, phase) not in per_game:
            assert row["n"] == 0
            continue
        k, n = zip(*per_game[(habit, phase)], strict=True)
        want = clustered_rate(np.array(k), np.array(n))
        assert row["n"] == want.n, (habit, phase)
        assert (row["rate"], row["ci_low"], row["ci_high"], row["design_effect"]) == \
            pytest.approx((want.rate, want.low, want.high, want.design_effect)), (habit, phase)
        checked += 1
    assert checked >= 16


@pytest.mark.parametrize("f", [a.Filters(), a.Filters(events=("Sim",)),
                               a.Filters(tie_rule="carry"), a.Filters(players=("Ann",))],
                         ids=["all", "every-game", "carry", "ann"])
def test_pool_distribution_matches_python(sim, f):
    con, games = sim
    expected: Counter[tuple[int, int]] = Counter()
    for profile, names, rs in games:
        if f.tie_rule and profile.tie_rule.value != f.tie_rule:
            continue
        if f.players and not set(f.players) & set(names):
            continue
        for r in rs:
            expected[(r.pool_value, len(r.pool_cards))] += 1
    got = a.pool_distribution(con, f)
    assert {(v, c): n for v, c, n in got.rows()} == dict(expected)
    assert got.select("pool_value", "pool_cards").rows() == sorted(expected)
    assert any(c > 1 for _, c in expected) and any(len(rs) < p.cards for p, _, rs in games)
