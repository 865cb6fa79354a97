"""The replay's compiled passes (:mod:`._classic`, C): where the games and rounds are, and
the checks and play of every round, giving exactly the arrays of :mod:`.structure` and
:mod:`.engine` (tests/games/gops/replay/test_compiled_replay.py holds them equal).

The passes read the token arrays and the tokenizer's per-word tables: nothing is made
per token in Python. :func:`replay` plays every game compiled and says which have a problem;
only those are replayed by :func:`.engine.replay`, the diagnostic pass, whose messages
say what is wrong and where (a chunk with open prizes is still read by it whole).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from gops_records.games.gops.notation.tokens import Kind, Tokens
from gops_records.games.gops.replay._classic import games as _games
from gops_records.games.gops.replay._classic import play as _play
from gops_records.games.gops.replay._classic import rounds as _rounds
from gops_records.games.gops.replay.engine import Replay, _Context
from gops_records.games.gops.replay.engine import replay as engine_replay
from gops_records.games.gops.replay.problems import Problems, _Batch
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


def games_with_text_problems(tokens: Tokens, structure: Structure, tags: Tags
                             ) -> np.ndarray | None:
    """Per game: whether anything but its rounds can hold a problem (a stray word, a
    malformed tag or an unclosed comment in it, no terminator, a numbered round without
    cards, a tag problem). None when the chunk has open prizes or a problem outside any
    game: the diagnostic pass then reads the chunk whole."""
    s = structure
    if s.open_game.any() or (tags.open_prizes != 0).any():
        return None
    at = np.concatenate([np.flatnonzero(~_NO_PROBLEM_KINDS[tokens.kind]), s.empty_numbers,
                         np.array([token for token, _, _ in tags.problems], np.int64)])
    game = s.game[at.astype(np.int64)]
    if (game < 0).any():
        return None
    bad = s.missing_end.astype(bool)
    bad[game] = True
    return bad


@dataclass(frozen=True)
class Played:
    """The compiled play of a chunk: the per-round and per-game arrays of
    :class:`~.engine.Replay` (``bid_ranks`` None: one card a bid), and per game whether
    it has a problem (its rows are then unset)."""

    prize: np.ndarray
    bids: np.ndarray
    bid_ranks: np.ndarray | None
    winner: np.ndarray
    carried_in: np.ndarray
    pool_start: np.ndarray
    scores: np.ndarray
    unclaimed: np.ndarray
    bad: np.ndarray


def play(tokens: Tokens, structure: Structure, tags: Tags) -> Played | None:
    """The checks and play of every game of a chunk, compiled; None for a chunk the
    compiled pass does not read (open prizes, a problem outside any game)."""
    text_bad = games_with_text_problems(tokens, structure, tags)
    if text_bad is None:
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
    prize, bids, ranks, winner, carried, pool, scores, unclaimed, bad = done
    return Played(_view(prize), _view(bids, shape=(R, MAX_PLAYERS)),
                  _view(ranks, shape=(R, MAX_PLAYERS, 3)) if several else None,
                  _view(winner), _view(carried), _view(pool),
                  _view(scores, shape=(G, MAX_PLAYERS)), _view(unclaimed),
                  _view(bad, np.int8).astype(bool) | text_bad)


def replay(tokens: Tokens, structure: Structure, tags: Tags) -> Replay:
    """:func:`.engine.replay` of a chunk: the compiled play for its games without a
    problem, the diagnostic pass (:func:`.engine.replay`) for the others only."""
    played = play(tokens, structure, tags)
    if played is None or played.bad.all():
        return engine_replay(tokens, structure, tags)
    s, p = structure, played
    G, R = s.count, len(s.round_game)
    bids = p.bids
    bid_ranks = p.bid_ranks if p.bid_ranks is not None else bids[:, :, None]
    empty = np.zeros(0, np.int64)
    rep = Replay(tokens, s, tags, Problems(context=_Context(tokens, s, tags)),
                 np.zeros(G, np.int64), tags.cards, tags.tie_rule, tags.prize_order,
                 s.players, s.n_rounds, p.scores, p.unclaimed, np.zeros(G, np.int64),
                 p.prize, bids, np.ones(R, bool), p.winner, p.carried_in, p.pool_start,
                 bid_ranks, np.zeros(R, np.int64), np.zeros(R, np.int64), empty, empty,
                 np.zeros(0, bool))
    if p.bad.any():
        _diagnose(rep, p.bad, several=p.bid_ranks is not None)
    return rep


def _diagnose(rep: Replay, bad: np.ndarray, *, several: bool) -> None:
    """Replays the games marked ``bad`` by the diagnostic pass and writes its rows,
    problems and counts over theirs in ``rep``: the engine reads every token (syntax,
    tags) but only those games' rounds, and only their problems are kept."""
    s = rep.structure
    kept = np.flatnonzero(bad[s.round_game])
    new_of_old = np.full(len(s.round_game) + 1, -1, np.int64)
    new_of_old[kept] = np.arange(len(kept))
    few = replace(s, round_game=s.round_game[kept], round_no=s.round_no[kept],
                  cards=s.cards[kept], n_cards=s.n_cards[kept],
                  number_token=s.number_token[kept], round_token=s.round_token[kept],
                  comment_round=new_of_old[s.comment_round])
    part = engine_replay(rep.tokens, few, rep.tags)
    games = np.flatnonzero(bad)
    for name in ("scores", "unclaimed", "first_skipped"):
        getattr(rep, name)[games] = getattr(part, name)[games]
    for name in ("prize", "bids", "played", "winner", "carried_in", "row", "discarded"):
        getattr(rep, name)[kept] = getattr(part, name)
    rep.pool_start[kept] = kept[part.pool_start]
    if several:  # else the cards are the bids, written above
        rep.bid_ranks[kept] = part.bid_ranks
    for batch in part.problems.batches:
        sel = np.flatnonzero(bad[batch.game])
        if len(sel) == len(batch.game):
            rep.problems.batches.append(batch)
        elif len(sel):
            rep.problems.batches.append(_Batch(
                batch.code, batch.game[sel], batch.offset[sel], batch.round[sel],
                lambda i, render=batch.render, sel=sel: render(int(sel[i])), batch.reader,
                None if batch.token is None else batch.token[sel]))
    rep.problems.context = part.problems.context
    rep.n_problems = rep.problems.per_game(s.count)
