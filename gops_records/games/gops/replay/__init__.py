"""The one production replay: token arrays in, checked and played games out.

:func:`read_chunk` reads a chunk of ``.gops`` text: tokens
(:mod:`gops_records.games.gops.notation.tokens`),
games (:mod:`.structure`), tags (:mod:`.tags`: they say which games have open prizes,
whose rounds are cut differently), rounds (:mod:`.structure`), then every check and the
play of every game (:mod:`.engine`). Games, rounds, checks and play run compiled
(:mod:`.compiled`); the numpy passes replay the games with a problem (their messages
say what is wrong) or a chunk with open prizes, and are the oracle the tests hold the compiled
passes to (:func:`reference_replay_tokens`). Records made in Python or read from round logs go
through the same steps from tokens made of them (:mod:`.records`). What comes out is
turned into store frames (:mod:`.frames`) or Python objects (:mod:`.reports`).
"""

from __future__ import annotations

import numpy as np

from gops_records.games.gops.cards import SEATS
from gops_records.games.gops.notation.tokens import Tokens, tokenize
from gops_records.games.gops.replay import compiled
from gops_records.games.gops.replay.engine import Replay, replay
from gops_records.games.gops.replay.structure import find_games, find_rounds
from gops_records.games.gops.replay.tags import TagNames, read_tags

_SEAT_OF_NAME = {seat: i for i, seat in enumerate(SEATS)}


def _seats(tokens: Tokens) -> tuple[TagNames, np.ndarray]:
    """The tag names of a chunk, and the seat (0..3) each tag names as a player tag."""
    names = TagNames.of(tokens.tag_name)
    seat_of_code = np.array([_SEAT_OF_NAME.get(name, -1) for name in names.names] + [-1],
                            np.int64)
    return names, seat_of_code[names.codes]


def replay_tokens(tokens: Tokens) -> Replay:
    """Structure, tags, checks and play of a chunk's tokens: the compiled passes
    (:mod:`.compiled`), and the diagnostic pass (:func:`.engine.replay`) for the games
    with a problem, or for a chunk with open prizes."""
    names, seats = _seats(tokens)
    games = compiled.find_games(tokens, seats)
    tags = read_tags(tokens.tag_index, games.game[tokens.tag_index], names,
                     tokens.tag_value, games.count)
    open_game = tags.open_prizes != 0
    if open_game.any():
        return replay(tokens, find_rounds(tokens, games, open_game, tags.each_takes), tags)
    return compiled.replay(tokens, compiled.find_rounds(tokens, games), tags)


def reference_replay_tokens(tokens: Tokens) -> Replay:
    """:func:`replay_tokens` by the numpy passes alone (structure, engine): the test
    oracle of the compiled ones."""
    names, seats = _seats(tokens)
    games = find_games(tokens, seats)
    tags = read_tags(tokens.tag_index, games.game[tokens.tag_index], names,
                     tokens.tag_value, games.count)
    structure = find_rounds(tokens, games, tags.open_prizes != 0, tags.each_takes)
    return replay(tokens, structure, tags)


def read_chunk(data: bytes | memoryview) -> Replay:
    """Every game of a chunk of UTF-8 ``.gops`` text (no BOM), checked and played."""
    return replay_tokens(tokenize(data))


__all__ = ["Replay", "read_chunk", "reference_replay_tokens", "replay_tokens"]
