"""game_id is a content key: what a game says, not how or where it was written."""

from __future__ import annotations

import polars as pl

from gops_records.games.gops.replay import read_chunk
from gops_records.games.gops.replay.frames import ChunkGames, content_ids

GAME = """[Event "Club"]
[A "Ann"]
[B "Bob"]
[Cards "3"]
[Result "2-4"]

1. 2D 3C AS
2. 3D AC 2S
3. AD 2C 3S
2-4
"""


def _id(text: str) -> int:
    (game_id,) = ChunkGames(read_chunk(text.encode()), "x").game_ids().to_list()
    return game_id


def test_layout_comments_suits_and_tag_order_do_not_change_the_id() -> None:
    other = ('[B "Bob"] [Cards "3"] [A "Ann"] [Event "Club"] [Result "2-4"]\n'
             "2 3 a {note} 3 A 2 ; more\nA 2 3 2-4\n")
    assert _id(other) == _id(GAME)


def test_the_written_result_does_not_change_the_id() -> None:
    # a valid game's result can only repeat the replayed points, so it is not identity:
    # the same game from a round log (no result) or with '*' gets the same id
    assert _id(GAME.replace("2-4\n", "*\n")) == _id(GAME)
    assert _id(GAME.replace('[Result "2-4"]\n', "")) == _id(GAME)


def test_any_other_tag_or_card_changes_the_id() -> None:
    assert _id(GAME.replace("Club", "Club 2")) != _id(GAME)
    assert _id(GAME.replace("[Cards", '[Round "2"]\n[Cards')) != _id(GAME)
    swapped = GAME.replace("1. 2D 3C AS\n2. 3D AC 2S", "1. 3D AC 2S\n2. 2D 3C AS")
    assert _id(swapped) != _id(GAME)


def test_content_id_is_the_first_64_bits_of_md5() -> None:
    # md5("abc") = 900150983cd24fb0d6963f7d28e17f72
    assert content_ids(pl.Series(["abc"])).to_list() == [0x900150983cd24fb0]
    assert 0x900150983cd24fb0 == 10376663631224000432
