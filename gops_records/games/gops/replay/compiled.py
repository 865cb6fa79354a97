"""The replay's compiled passes (:mod:`._classic`, C): where the games and rounds are, and
the checks and play of every round, giving exactly the arrays of :mod:`.structure` and
:mod:`.engine` (tests/games/gops/replay/test_compiled_replay.py holds them equal).

The passes read the token arrays and the tokenizer's per-word tables: nothing is made
per token in Python. :func:`play` gives the replay of a chunk whose games are all
without a problem (the common case by far); a chunk with any problem, or with a game
of open prizes, is replayed by :func:`.engine.replay`, the diagnostic pass, whose
messages say what is wrong and where.
"""

from __future__ import annotations

import numpy as np

from gops_records.games.gops.notation.tokens import Kind, Tokens
from gops_records.games.gops.replay._classic import games as _games
from gops_records.games.gops.replay._classic import play as _play
from gops_records.games.gops.replay._classic import rounds as _rounds
from gops_records.games.gops.replay.engine import Replay, _Context
from gops_records.games.gops.replay.problems import Problems
from gops_records.games.gops.replay.structure import MAX_SLOTS, Games, Structure
from gops_records.games.gops.replay.tags import Tags
from gops_records.games.gops.rules import MAX_PLAYERS

_NO_PROBLEM_KINDS = np.array([k not in (Kind.WORD, Kind.BAD_TAG, Kind.UNCLOSED)
                              for k in range(len(Kind))])


def _view(part: bytearray, dtype: type = np.int64, shape: tuple[int, ...] | None = None
          ) -> np.ndarray:
    array = np.frombuffer(part, dtype)
    return array.reshape(shape) if shape else array


def find_games(tokens: Tokens, seat_of_tag: np.ndarray) -> Games:
    """:func:`.structure.find_games` (and the tokens' :func:`.structure.roles`), compiled."""
    words = tokens._word_arrays
    seat = np.full(len(tokens), -1, np.int64)
    seat[tokens.tag_index] = seat_of_tag
    role, game, first, last, end, missing, players, seat_tags, first_sig = _games(
        tokens.kind, np.ascontiguousarray(tokens.word, np.int32), seat, words["shape"],
        words["values"])
    return Games(_view(role, np.int8), _view(game), _view(first), _view(last), _view(end),
                 _view(missing, np.int8), _view(players), _view(seat_tags, shape=(-1, 4)),
                 _view(first_sig))


def find_rounds(tokens: Tokens, games: Games) -> Structure:
    """:func:`.structure.find_rounds` for chunks without open prizes, compiled."""
    empty = np.zeros(0, np.int64)
    (round_game, round_no, cards, n_cards, number_token, round_token, empty_numbers,
     comment_round, n_rounds) = _rounds(games.role, games.game, games.players,
                                        games.end_token)
    return Structure(games.role, games.game, games.first, games.last, games.end_token,
                     games.missing_end, games.players, _view(n_rounds), _view(round_game),
                     _view(round_no), _view(cards, shape=(-1, MAX_SLOTS)), _view(n_cards),
                     _view(number_token), _view(round_token), _view(empty_numbers),
                     games.seat_tags, games.first_significant, _view(comment_round),
                     np.zeros(games.count, bool), empty, empty, empty, empty, empty, empty)


def clean_text(tokens: Tokens, structure: Structure, tags: Tags) -> bool:
    """Whether nothing but the rounds themselves can hold a problem: no stray word,
    malformed tag or unclosed comment, every game terminated, no numbered round without
    cards, no tag problem and no open prizes."""
    return (bool(_NO_PROBLEM_KINDS[tokens.kind].all()) and not structure.missing_end.any()
            and not len(structure.empty_numbers) and not tags.problems
            and not structure.open_game.any() and not (tags.open_prizes != 0).any())


def play(tokens: Tokens, structure: Structure, tags: Tags) -> Replay | None:
    """:func:`.engine.replay` of a chunk whose games all replay without a problem,
    compiled; None when any game has one (or the chunk is not :func:`clean_text`)."""
    if not clean_text(tokens, structure, tags):
        return None
    s, t = structure, tokens
    words = t._word_arrays
    held = t._bid_arrays
    several = t.has_bids_of_several or bool((tags.bid_cards > 1).any())
    done = _play(
        s.round_game, s.round_no, s.cards, s.n_cards, s.number_token, t.kind,
        np.ascontiguousarray(t.word, np.int32), np.ascontiguousarray(held[:, :, 0]),
        np.ascontiguousarray(held[:, :, 1]), words["n_cards"], words["values"],
        words["count"], s.players, tags.cards, np.ascontiguousarray(tags.rounds),
        tags.tie_rule, tags.prize_order, tags.bid_cards, s.n_rounds, s.end_token,
        tags.result_len, np.ascontiguousarray(tags.result), several)
    if done is None:
        return None
    G, R = s.count, len(s.round_game)
    prize, bids, ranks, winner, carried, pool, scores, unclaimed = done
    bids = _view(bids, shape=(R, MAX_PLAYERS))
    bid_ranks = _view(ranks, shape=(R, MAX_PLAYERS, 3)) if several else bids[:, :, None]
    problems = Problems(context=_Context(tokens, structure, tags))
    empty = np.zeros(0, np.int64)
    return Replay(tokens, structure, tags, problems, problems.per_game(G), tags.cards,
                  tags.tie_rule, tags.prize_order, s.players, s.n_rounds,
                  _view(scores, shape=(G, MAX_PLAYERS)), _view(unclaimed), np.zeros(G, np.int64),
                  _view(prize), bids, np.ones(R, bool), _view(winner), _view(carried),
                  _view(pool), bid_ranks, np.zeros(R, np.int64), np.zeros(R, np.int64),
                  empty, empty, np.zeros(0, bool))
