"""The production replay against the readable engine (rules.Game) for the two variants of
the Dutch rules, bids of several cards and open prizes: generated games with 2-4 players,
both tie rules and every prize order, written in every layout the notation allows."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import ALL_LAYOUTS, NAMES

from gops_records.games.gops.cards import SEATS, Seat, Suit
from gops_records.games.gops.checking import check_bytes
from gops_records.games.gops.notation import (
    BidToken,
    CardToken,
    GameRecord,
    RoundRecord,
    write_game,
)
from gops_records.games.gops.notation.layouts import write_games_in_layout
from gops_records.games.gops.reading import parse, read_reports
from gops_records.games.gops.rules import (
    Game,
    OpenTakes,
    PrizeOrder,
    RuleProfile,
    TieRule,
    resolve,
    takes_in_order,
)


def _bid_token(cards: tuple[int, ...], seat: int):
    suit = Seat.at(seat).suit
    tokens = tuple(CardToken(c, suit) for c in cards)
    return tokens[0] if len(tokens) == 1 else BidToken(tokens)


@st.composite
def variant_games(draw, variant: str | None = None):
    """A game of one of the two variants played by random legal moves, and its record
    (finished or not)."""
    variant = variant or draw(st.sampled_from(["bids", "open"]))
    if variant == "bids":
        k = draw(st.integers(2, 3))
        cards = draw(st.integers(k, 13))
        extra = {"bid_cards": k}
    else:
        cards = draw(st.integers(2, 13))
        extra = {"open_prizes": draw(st.integers(2, cards))}
        if variant == "each":  # every bidder chooses, strongest first
            extra["open_takes"] = OpenTakes.EACH
    players = draw(st.integers(2, 4))
    profile = RuleProfile(cards, players, draw(st.sampled_from(list(TieRule))),
                          draw(st.sampled_from(list(PrizeOrder))), **extra)
    deck = list(range(1, cards + 1))
    shuffled = draw(st.permutations(deck))
    pile = [profile.fixed_prize(i + 1) or shuffled[i] for i in range(cards)]
    hands = [draw(st.permutations(deck)) for _ in range(players)]
    played = draw(st.integers(0, profile.rounds))
    game = Game(profile)
    rounds = []
    k = profile.bid_cards
    for r in range(played):
        bids = tuple(tuple(hand[r * k:(r + 1) * k]) for hand in hands)
        if profile.is_open:
            count = game.to_reveal()
            revealed, pile = tuple(pile[:count]), pile[count:]
            row = game.row + list(revealed)
            single = tuple(b[0] for b in bids)
            taken = None
            takes = None
            if profile.each_takes:
                takes = takes_in_order(row, single, profile.tie_rule, lambda seat, left:
                                       left[draw(st.integers(0, len(left) - 1))])
                winner = resolve(single)
                taken = takes[winner] if winner is not None else None
            elif resolve(single) is not None:
                taken = row[draw(st.integers(0, len(row) - 1))]
            game.play_round(revealed, single, takes if profile.each_takes else taken)
            rounds.append(RoundRecord(CardToken(taken, Suit.DIAMONDS) if taken else None,
                                      tuple(_bid_token(b, s) for s, b in enumerate(bids)),
                                      revealed=tuple(CardToken(p, Suit.DIAMONDS)
                                                     for p in revealed),
                                      takes=None if takes is None else tuple(
                                          CardToken(t, Suit.DIAMONDS) if t else None
                                          for t in takes)))
        else:
            game.play_round(pile[r], bids)
            rounds.append(RoundRecord(CardToken(pile[r], Suit.DIAMONDS),
                                      tuple(_bid_token(b, s) for s, b in enumerate(bids))))
    tags = {SEATS[s]: NAMES[s] for s in range(players) if draw(st.booleans()) or s >= 2}
    tags["TieRule"] = profile.tie_rule.value
    if cards != 13 or draw(st.booleans()):
        tags["Cards"] = str(cards)
    if profile.prize_order is not PrizeOrder.SHUFFLED:
        tags["PrizeOrder"] = profile.prize_order.value
    if profile.is_open:
        tags["OpenPrizes"] = str(profile.open_prizes)
        if profile.each_takes:
            tags["OpenTakes"] = profile.open_takes.value
    else:
        tags["BidCards"] = str(profile.bid_cards)
    result = tuple(game.scores) if game.is_over and draw(st.booleans()) else None
    return profile, game, GameRecord(tags, tuple(rounds), result)


def _same(report, game: Game) -> None:
    assert report.valid, report.problems
    assert report.finished == game.is_over
    assert report.outcome.scores == tuple(game.scores)
    if game.is_over:
        assert report.outcome.unclaimed == game.unclaimed
    assert report.rounds == tuple(game.history)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(variant_games(), min_size=1, max_size=4), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_every_layout_replays_as_the_reference_engine(played, layout, seed):
    data = write_games_in_layout([record for _, _, record in played], layout, seed)
    reports = read_reports(data.decode("utf-8"))
    assert len(reports) == len(played)
    for report, (profile, game, _) in zip(reports, played, strict=True):
        assert report.profile == profile
        _same(report, game)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(variant_games("each"), min_size=1, max_size=3), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_every_bidder_choosing_replays_as_the_reference_engine(played, layout, seed):
    """The differential test for open prizes read as every bidder choosing: the games the
    engine plays, in every layout, must read back to the engine's rounds and scores."""
    data = write_games_in_layout([record for _, _, record in played], layout, seed)
    reports = read_reports(data.decode("utf-8"))
    for report, (profile, game, _) in zip(reports, played, strict=True):
        assert report.profile == profile
        _same(report, game)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_games())
def test_round_trip_and_records_built_in_python(played):
    from gops_records.games.gops.validate import validate_game

    profile, game, record = played
    (parsed,) = parse(write_game(record))
    assert parsed == record and parsed.problems == ()
    assert write_game(parsed) == write_game(record)
    _same(validate_game(record), game)  # the same replay, through tokens made of the record


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(variant_games(), min_size=2, max_size=5), st.integers(1, 400))
def test_windows_of_any_size_read_the_same_games(played, chunk):
    data = write_games_in_layout([record for _, _, record in played], ALL_LAYOUTS[0])
    whole = [row for c in check_bytes(data, "x", chunk_bytes=1 << 30)
             for row in c.verdicts.to_dicts()]
    cut = [row for c in check_bytes(data, "x", chunk_bytes=chunk) for row in c.verdicts.to_dicts()]
    assert cut == whole
    assert [row["scores"] for row in whole] == [game.scores for _, game, _ in played]


def _reference_codes(profile: RuleProfile, rounds: list[RoundRecord], k: int,
                     spoiled: RoundRecord) -> set[str]:
    reference = Game(profile)

    def args(r: RoundRecord):
        bids = tuple(tuple(c.rank for c in b.cards) for b in r.bids)
        if r.revealed is None:
            return r.prize.rank, bids, None
        return (tuple(c.rank for c in r.revealed), tuple(b[0] for b in bids),
                r.prize.rank if r.prize else None)

    for r in rounds[:k]:
        reference.play_round(*args(r))
    return {p.code for p in reference.problems(*args(spoiled))}


def _spoil(data, profile: RuleProfile, rounds: list[RoundRecord], k: int) -> RoundRecord:
    """Round k with one thing wrong: a bid's card spent earlier or given twice, a prize
    revealed again, a prize taken that is not in the row, a taker on a tie or none."""
    old = rounds[k]
    seat = data.draw(st.integers(0, profile.players - 1))
    earlier = rounds[data.draw(st.integers(0, k - 1))]
    bids = list(old.bids)
    choices = ["spent"]
    if profile.bid_cards > 1:
        choices.append("twice")
    if profile.is_open:
        choices += ["take"]
        if old.revealed and any(r.revealed for r in rounds[:k]):
            choices.append("revealed")
    what = data.draw(st.sampled_from(choices))
    if what == "spent":
        cards = list(bids[seat].cards)
        cards[data.draw(st.integers(0, len(cards) - 1))] = \
            earlier.bids[seat].cards[data.draw(st.integers(0, len(cards) - 1))]
        bids[seat] = cards[0] if len(cards) == 1 else BidToken(tuple(cards))
        return RoundRecord(old.prize, tuple(bids), revealed=old.revealed)
    if what == "twice":
        cards = list(bids[seat].cards)
        cards[1] = cards[0]
        bids[seat] = BidToken(tuple(cards))
        return RoundRecord(old.prize, tuple(bids), revealed=old.revealed)
    if what == "revealed":
        before = [c for r in rounds[:k] for c in r.revealed]
        shown = list(old.revealed)
        shown[data.draw(st.integers(0, len(shown) - 1))] = data.draw(st.sampled_from(before))
        return RoundRecord(old.prize, old.bids, revealed=tuple(shown))
    # the prize taken: '-' on a win, a prize on a tie, or one not in the row
    if old.prize is None:
        taken = CardToken(data.draw(st.integers(1, profile.cards)), Suit.DIAMONDS)
    elif data.draw(st.booleans()):
        taken = None
    else:
        gone = [r.prize for r in rounds[:k] if r.prize is not None]
        if not gone:
            return RoundRecord(None, old.bids, revealed=old.revealed)
        taken = data.draw(st.sampled_from(gone))
    return RoundRecord(taken, old.bids, revealed=old.revealed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_games().filter(lambda g: len(g[1].history) >= 2), st.data())
def test_one_mistake_is_found_where_the_reference_engine_refuses_it(played, data):
    profile, game, record = played
    rounds = list(record.rounds)
    k = data.draw(st.integers(1, len(rounds) - 1))  # the round to spoil
    spoiled = _spoil(data, profile, rounds, k)
    expected = _reference_codes(profile, rounds, k, spoiled)
    rounds[k] = spoiled
    layout = data.draw(st.sampled_from(ALL_LAYOUTS))
    text = write_games_in_layout([GameRecord(record.tags, tuple(rounds), None)], layout)
    (report,) = read_reports(text.decode("utf-8"))
    found = {p.code for p in report.problems if p.round == k + 1}
    if expected:
        assert expected <= found, report.problems
        assert not report.valid and report.winner is None
    else:  # the spoiled round is legal after all (a random choice may undo itself)
        assert not found, report.problems
    assert [r.round_no for r in report.rounds][:k] == list(range(1, k + 1))
    assert all(p.line >= 1 and p.column >= 1 for p in report.problems)
