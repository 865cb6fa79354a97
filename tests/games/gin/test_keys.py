"""Content keys: the same hand, however written, has one id; a game is named by its tags."""

from __future__ import annotations

from pathlib import Path

from gin_play import random_hand

from gops_records.games.gin.keys import game_id, hand_id, hand_key
from gops_records.games.gin.notation import parse_hands, write_hand

ISSUE = (Path(__file__).parent / "issue_example.gin").read_text("utf-8")


def test_the_canonical_shortcut_gives_the_key_of_the_full_computation():
    for seed in range(30):
        _, record = random_hand(seed)
        assert hand_key(record, write_hand(record)) == hand_key(record)
    (parsed,) = parse_hands(ISSUE)  # with a comment: the shortcut is not taken
    assert hand_key(parsed.record, write_hand(parsed.record)) == hand_key(parsed.record)
    assert "{" not in hand_key(parsed.record) and hand_key(parsed.record).endswith("\n*\n")


def test_layout_comments_and_written_points_do_not_change_a_hand_id():
    (written,) = parse_hands(ISSUE)
    (canonical,) = parse_hands(write_hand(written.record))
    (bare,) = parse_hands(ISSUE.replace(" {undercut: 1 against 2}", "").replace("0-26", "*"))
    ids = {hand_id(p.record) for p in (written, canonical, bare)}
    assert len(ids) == 1
    (other,) = parse_hands(ISSUE.replace('[Hand "3"]', '[Hand "4"]'))
    assert hand_id(other.record) not in ids


def test_a_game_is_named_by_event_date_match_game_and_players():
    tags = {"Match": "Alice-Bruno", "Game": "1", "A": "Alice", "B": "Bruno"}
    assert game_id(tags) == game_id({**tags, "Game": "01", "Hand": "3", "Dealer": "B"})
    assert game_id(tags) != game_id({**tags, "Game": "2"})
    assert game_id(tags) != game_id({**tags, "Event": "Thursday club"})
    assert game_id({k: v for k, v in tags.items() if k != "Match"}) is None
    assert game_id({**tags, "Game": "first"}) is None
