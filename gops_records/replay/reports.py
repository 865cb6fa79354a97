"""Python objects of a replayed chunk: a :class:`GameRecord` (what the record says) and a
:class:`GameReport` (what the replay found) for each game.

These are for callers that look at a few games at a time (``gops replay``, the Python
API, round logs); the import works on the arrays and frames instead.
"""

from __future__ import annotations

import numpy as np

from gops_records.notation.model import CardToken, GameRecord, Problem, RoundRecord, Span
from gops_records.notation.tokens import SUIT_OF_CODE, Kind
from gops_records.replay.engine import Replay
from gops_records.replay.structure import MAX_SLOTS
from gops_records.report import GameReport
from gops_records.rules import (
    PRIZE_ORDERS,
    TIE_RULES,
    Outcome,
    PrizeOrder,
    RoundResult,
    RuleProfile,
    TieRule,
)


class Spans:
    """Spans of tokens (line, column, character offsets) for a whole chunk at once."""

    def __init__(self, rep: Replay, line_offset: int = 0) -> None:
        t = rep.tokens
        self._line, self._col = t.places(t.start)
        self._line = self._line + line_offset
        if t.spans is None:
            self._cs, self._ce = t.char_offsets(t.start), t.char_offsets(t.end)
        else:
            self._cs = self._ce = np.zeros(len(t), np.int64)

    def __call__(self, token: int) -> Span:
        return Span(int(self._line[token]), int(self._col[token]), int(self._cs[token]),
                    int(self._ce[token]))

    def start(self, token: int) -> int:
        return int(self._cs[token])

    def end(self, token: int) -> int:
        return int(self._ce[token])


def _outcome(scores: tuple[int, ...], unclaimed: int, finished: bool, valid: bool) -> Outcome:
    top = max(scores)
    alone = scores.count(top) == 1
    winner = scores.index(top) if finished and valid and alone else None
    return Outcome(scores, unclaimed, winner, finished)


def game_reports(rep: Replay, games: np.ndarray | None = None, line_offset: int = 0,
                 problems: dict[int, list[Problem]] | None = None) -> list[GameReport]:
    """A report for each of ``games`` (all when None), in order."""
    s, t, tags = rep.structure, rep.tokens, rep.tags
    games = np.arange(rep.count) if games is None else np.asarray(games)
    spans = Spans(rep, line_offset)
    def place(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lines, columns = t.places(offsets)
        return lines + line_offset, columns

    def quoted(token: int) -> str:
        return t.text(token)[:40] if token >= 0 else ""

    if problems is None:
        problems = rep.problems.of_games(games, place, text=quoted, line_offset=line_offset)
    own = rep.problems.of_games(games, place, reader_only=True, text=quoted,
                                line_offset=line_offset)
    wanted = set(int(g) for g in games)
    tag_rows: dict[int, list[tuple[int, str, str]]] = {g: [] for g in wanted}
    for token, game, name, value in tags.frame.filter(
            tags.frame["game"].is_in(list(wanted))).iter_rows():
        tag_rows[game].append((token, name, value))
    comments: dict[int, list[str]] = {}
    owner = s.comment_round
    texts = t.comment.to_list()
    for i in np.flatnonzero(owner >= 0):
        if texts[i]:
            comments.setdefault(int(owner[i]), []).append(texts[i])
    round_first = np.searchsorted(s.round_game, games)
    round_end = np.searchsorted(s.round_game, games, side="right")
    out = []
    for g, r0, r1 in zip(games.tolist(), round_first.tolist(), round_end.tolist(), strict=True):
        record = _record(rep, g, r0, r1, tag_rows[g], comments, spans, own[g])
        profile = RuleProfile(int(rep.cards[g]), int(rep.players[g]),
                              TieRule(TIE_RULES[rep.tie_rule[g]]),
                              PrizeOrder(PRIZE_ORDERS[rep.prize_order[g]]))
        players = int(rep.players[g])
        played = []
        for r in range(r0, r1):
            if not rep.played[r]:
                continue
            pool = [int(rep.prize[x]) for x in range(int(rep.pool_start[r]), r + 1)
                    if rep.played[x]]
            w = int(rep.winner[r])
            played.append(RoundResult(int(s.round_no[r]), int(rep.prize[r]),
                                      tuple(int(b) for b in rep.bids[r, :players]),
                                      tuple(pool), int(rep.carried_in[r]), w if w >= 0 else None))
        scores = tuple(int(x) for x in rep.scores[g, :players])
        valid = not problems[g]
        outcome = _outcome(scores, int(rep.unclaimed[g]), bool(rep.finished[g]), valid)
        out.append(GameReport(record, profile, tuple(played), outcome, tuple(problems[g]),
                              int(rep.first_skipped[g])))
    return out


def _record(rep: Replay, g: int, r0: int, r1: int, tags: list[tuple[int, str, str]],
            comments: dict[int, list[str]], spans: Spans, problems: list[Problem],
            ) -> GameRecord:
    s, t = rep.structure, rep.tokens
    values: dict[str, str] = {}
    tag_spans: dict[str, Span] = {}
    for token, name, value in tags:
        values[name] = value
        tag_spans[name] = spans(token)
    rounds = []
    for r in range(r0, r1):
        cards = []
        for place in range(MAX_SLOTS):
            token = int(s.cards[r, place])
            if token >= 0 and t.kind[token] == Kind.CARD:
                rank, suit = t.values_of(np.array([token]))[0, :2]
                cards.append(CardToken(int(rank), SUIT_OF_CODE[int(suit)], spans(token)))
        if not cards:
            continue
        number_token = int(s.number_token[r])
        number = int(t.values_of(np.array([number_token]))[0, 0]) if number_token >= 0 \
            else None
        text = " ".join(comments.get(r, [])) or None
        rounds.append(RoundRecord(cards[0], tuple(cards[1:]), text, number,
                                  spans(int(s.round_token[r]))))
    end = int(s.end_token[g])
    result = None
    if end >= 0 and t.kind[end] == Kind.RESULT:
        result = t.words[t.word[end]].values
    first = int(s.first_significant[g])
    return GameRecord(values, tuple(rounds), result, spans(first).line,
                      spans.start(int(s.first[g])), spans.end(int(s.last[g])), tuple(problems),
                      tag_spans, spans(end) if end >= 0 else None)
