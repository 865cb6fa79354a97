"""The tie, pool and bidding figures on games of both variants, each number checked against
a recomputation in plain Python from the rules engine (rules.Game) replaying the same
records: games as `gops simulate --bid-cards 2` / `--open-prizes 3` writes them (bots),
and random play (any prize of the row taken, unfinished games too), mixed with classic
games, 2-4 players, both tie rules."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import duckdb
import numpy as np
import pytest

import gops_records.games.gops.analytics as a
from gops_records.core.importer import import_paths
from gops_records.core.stats import clustered_rate
from gops_records.games.gops.analytics.filters import CLASSIC, Filters, Variant, VariantKind
from gops_records.games.gops.notation import GameRecord, write_games
from gops_records.games.gops.rules import Game, RoundResult, RuleProfile, TieRule
from gops_records.games.gops.simulate import record_of, simulate

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
SIMULATED = [RuleProfile(bid_cards=2), RuleProfile(open_prizes=3),
             RuleProfile(bid_cards=3, players=3, tie_rule=TieRule.DISCARD),
             RuleProfile(open_prizes=4, players=4, tie_rule=TieRule.DISCARD), RuleProfile()]


def _random_game(rng: random.Random, n: int) -> GameRecord:
    """A game of random legal play: random hands and pile, any prize of the row taken."""
    kind = rng.choice(["classic", "bids", "bids", "open", "open"])
    cards = rng.randint(4, 13)
    profile = RuleProfile(
        cards=cards, players=rng.choice([2, 2, 3, 4]),
        tie_rule=rng.choice([TieRule.CARRY, TieRule.DISCARD]),
        bid_cards=rng.choice([2, 3]) if kind == "bids" else 1,
        open_prizes=rng.randint(2, min(cards, 5)) if kind == "open" else None)
    game = Game(profile)
    pile = rng.sample(range(1, cards + 1), cards)
    stop = profile.rounds if rng.random() < 0.8 else rng.randint(1, profile.rounds)
    while game.round_no < stop:
        bids = [tuple(rng.sample(game.hand(s), profile.bid_cards))
                for s in range(profile.players)]
        if profile.open_prizes is None:
            game.play_round(pile.pop(), bids)
            continue
        revealed = tuple(pile.pop() for _ in range(game.to_reveal()))
        strengths = [sum(b) for b in bids]
        top = max(strengths)
        row = [*game.row, *revealed]
        taken = rng.choice(row) if strengths.count(top) == 1 else None
        game.play_round(revealed, bids, taken)
    seats = {"ABCD"[i]: name for i, name in enumerate(rng.sample(NAMES, profile.players))}
    return record_of(game, {"Event": "Random", "Round": str(n), **seats})


def _profile(record: GameRecord) -> RuleProfile:
    tags = record.tags
    return RuleProfile(cards=int(tags.get("Cards", 13)), players=record.n_players,
                       tie_rule=tags.get("TieRule", "carry"),
                       bid_cards=int(tags.get("BidCards", 1)),
                       open_prizes=int(tags["OpenPrizes"]) if "OpenPrizes" in tags else None)


def _replay(record: GameRecord) -> tuple[RuleProfile, Game]:
    """The record played again by the rules engine, every round checked."""
    profile = _profile(record)
    game = Game(profile)
    for rnd in record.rounds:
        bids = [tuple(c.rank for c in bid.cards) for bid in rnd.bids]
        if profile.open_prizes is None:
            game.play_round(rnd.prize.rank, bids)
        else:
            game.play_round(tuple(c.rank for c in rnd.revealed), bids,
                            rnd.prize.rank if rnd.prize else None)
    return profile, game


class Played:
    """One stored game as the engine replayed it."""

    def __init__(self, record: GameRecord) -> None:
        self.profile, self.game = _replay(record)
        self.names: list[str] = record.players
        self.rounds: list[RoundResult] = self.game.history
        self.variant = Variant.of(self.profile.bid_cards, self.profile.open_prizes)
        self.finished = self.game.is_over

    @property
    def has_pool(self) -> bool:
        return self.profile.open_prizes is None


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory):
    rng = random.Random(13)
    records = [r for p in SIMULATED for r in simulate(8, 5, p)]
    records += [_random_game(rng, n) for n in range(160)]
    folder: Path = tmp_path_factory.mktemp("variants")
    (folder / "all.gops").write_text(write_games(records), encoding="utf-8")
    summary = import_paths([folder / "all.gops"], folder / "v.duckdb")
    assert summary.games_new == len(records) and summary.games_rejected == 0
    played = [Played(r) for r in records]
    kinds = Counter(p.variant.kind for p in played)
    assert min(kinds.values()) >= 40, kinds  # every kind is well represented
    assert sum(not p.finished for p in played) >= 20
    con = duckdb.connect(str(folder / "v.duckdb"), read_only=True)
    yield con, played
    con.close()


def _kept(played: list[Played], f: Filters) -> list[Played]:
    out = []
    for p in played:
        if f.variant is not None and p.variant != f.variant:
            continue
        if f.tie_rule is not None and p.profile.tie_rule.value != f.tie_rule:
            continue
        if f.players and not set(f.players) & set(p.names):
            continue
        if f.finished_only and not p.finished:
            continue
        out.append(p)
    return out


FILTERS = [Filters(), Filters(variant=CLASSIC), Filters(variant="bid-cards-2"),
           Filters(variant="bid-cards-3"), Filters(variant="open-prizes-3"),
           Filters(tie_rule="discard"), Filters(players=("Ann",)),
           Filters(finished_only=True, tie_rule="carry")]
IDS = ["all", "classic", "bids2", "bids3", "open3", "discard", "ann", "finished-carry"]


def test_the_variant_filter_keeps_the_games_of_its_variant(sim):
    con, played = sim
    assert a.list_variants(con) == sorted(
        {p.variant for p in played},
        key=lambda v: (list(VariantKind).index(v.kind), v.k or 0))
    for variant in a.list_variants(con):
        f = Filters(variant=variant)
        assert a.overview(con, f)["games"] == len(_kept(played, f)), variant


@pytest.mark.parametrize("f", FILTERS, ids=IDS)
def test_tie_figures_match_the_engine(sim, f):
    con, played = sim
    kept = _kept(played, f)
    rounds = [r for p in kept for r in p.rounds]
    assert a.tie_summary(con, f).row(-1)[:3] == ("all", len(rounds), sum(r.tie for r in rounds))
    by_round = Counter((r.round_no, r.tie) for r in rounds)
    got = {row["round_no"]: (row["rounds"], row["ties"])
           for row in a.ties_by_round(con, f).iter_rows(named=True)}
    assert got == {n: (by_round[(n, False)] + by_round[(n, True)], by_round[(n, True)])
                   for n, _ in by_round}
    streaks: Counter[int] = Counter()
    for p in kept:
        run = 0
        for r in [*p.rounds, None]:
            if r is not None and r.tie:
                run += 1
            elif run:
                streaks[run] += 1
                run = 0
    assert dict(a.tie_streaks(con, f).rows()) == dict(streaks)
    pairs: Counter[tuple[str, str]] = Counter()
    for p in kept:
        for r in p.rounds:  # a bid's strength is what ties
            top = [p.names[i] for i, b in enumerate(r.bids) if b == max(r.bids)]
            if r.tie:
                pairs.update((x, y) for x in top for y in top if x != y)
    got_pairs = {(x, y): t for x, y, _, t, *_ in a.ties_by_pair(con, f).rows() if t}
    assert got_pairs == dict(pairs)


@pytest.mark.parametrize("f", FILTERS, ids=IDS)
def test_final_ties_match_the_engine(sim, f):
    con, played = sim
    done = [p for p in _kept(played, f) if p.finished]
    ended = [p for p in done if p.rounds[-1].tie]
    # the value the final tie left on the table: the last pool, or with open prizes the row
    left = [sum(p.rounds[-1].pool_cards) for p in ended]
    got = a.final_ties(con, f)
    assert (got["games"], got["games_ending_on_tie"]) == (len(done), len(ended))
    if done:
        assert got["mean_unclaimed"] == pytest.approx(
            np.mean([p.game.unclaimed for p in done]))
    assert got["mean_pool_left"] == (pytest.approx(np.mean(left)) if left else None)
    if f == Filters():
        assert any(p.variant.kind is VariantKind.BID_CARDS for p in ended)
        assert any(p.variant.kind is VariantKind.OPEN_PRIZES for p in ended)


@pytest.mark.parametrize("f", FILTERS, ids=IDS)
def test_pool_figures_match_the_engine(sim, f):
    con, played = sim
    kept = _kept(played, f)
    pooled = [p for p in kept if p.has_pool]  # open-prize games have no pool
    expected = Counter((r.pool_value, len(r.pool_cards)) for p in pooled for r in p.rounds)
    got = a.pool_distribution(con, f)
    assert {(v, c): n for v, c, n in got.rows()} == dict(expected)
    largest = a.largest_pools(con, f, 15)
    values = sorted((r.pool_value for p in pooled for r in p.rounds), reverse=True)
    assert largest["pool_value"].to_list() == values[:15]
    carried = Counter(sum(r.prize for r in p.rounds if r.tie and r.round_no < p.profile.rounds)
                      for p in pooled if p.profile.tie_rule is TieRule.CARRY)
    assert dict(a.carried_per_game(con, f).rows()) == dict(carried)
    unclaimed = Counter(p.game.unclaimed for p in kept if p.finished)
    assert dict(a.unclaimed_per_game(con, f).rows()) == dict(unclaimed)
    if f == Filters():
        assert any(c > 1 for _, c in expected)
        assert any(p.variant.kind is VariantKind.BID_CARDS and r.carried_in
                   for p in pooled for r in p.rounds)


@pytest.mark.parametrize("player", NAMES[:3])
def test_strength_by_prize_matches_the_engine(sim, player):
    con, played = sim
    cells: Counter[tuple[int, int, int]] = Counter()
    for p in _kept(played, Filters()):
        if p.profile.bid_cards > 1 and player in p.names:
            seat = p.names.index(player)
            cells.update((p.profile.bid_cards, r.prize, r.bids[seat]) for r in p.rounds)
    frames = a.strength_by_prize(con, Filters(), player)
    got = {(k, prize, s): n for k, prize, s, n, _ in frames["heatmap"].rows()}
    assert got == dict(cells) and cells
    for k, prize, n, mean_strength, mean_card in frames["by_prize"].rows():
        mine = {s: c for (kk, pp, s), c in cells.items() if (kk, pp) == (k, prize)}
        assert n == sum(mine.values())
        assert mean_strength == pytest.approx(sum(s * c for s, c in mine.items()) / n)
        assert mean_card == pytest.approx(mean_strength / k)
    only_pairs = a.strength_by_prize(con, Filters(variant="bid-cards-2"), player)
    assert set(only_pairs["heatmap"]["bid_cards"].to_list()) <= {2}


@pytest.mark.parametrize("player", [None, *NAMES[:3]])
def test_open_row_figures_match_the_engine(sim, player):
    con, played = sim
    per_game: dict[str, list[tuple[int, int]]] = {c: [] for c in a.CHOICES}
    bids: Counter[tuple[int, int]] = Counter()
    for p in _kept(played, Filters()):
        if p.has_pool or (player is not None and player not in p.names):
            continue
        seat = p.names.index(player) if player is not None else None
        counts: Counter[str] = Counter()
        won = 0
        for r in p.rounds:
            if seat is not None:
                bids[(max(r.pool_cards), r.bids[seat])] += 1
            if r.winner is None or len(r.pool_cards) < 2 or (seat is not None
                                                             and r.winner != seat):
                continue
            won += 1
            counts["highest" if r.taken == max(r.pool_cards) else
                   "lowest" if r.taken == min(r.pool_cards) else "between"] += 1
        if won:
            for choice in a.CHOICES:
                per_game[choice].append((counts[choice], won))
    got = a.row_choices(con, Filters(), player)
    assert got["choice"].to_list() == list(a.CHOICES)
    for row in got.iter_rows(named=True):
        k, n = zip(*per_game[row["choice"]], strict=True)
        want = clustered_rate(np.array(k), np.array(n))
        assert (row["taken"], row["rounds"], row["games"]) == (want.k, want.n, want.games)
        assert (row["rate"], row["ci_low"], row["ci_high"]) == pytest.approx(
            (want.rate, want.low, want.high))
    assert got.filter(got["choice"] == "between")["taken"].item() > 0  # a real choice
    if player is not None:
        table = a.open_row_bids(con, Filters(), player)
        assert {(b, bid): n for b, bid, n, _ in table.rows()} == dict(bids)


def test_the_classic_bidding_figures_see_classic_games_only(sim):
    con, played = sim
    f = Filters()
    classic = f.only(CLASSIC)
    assert classic == Filters(variant=CLASSIC)
    assert Filters(variant="open-prizes-3").only(CLASSIC) is None
    player = "Ann"
    bids = sum(len(p.rounds) for p in _kept(played, classic) if player in p.names)
    heat = a.player_bidding(con, classic, player)["bid_heatmap"]
    assert int(heat["count"].sum()) == bids
    assert heat["bid"].max() <= 13  # strengths of several cards never show as a card
