"""Python objects of a replayed chunk: a :class:`GameRecord` (what the record says) and a
:class:`GameReport` (what the replay found) for each game.

These are for callers that look at a few games at a time (``gops replay``, the Python
API, round logs); the import works on the arrays and frames instead.
"""

from __future__ import annotations

import numpy as np

from gops_records.core.problems import Problem, Span
from gops_records.games.gops.notation.model import CardToken, GameRecord, RoundRecord, bid_of
from gops_records.games.gops.notation.tokens import SUIT_OF_CODE, Group, Kind
from gops_records.games.gops.replay.engine import Replay
from gops_records.games.gops.replay.open_prizes import bits_of
from gops_records.games.gops.replay.structure import MAX_SLOTS
from gops_records.games.gops.report import GameReport
from gops_records.games.gops.rules import (
    PRIZE_ORDERS,
    TIE_RULES,
    OpenTakes,
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
        self._from_text = t.spans is None
        if t.spans is None:
            self._cs, self._ce = t.char_offsets(t.start), t.char_offsets(t.end)
        else:
            self._cs = self._ce = np.zeros(len(t), np.int64)

    def __call__(self, token: int) -> Span:
        return Span(int(self._line[token]), int(self._col[token]), int(self._cs[token]),
                    int(self._ce[token]))

    def start(self, token: int) -> int:
        return int(self._cs[token])

    def within(self, token: int, text: str, byte_offset: int) -> Span:
        """The span of a card that starts ``byte_offset`` bytes into token ``token`` (whose
        text is ``text``): a card of a bid of several, or one touching a parenthesis."""
        whole = self(token)
        if not self._from_text:  # tokens made of records: each has the record's own span
            return whole
        chars = len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))
        card = text[chars:].split("+")[0].rstrip(")")
        return Span(whole.line, whole.column + chars, whole.start + chars,
                    whole.start + chars + len(card))

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
        profile = _profile(rep, g)
        players = int(rep.players[g])
        opened = bool(s.open_game[g])
        if opened:
            seq, shown = _reveals(rep, r0, r1)
        played = []
        for r in range(r0, r1):
            if not rep.played[r]:
                continue
            w = int(rep.winner[r])
            cards = tuple(tuple(int(c) for c in rep.bid_ranks[r, seat] if c > 0)
                          for seat in range(players))
            bids = tuple(int(b) for b in rep.bids[r, :players])
            if opened:
                row = tuple(sorted(bits_of(int(rep.row[r])), key=seq.__getitem__))
                taken = int(rep.prize[r]) or None
                takes = () if not profile.each_takes else tuple(
                    int(x) or None for x in rep.takes[r, :players])
                played.append(RoundResult(int(s.round_no[r]), int(rep.prize[r]), bids, row, 0,
                                          w if w >= 0 else None, cards, shown.get(r, ()), taken,
                                          int(rep.discarded[r]) or None, True, takes))
                continue
            pool = [int(rep.prize[x]) for x in range(int(rep.pool_start[r]), r + 1)
                    if rep.played[x]]
            played.append(RoundResult(int(s.round_no[r]), int(rep.prize[r]), bids, tuple(pool),
                                      int(rep.carried_in[r]), w if w >= 0 else None, cards))
        scores = tuple(int(x) for x in rep.scores[g, :players])
        valid = not problems[g]
        outcome = _outcome(scores, int(rep.unclaimed[g]), bool(rep.finished[g]), valid)
        out.append(GameReport(record, profile, tuple(played), outcome, tuple(problems[g]),
                              int(rep.first_skipped[g])))
    return out


def _profile(rep: Replay, g: int) -> RuleProfile:
    """The rules game ``g`` was replayed under (an unreadable variant tag: the classic
    rule in its place)."""
    cards = int(rep.cards[g])
    bid_cards = max(1, int(rep.bid_cards[g]))
    open_prizes = int(rep.open_prizes[g])
    if open_prizes:
        bid_cards = 1
    return RuleProfile(cards, int(rep.players[g]), TieRule(TIE_RULES[rep.tie_rule[g]]),
                       PrizeOrder(PRIZE_ORDERS[rep.prize_order[g]]),
                       bid_cards if bid_cards <= cards else 1,
                       open_prizes if 2 <= open_prizes <= cards else None,
                       _open_takes(rep, g, 2 <= open_prizes <= cards))


def _open_takes(rep: Replay, g: int, open_row: bool) -> OpenTakes:
    """Who takes from game ``g``'s open row (the single winner unless it reads
    ``[OpenTakes "each"]`` with a readable row)."""
    each = open_row and bool(rep.tags.each_takes[g])
    return OpenTakes.EACH if each else OpenTakes.WINNER


def _reveals(rep: Replay, r0: int, r1: int) -> tuple[dict[int, int], dict[int, tuple[int, ...]]]:
    """For the rounds r0..r1 of an open-prize game: the order each prize was revealed
    in, and the prizes each round revealed (first reveals only)."""
    lo, hi = np.searchsorted(rep.reveal_round, [r0, r1])
    seq: dict[int, int] = {}
    shown: dict[int, list[int]] = {}
    for i in range(int(lo), int(hi)):
        if rep.reveal_first[i]:
            prize = int(rep.reveal_rank[i])
            seq.setdefault(prize, i)
            shown.setdefault(int(rep.reveal_round[i]), []).append(prize)
    return seq, {r: tuple(v) for r, v in shown.items()}


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
    opened = bool(s.open_game[g])
    if opened:
        lo, hi = np.searchsorted(s.reveal_round, [r0, r1])
    for r in range(r0, r1):
        bids = []
        for place in range(1, MAX_SLOTS):
            token = int(s.cards[r, place])
            if token >= 0 and t.kind[token] == Kind.CARD:
                bids.append(_bid(t, token, spans))
        token = int(s.cards[r, 0])
        prize = _card(t, token, spans) if token >= 0 and t.kind[token] == Kind.CARD and \
            t.words[t.word[token]].n_cards == 1 else None
        revealed = None
        if opened:
            revealed = tuple(card for v in range(int(lo), int(hi))
                             if int(s.reveal_round[v]) == r
                             for card in [_revealed(t, int(s.reveal_token[v]), spans)]
                             if card is not None)
        elif prize is None:
            if not bids:
                continue
            prize, bids = bids[0].cards[0], bids[1:]  # the prize's place is not a card
        number_token = int(s.number_token[r])
        number = int(t.values_of(np.array([number_token]))[0, 0]) if number_token >= 0 \
            else None
        text = " ".join(comments.get(r, [])) or None
        rounds.append(RoundRecord(prize, tuple(bids), text, number,
                                  spans(int(s.round_token[r])), revealed))
    end = int(s.end_token[g])
    result = None
    if end >= 0 and t.kind[end] == Kind.RESULT:
        result = t.words[t.word[end]].values
    first = int(s.first_significant[g])
    return GameRecord(values, tuple(rounds), result, spans(first).line,
                      spans.start(int(s.first[g])), spans.end(int(s.last[g])), tuple(problems),
                      tag_spans, spans(end) if end >= 0 else None)


def _card(t, token: int, spans: Spans, offset: int = 0, values=None) -> CardToken:
    rank, suit = values if values is not None else t.values_of(np.array([token]))[0, :2]
    span = spans.within(token, t.text(token), offset) if values is not None else spans(token)
    return CardToken(int(rank), SUIT_OF_CODE[int(suit)], span)


def _bid(t, token: int, spans: Spans):
    """The bid a card token holds: its card, or a :class:`BidToken` of its cards."""
    word = t.words[t.word[token]]
    if word.n_cards <= 1:
        return _card(t, token, spans)
    return bid_of([_card(t, token, spans, off, (rank, suit)) for rank, suit, off in word.cards],
                  spans(token))


def _revealed(t, token: int, spans: Spans) -> CardToken | None:
    """A revealed prize as written (one touching a parenthesis starts after the ``(``);
    None when it is no card."""
    word = t.words[t.word[token]] if t.word[token] >= 0 else None
    if word is None:
        return None
    if word.kind == Kind.CARD and word.n_cards == 1:
        return _card(t, token, spans)
    if word.kind == Kind.WORD and word.group & Group.CARD:
        return _card(t, token, spans, 1 if word.group & Group.OPENS else 0, word.values[:2])
    return None
