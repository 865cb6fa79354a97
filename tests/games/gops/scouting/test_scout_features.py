"""Situations built from the database, checked on paper against the club game.

Ann (seat A) and Bob (seat B), carry rule, round by round (prize: Ann-Bob -> who scores):
1. 8: 9-9 tie, 8 carried  2. 5: 7-J Bob 13  3. K: K-Q Ann 13  4. 2: A-2 Bob 2
5. Q: J-K Bob 12  6. 3: 2-3 Bob 3  7. 10: Q-10 Ann 10  8. 7: 10-A Ann 7  9. A: 3-4 Bob 1
10. J: 8-8 tie, 11 carried  11. 4: 6-5 Ann 15  12. 9: 5-6 Bob 9  13. 6: 4-7 Bob 6.
"""

from __future__ import annotations

import numpy as np
import pytest

from gops_records.games.gops.scouting.features import (
    ScoutError,
    Situations,
    check_player,
    situation_frame,
)

ALL = set(range(1, 14))


def row(frame, game_round: int, round_no: int) -> dict:
    games = sorted(set(frame["game_id"].to_list()), key=frame["game_id"].to_list().index)
    rows = frame.filter((frame["game_id"] == games[game_round - 1])
                        & (frame["round_no"] == round_no)).to_dicts()
    assert len(rows) == 1
    return rows[0]


def test_one_row_per_bid_of_the_player(club_con):
    ann = situation_frame(club_con, "Ann")
    bob = situation_frame(club_con, "Bob")
    assert ann.height == 26 and bob.height == 13
    assert set(bob["seat"].to_list()) == {"B"}


def test_round_three_for_ann(club_con):
    r = row(situation_frame(club_con, "Ann", vs="Bob"), 1, 3)
    assert (r["prize"], r["pool_value"], r["carried_in"], r["bid"]) == (13, 13, 0, 13)
    assert set(r["hand"]) == ALL - {9, 7}
    assert set(r["upcoming"]) == ALL - {8, 5, 13}
    assert [set(h) for h in r["opp_hands"]] == [ALL - {9, 11}]
    assert r["score_diff"] == -13          # Bob took the carried 8 and the 5
    assert r["bid_rank"] == 1.0 and r["prize_rank"] == 1.0


def test_carried_pool_in_round_eleven(club_con):
    r = row(situation_frame(club_con, "Ann", vs="Bob"), 1, 11)
    assert (r["prize"], r["pool_value"], r["carried_in"], r["bid"]) == (4, 15, 11, 6)
    assert sorted(r["hand"]) == [4, 5, 6]
    assert sorted(r["upcoming"]) == [6, 9]
    assert r["score_diff"] == 30 - 31
    assert r["bid_rank"] == 1.0 and r["prize_rank"] == 0.0


def test_relative_ranks_for_bob(club_con):
    r = row(situation_frame(club_con, "Bob"), 1, 2)
    # hand A..8, 10..K (12 cards): J is index 9 of 11; prizes left below 5: A, 2, 3, 4
    assert r["bid_rank"] == pytest.approx(9 / 11)
    assert r["prize_rank"] == pytest.approx(4 / 11)
    assert r["score_diff"] == 0


def test_vs_keeps_only_games_against_that_player(club_con):
    against_cat = situation_frame(club_con, "Ann", vs="Cat")
    assert against_cat.height == 13
    # Cat bids the prize, so Ann's round-2 opponent hand lacks the 8 (round 1's prize)
    assert set(against_cat.filter(against_cat["round_no"] == 2)["opp_hands"][0][0]) == ALL - {8}


def test_situations_arrays(club_con):
    s = Situations.from_frame(situation_frame(club_con, "Ann", vs="Bob"))
    assert len(s) == 13 and s.games == 1
    r11 = 10
    assert s.hand[r11].nonzero()[0].tolist() == [3, 4, 5]        # cards 4, 5, 6
    assert s.hand_size.tolist() == list(range(13, 0, -1))
    assert s.prizes_left.tolist() == list(range(13, 0, -1))
    assert s.prize_index[2] == 10 and s.prize_index[r11] == 0    # K highest, 4 lowest
    assert s.opp_high[r11] == 7
    assert s.carried[r11] == 11 and s.pool_value[r11] == 15
    half = s.take(s.round_no <= 6)
    assert len(half) == 6 and half.hand.shape == (6, 13)
    assert np.array_equal(half.bid, [9, 7, 13, 1, 11, 2])


def test_unknown_player_names_close_matches(club_con):
    with pytest.raises(ScoutError, match="no recorded games for player 'Anne'.*'Ann'"):
        check_player(club_con, "Anne")
    with pytest.raises(ScoutError, match="'Bobby'"):
        check_player(club_con, "Ann", vs="Bobby")
    with pytest.raises(ScoutError, match="--vs names the scouted player"):
        check_player(club_con, "Ann", vs="Ann")


def test_situations_of_random_two_to_four_player_games(tmp_path):
    """Each seat's hand, the others' hands, the prizes to come and the score difference,
    against a plain replay through rules.Game, for 2-4 players and both tie rules."""
    import random

    import duckdb

    from gops_records.core.importer import import_paths
    from gops_records.games.gops.cards import rank_name
    from gops_records.games.gops.rules import Game, RuleProfile

    rng = random.Random(12)
    names = ["Ann", "Bob", "Cid", "Dee"]
    texts, games = [], []
    for i in range(40):
        profile = RuleProfile(cards=rng.randint(4, 13), players=rng.choice([2, 3, 4]),
                              tie_rule=rng.choice(["carry", "discard"]))
        seated = rng.sample(names, profile.players)
        prizes = rng.sample(range(1, profile.cards + 1), profile.cards)
        hands = [rng.sample(range(1, profile.cards + 1), profile.cards) for _ in seated]
        game = Game(profile)
        results = [game.play_round(prizes[r], [h[r] for h in hands])
                   for r in range(profile.cards)]
        seats = "".join(f'[{"ABCD"[j]} "{n}"] ' for j, n in enumerate(seated))
        date = f"2026.{1 + i // 28:02d}.{1 + i % 28:02d}"
        lines = [f'[Event "X"] [Date "{date}"] {seats}[Cards "{profile.cards}"] '
                 f'[TieRule "{profile.tie_rule.value}"]']
        lines += [f"{r.round_no}. " + " ".join(rank_name(c) for c in (r.prize, *r.bids))
                  for r in results]
        lines.append("-".join(map(str, game.outcome().scores)))
        texts.append("\n".join(lines) + "\n")
        games.append((profile, seated, results))
    (tmp_path / "g.gops").write_text("\n".join(texts), encoding="utf-8")
    assert import_paths([tmp_path / "g.gops"], tmp_path / "g.duckdb").games_new == 40
    con = duckdb.connect(str(tmp_path / "g.duckdb"), read_only=True)
    try:
        for name in names:
            frame = situation_frame(con, name).sort("date", "round_no")
            expected = []
            for profile, seated, results in games:
                if name not in seated:
                    continue
                me = seated.index(name)
                held = [set(range(1, profile.cards + 1)) for _ in seated]
                scores = [0] * len(seated)
                to_come = set(range(1, profile.cards + 1))
                for r in results:
                    to_come.discard(r.prize)
                    others = [sorted(held[j]) for j in range(len(seated)) if j != me]
                    best = max(scores[j] for j in range(len(seated)) if j != me)
                    expected.append((r.prize, r.pool_value, r.bids[me], sorted(held[me]),
                                     others, sorted(to_come), scores[me] - best))
                    for j, b in enumerate(r.bids):
                        held[j].discard(b)
                    if r.winner is not None:
                        scores[r.winner] += r.pool_value
            got = [(x["prize"], x["pool_value"], x["bid"], sorted(x["hand"]),
                    [sorted(h) for h in x["opp_hands"]], sorted(x["upcoming"]),
                    x["score_diff"]) for x in frame.iter_rows(named=True)]
            assert got == expected, name
            s = Situations.from_frame(frame)
            assert s.opp_high.tolist() == [max(max(h) for h in o) for *_, o, _, _ in expected]
    finally:
        con.close()
