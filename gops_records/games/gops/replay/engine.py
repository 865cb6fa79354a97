"""The production replay: every game of a chunk checked and played at once (numpy).

This is the one implementation of the rules that reading uses (``gops validate``,
``gops import``, ``gops replay``, round logs): :class:`gops_records.games.gops.rules.Game` is the
readable reference, held equal to this by ``tests/games/gops/replay/test_differential.py``.

Checks, per round: the round's number, its count of cards, ranks within the deck,
suits that fit their role, a prize revealed once and in the fixed order, each seat's
card spent once; with bids of several cards (``[BidCards "k"]``) each bid's count of
cards and no card twice in one bid; with open prizes (``[OpenPrizes "k"]``) the row's
checks of :mod:`.open_prizes`; per game: at most its number of rounds and a written
result that is the replayed one. A card counts as spent (a prize as revealed) where it
first appears readable, so each later use is reported against that first one, whatever
else is wrong. A round with any problem is not played; the rounds around it are, so one
mistake does not hide the others, and the points so far are what the playable rounds give.

Playing, over the played rounds of all games: the single highest bid (a bid's strength:
the sum of its cards) takes the pool; a shared highest bid is a tie: under ``carry`` the
pool stays for the next round, under ``discard`` (and in the last round under both
rules) it is unclaimed. With open prizes the single highest bidder takes the prize the
record names; what a game leaves in the row and the pile is unclaimed once it is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from gops_records.core.text import seat_label, shorten
from gops_records.games.gops.cards import Seat, Suit, rank_name
from gops_records.games.gops.notation.tokens import (
    MAX_BID_CARDS,
    Group,
    Kind,
    Shape,
    Tokens,
)
from gops_records.games.gops.notation.writer import format_result
from gops_records.games.gops.replay.open_prizes import follow_rows
from gops_records.games.gops.replay.open_takes import check_takes, read_takes
from gops_records.games.gops.replay.problems import Problems
from gops_records.games.gops.replay.structure import (
    CARD,
    MAX_SLOTS,
    NO_OPEN,
    NUMBER,
    STRAY_CLOSE,
    UNCLOSED_GROUP,
    Structure,
    first_seen,
    run_starts,
)
from gops_records.games.gops.replay.tags import RULE_TAGS, Tags
from gops_records.games.gops.rules import MAX_PLAYERS, PRIZE_ORDERS

#: The suit code each place of a round must have (0: any); D bids from a second pack.
_PLACE_SUIT = np.array([1, 2, 3, 4, 0])
_SUIT_NAMES = {1: "diamonds", 2: "clubs", 3: "spades", 4: "hearts"}
_EXPECTED = {0: Suit.CLUBS, 1: Suit.SPADES, 2: Suit.HEARTS}


@dataclass
class Replay:
    """A chunk replayed. Per game (G): validity, rules, players, rounds written,
    points, unclaimed points, and the round where the replay first skipped a round
    (0: none). Per round (R, as :class:`Structure` lists them): ranks of the prize and
    each seat's bid strength (-1 where none), whether it was played, and for played
    rounds the winner (seat, -1 on a tie), the value carried in and the first round of
    its pool.

    ``bid_ranks`` (R, 4, cards a bid at most) are the cards of each bid (-1 where none).
    With open prizes ``prize`` is the prize taken (0: none), ``row`` the row after the
    top-up (bit r = rank r), ``discarded`` the prize a tie set aside (0: none), and
    ``reveal_*`` each revealed card's round, rank and whether it was the first readable
    reveal of its prize (in file order)."""

    tokens: Tokens
    structure: Structure
    tags: Tags
    problems: Problems
    n_problems: np.ndarray
    cards: np.ndarray
    tie_rule: np.ndarray
    prize_order: np.ndarray
    players: np.ndarray
    n_rounds: np.ndarray
    scores: np.ndarray
    unclaimed: np.ndarray
    first_skipped: np.ndarray
    prize: np.ndarray
    bids: np.ndarray
    played: np.ndarray
    winner: np.ndarray
    carried_in: np.ndarray
    pool_start: np.ndarray
    bid_ranks: np.ndarray
    row: np.ndarray
    discarded: np.ndarray
    reveal_round: np.ndarray
    reveal_rank: np.ndarray
    reveal_first: np.ndarray
    #: [OpenTakes "each"]: (R, 4) each seat's take in played rounds (0: none; None when
    #: the chunk has no such game)
    takes: np.ndarray | None = None

    @property
    def count(self) -> int:
        return self.structure.count

    @property
    def valid(self) -> np.ndarray:
        return self.n_problems == 0

    @property
    def rounds(self) -> np.ndarray:
        """Rounds of each whole game: N, or floor(N / k) with bids of k cards."""
        return self.tags.rounds

    @property
    def bid_cards(self) -> np.ndarray:
        """Cards a bid, per game (0: the BidCards tag was unreadable)."""
        return self.tags.bid_cards

    @property
    def open_prizes(self) -> np.ndarray:
        """The open prizes' row size, per game (0: none; -1: the tag was unreadable)."""
        return self.tags.open_prizes

    @property
    def finished(self) -> np.ndarray:
        """All rounds are written (more too: the extra ones are problems)."""
        return self.n_rounds >= self.rounds


class _Context:
    """What messages need: token texts, player names, lines of earlier facts."""

    def __init__(self, tokens: Tokens, structure: Structure, tags: Tags) -> None:
        self.tokens, self.structure = tokens, structure
        self._tags = tags
        self.line_offset = 0  # lines of the file before the chunk (set when messages are made)

    def who(self, game: int, seat: int) -> str:
        """A seat as messages name it: ``Carla (A)``, or ``A`` when it has no name."""
        token = int(self.structure.seat_tags[game, seat])
        return seat_label(Seat.at(seat).value, self._name(token) if token >= 0 else None)

    @cached_property
    def _names(self) -> dict[int, str]:
        """Tag values by token, made when a message first names a player."""
        frame = self._tags.frame
        return dict(zip(frame["token"].to_list(), frame["value"].to_list(), strict=True))

    def _name(self, token: int) -> str:
        return self._names.get(token, "")

    def line(self, token: int) -> int:
        return int(self.tokens.lines(np.array([self.tokens.start[token]]))[0]) + self.line_offset

    def text(self, token: int) -> str:
        return shorten(self.tokens.text(token))


def replay(tokens: Tokens, structure: Structure, tags: Tags) -> Replay:
    """Check and play every game of the chunk."""
    s, t = structure, tokens
    ctx = _Context(tokens, structure, tags)
    problems = Problems(context=ctx)
    G, R = s.count, len(s.round_game)
    rg, rn = s.round_game, s.round_no
    N = tags.cards[rg]
    P = s.players[rg]
    limit = tags.rounds[rg]
    start = t.start

    dirty = _syntax(problems, t, s, ctx)
    for token, message, _ in tags.problems:
        problems.add("tag-value", [s.game[token]], [start[token]], 0, lambda i, m=message: m,
                     reader=message.endswith("given twice"))

    # -- written round numbers ------------------------------------------------------------
    numbered = np.flatnonzero(s.number_token >= 0)
    written = t.values_of(s.number_token[numbered])[:, 0]
    off = numbered[written != rn[numbered]]
    problems.add("round-number", rg[off], start[s.number_token[off]], rn[off],
                 lambda i, off=off, rn=rn:  # rn is narrowed below: bind this one
                 f"round numbered {_number_text(ctx.text(s.number_token[off[i]]))} "
                 f"is round {rn[off[i]]}", reader=True, token=s.number_token[off])

    # -- rounds beyond the last -----------------------------------------------------------
    over = rn > limit
    first_over = np.flatnonzero(rn == limit + 1)
    g_over = rg[first_over]
    problems.add("too-many-rounds", g_over, start[s.round_token[first_over]], rn[first_over],
                 lambda i: _too_many(int(s.n_rounds[g_over[i]]), int(tags.cards[g_over[i]]),
                                     int(tags.rounds[g_over[i]])))
    # only the rounds up to the last are checked and played (a hostile record may have
    # millions)
    lr = np.flatnonzero(~over)
    rg, rn, N, P, limit = rg[lr], rn[lr], N[lr], P[lr], limit[lr]
    n_cards, round_token, tok = s.n_cards[lr], s.round_token[lr], s.cards[lr]
    opn = s.open_round[lr] if len(lr) else np.zeros(0, bool)
    any_open = bool(opn.any())
    each = tags.each_takes[rg] & opn if s.take_token is not None else np.zeros(len(lr), bool)
    any_each = bool(each.any())
    count_ok = n_cards == np.where(each, 2 * P, P + 1)
    takes_off = ~count_ok & each & (n_cards >= P)  # the bids are there, the takes are not
    short = np.flatnonzero(~count_ok & ~takes_off)
    problems.add("bid-count", rg[short], start[round_token[short]], rn[short],
                 lambda i: _bid_count(int(rn[short[i]]), int(n_cards[short[i]]) - 1,
                                      int(P[short[i]]), bool(opn[short[i]]),
                                      bool(each[short[i]])))
    off_takes = np.flatnonzero(takes_off)
    problems.add("take-mismatch", rg[off_takes], start[round_token[off_takes]],
                 rn[off_takes],
                 lambda i: _takes_count(int(rn[off_takes[i]]),
                                        int(n_cards[off_takes[i]] - P[off_takes[i]]),
                                        int(P[off_takes[i]])))

    # -- what each place holds --------------------------------------------------------
    has = tok >= 0
    safe = np.where(has, tok, 0)
    readable = has & (t.kind[safe] == Kind.CARD)
    dash = np.zeros(readable.shape, bool)
    if any_open:  # the '-' of no prize taken stands in place 0
        dash[:, 0] = opn & has[:, 0] & ((t.group_of(safe[:, 0]) & Group.DASH) > 0)
    values = t.values_of(safe.ravel()).reshape(*safe.shape, 4)
    rank = np.where(readable, values[:, :, 0], -1)
    suit = np.where(readable, values[:, :, 1], 0)
    del values
    place = np.arange(MAX_SLOTS)[None, :]
    in_use = place <= P[:, None]  # the prize and one bid per seat
    several = t.has_bids_of_several or bool((tags.bid_cards > 1).any())
    if several:  # bids of several cards: up to MAX_BID_CARDS cards a place
        n_of = np.where(readable, t.card_count_of(safe.ravel()).reshape(safe.shape), 0)
        held = t.bid_cards_of(safe.ravel()).reshape(*safe.shape, MAX_BID_CARDS, 3)
        lone = readable & (place == 0) & (n_of > 1)  # a prize is one card
        lo_r = np.flatnonzero(lone[:, 0])
        problems.add("syntax", rg[lo_r], start[tok[lo_r, 0]], rn[lo_r],
                     lambda i: f"{ctx.text(tok[lo_r[i], 0])!r} is not one card: only a bid "
                               "joins cards with '+'", reader=True, token=tok[lo_r, 0])
        readable &= ~lone
        rank[lone] = -1
        crank = np.where(readable[:, :, None] & (held[..., 0] > 0), held[..., 0], -1)
        csuit, coff = held[..., 1], held[..., 2]
        del held
    else:
        n_of = readable.astype(np.int64)
        crank, csuit = rank[:, :, None], suit[:, :, None]
        coff = np.zeros((len(lr), 1, 1), np.int64)
    del safe
    unreadable_round = (has & ~readable & ~dash).any(axis=1) if any_open else \
        (has & ~readable).any(axis=1)
    bad_round = unreadable_round | ~count_ok
    checked = readable & (count_ok[:, None] | (place == 0)) & in_use
    card_ok = checked[:, :, None] & (crank > 0)
    unknown = card_ok & (crank > N[:, None, None])
    legal = card_ok & ~unknown

    def at(r: np.ndarray, p: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Where each card is written (a card of a bid of several: its own place)."""
        return start[tok[r, p]] + coff[r, p, j] if several else start[tok[r, p]]

    r_idx, p_idx, j_idx = np.nonzero(unknown)
    problems.add("unknown-card", rg[r_idx], at(r_idx, p_idx, j_idx), rn[r_idx],
                 lambda i: _unknown(ctx, int(rg[r_idx[i]]), int(p_idx[i]),
                                    int(crank[r_idx[i], p_idx[i], j_idx[i]]), int(N[r_idx[i]])))
    wrong = card_ok & (csuit > 0) & (_PLACE_SUIT[None, :, None] > 0) \
        & (csuit != _PLACE_SUIT[None, :, None])
    w_r, w_p, w_j = np.nonzero(wrong)
    problems.add("wrong-suit", rg[w_r], at(w_r, w_p, w_j), rn[w_r],
                 lambda i: _wrong_suit(ctx, int(rg[w_r[i]]), int(w_p[i]),
                                       int(crank[w_r[i], w_p[i], w_j[i]]),
                                       int(csuit[w_r[i], w_p[i], w_j[i]])))

    # -- each bid's count of cards, no card twice in one bid ------------------------------
    bid_k = tags.bid_cards[rg]
    miscount = np.zeros(readable.shape, bool)
    twice = np.zeros(legal.shape, bool)
    if several:
        miscount = checked & (place > 0) & (bid_k[:, None] > 0) & (n_of != bid_k[:, None])
        m_r, m_p = np.nonzero(miscount)
        problems.add("bid-count", rg[m_r], start[tok[m_r, m_p]], rn[m_r],
                     lambda i: _cards_count(ctx, int(rg[m_r[i]]), int(m_p[i]) - 1,
                                            int(n_of[m_r[i], m_p[i]]),
                                            ctx.text(tok[m_r[i], m_p[i]]),
                                            int(bid_k[m_r[i]])))
        for j in range(1, crank.shape[2]):
            same = (crank[:, :, :j] == crank[:, :, j:j + 1]) & legal[:, :, :j]
            twice[:, :, j] = legal[:, :, j] & same.any(axis=2)
        d_r, d_p, d_j = np.nonzero(twice)
        problems.add("bid-card-repeated", rg[d_r], at(d_r, d_p, d_j), rn[d_r],
                     lambda i: f"{ctx.who(int(rg[d_r[i]]), int(d_p[i]) - 1)} bids "
                               f"{_bid_text(crank[d_r[i], d_p[i]])}: "
                               f"{rank_name(int(crank[d_r[i], d_p[i], d_j[i]]))} twice in one "
                               "bid")

    # -- each prize revealed once, each card spent once --------------------------------
    spent = legal & ~twice if several else legal
    if any_open:
        spent = spent.copy()  # the prize an open-prize round's winner takes is no revealed prize
        spent[:, 0, :] &= ~opn[:, None]
    l_r, l_p, l_j = np.nonzero(spent)
    key = (rg[l_r] * MAX_SLOTS + l_p) * 16 + crank[l_r, l_p, l_j]
    first, earliest = first_seen(key)
    again = np.flatnonzero(~first)
    a_r, a_p, a_j = l_r[again], l_p[again], l_j[again]
    e_r = l_r[earliest[again]]
    e_tok = tok[e_r, l_p[earliest[again]]]
    is_prize = a_p == 0
    pr, bd = np.flatnonzero(is_prize), np.flatnonzero(~is_prize)
    problems.add("prize-repeated", rg[a_r[pr]], start[tok[a_r[pr], 0]], rn[a_r[pr]],
                 lambda i: f"prize {rank_name(int(rank[a_r[pr[i]], 0]))} was already "
                           f"revealed in round {rn[e_r[pr[i]]]} (line {ctx.line(e_tok[pr[i]])})")
    problems.add("card-not-in-hand", rg[a_r[bd]], at(a_r[bd], a_p[bd], a_j[bd]), rn[a_r[bd]],
                 lambda i: f"{ctx.who(int(rg[a_r[bd[i]]]), int(a_p[bd[i]]) - 1)} bids "
                           f"{rank_name(int(crank[a_r[bd[i]], a_p[bd[i]], a_j[bd[i]]]))}, "
                           f"already spent in round {rn[e_r[bd[i]]]} "
                           f"(line {ctx.line(e_tok[bd[i]])})")
    repeated = np.zeros((len(lr), MAX_SLOTS), bool)
    repeated[a_r, a_p] = True
    if several:
        repeated |= twice.any(axis=2) | miscount

    # -- a fixed prize order -------------------------------------------------------------
    order = tags.prize_order[rg]
    expected = np.where(order == 1, rn, np.where(order == 2, N + 1 - rn, 0))
    off_order = legal[:, 0, 0] & ~repeated[:, 0] & (order > 0) & (rank[:, 0] != expected) \
        & ~opn
    oo = np.flatnonzero(off_order)
    problems.add("prize-order", rg[oo], start[tok[oo, 0]], rn[oo],
                 lambda i: f"prize order is {PRIZE_ORDERS[order[oo[i]]]}: round {rn[oo[i]]} "
                           f"reveals {rank_name(int(expected[oo[i]]))}, not "
                           f"{rank_name(int(rank[oo[i], 0]))}")

    # -- bids' strengths, and the open prizes' rows ----------------------------------------
    if several:
        strength = np.where(crank > 0, crank, 0).sum(axis=2)
        strength = np.where(rank > 0, strength, rank)
    else:
        strength = rank
    bids = np.where(place[:, 1:] <= P[:, None], strength[:, 1:], -1)[:, :MAX_PLAYERS]
    faulty = bad_round | unknown.any(axis=(1, 2)) | wrong.any(axis=(1, 2)) \
        | repeated.any(axis=1) | off_order
    prize = np.where(dash[:, 0], 0, rank[:, 0]) if any_open else rank[:, 0]
    row = discarded = np.zeros(0, np.int64)
    open_winner = np.full(len(lr), -1, np.int64)
    reveal = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, bool))
    if any_open:
        seats = np.arange(MAX_PLAYERS)[None, :] < P[:, None]
        bids_ok = count_ok & ((legal[:, 1:, 0] | ~in_use[:, 1:]).all(axis=1)) \
            & ~unreadable_round
        top = np.where(seats, bids, -1).max(axis=1)
        alone = ((bids == top[:, None]) & seats).sum(axis=1) == 1
        open_winner = np.where(alone, bids.argmax(axis=1), -1)
        taken = np.where(dash[:, 0], 0, np.where(legal[:, 0, 0], rank[:, 0], -1))
        read = None
        if any_each:
            take_token = np.where(each[:, None], s.take_token[lr], -1)
            read = read_takes(problems, ctx, t, take_token, rg, rn)
            faulty |= read.faulty
        rows = follow_rows(problems, ctx, t, s, tags, lr, opn, taken, open_winner, bids_ok,
                           bids, each if any_each else None,
                           read.rank if read is not None else None)
        faulty |= rows.faulty
        if read is not None:
            faulty |= check_takes(problems, ctx, t, take_token, read.rank, rg, rn, P, bids,
                                  rows.ordered, tags.tie_rule[rg] == 1,
                                  rows.ordered_rounds)
            took = np.where(each[:, None] & (read.rank > 0), read.rank, 0)
            prize = np.where(each, np.where(open_winner >= 0, took[np.arange(len(lr)),
                                                                   np.maximum(open_winner, 0)],
                                            0), prize)
        row, discarded = rows.row, rows.discarded
        reveal = (lr[rows.reveal_round], rows.reveal_rank, rows.reveal_first)

    # -- play the rounds without a problem ------------------------------------------------
    played = ~faulty
    winner = np.full(len(lr), -1, np.int64)
    carried_in = np.zeros(len(lr), np.int64)
    pool_start = np.arange(len(lr))
    scores = np.zeros((G, MAX_PLAYERS), np.int64)
    unclaimed = np.zeros(G, np.int64)
    pl_idx = np.flatnonzero(played & ~opn)
    if len(pl_idx):
        g = rg[pl_idx]
        done = play_rounds(g, rn[pl_idx], limit[pl_idx], tags.tie_rule[g] == 1, prize[pl_idx],
                           bids[pl_idx], G)
        scores, unclaimed = done.scores, done.unclaimed
        winner[pl_idx] = done.winner
        carried_in[pl_idx] = done.carried_in
        pool_start[pl_idx] = pl_idx[done.pool_start]
    if any_open:
        op = np.flatnonzero(played & opn)
        winner[op] = open_winner[op]
        won = op[(open_winner[op] >= 0) & ~each[op]]
        np.add.at(scores, (rg[won], open_winner[won]), prize[won])
        if any_each:
            chose = op[each[op]]
            np.add.at(scores, rg[chose], took[chose])
        unclaimed += np.bincount(rg[op], weights=discarded[op], minlength=G).astype(np.int64)
        over_games = np.flatnonzero((tags.open_prizes != 0) & (s.n_rounds >= tags.rounds))
        unclaimed[over_games] = tags.cards[over_games] * (tags.cards[over_games] + 1) // 2 \
            - scores[over_games].sum(axis=1)
    skipped = np.flatnonzero(~played)
    first_skipped = np.zeros(G, np.int64)
    if len(skipped):
        firsts = skipped[run_starts(rg[skipped])]
        first_skipped[rg[firsts]] = rn[firsts]

    # back to all rounds: those past the last were neither checked nor played
    out_prize = np.full(R, -1, np.int64)
    out_bids = np.full((R, MAX_PLAYERS), -1, np.int64)
    out_played = np.zeros(R, bool)
    out_winner = np.full(R, -1, np.int64)
    out_carried = np.zeros(R, np.int64)
    out_pool = np.arange(R)
    out_row = np.zeros(R, np.int64)
    out_discarded = np.zeros(R, np.int64)
    out_prize[lr], out_bids[lr], out_played[lr] = prize, bids, played
    out_winner[lr], out_carried[lr], out_pool[lr] = winner, carried_in, lr[pool_start]
    if several:
        out_ranks = np.full((R, MAX_PLAYERS, crank.shape[2]), -1, np.int64)
        out_ranks[lr] = np.where(in_use[:, 1:, None], crank[:, 1:], -1)[:, :MAX_PLAYERS]
    else:  # one card a bid: the cards are the bids
        out_ranks = out_bids[:, :, None]
    if any_open:
        out_row[lr], out_discarded[lr] = row, discarded
    out_takes = None
    if any_each:
        out_takes = np.zeros((R, MAX_PLAYERS), np.int64)
        out_takes[lr] = np.where(played[:, None], took, 0)
    _results(problems, t, s, tags, scores, first_skipped, dirty)
    n_problems = problems.per_game(G)
    return Replay(tokens, structure, tags, problems, n_problems, tags.cards, tags.tie_rule,
                  tags.prize_order, s.players, s.n_rounds, scores, unclaimed, first_skipped,
                  out_prize, out_bids, out_played, out_winner, out_carried, out_pool,
                  out_ranks, out_row, out_discarded, *reveal, takes=out_takes)


@dataclass(frozen=True)
class Played:
    """Rounds played by :func:`play_rounds`: per round the winner (seat, -1 on a tie), the
    value carried in and the first round of its pool (an index into the rounds given); per
    game the points of each seat (G x 4) and the points left unclaimed."""

    winner: np.ndarray
    carried_in: np.ndarray
    pool_start: np.ndarray
    scores: np.ndarray
    unclaimed: np.ndarray


def play_rounds(game: np.ndarray, round_no: np.ndarray, last_round: np.ndarray,
                discard: np.ndarray, prize: np.ndarray, bids: np.ndarray,
                games: int) -> Played:
    """Play legal rounds, the rules' one vectorised form (the replay and simulated games)
    for games of one prize a round (classic bids, or bids of several cards).

    One entry per round, grouped by ``game`` (0..games-1) and in play order within a
    game; ``last_round`` is the number of the game's last round (its N, or floor(N / k)
    with bids of k cards) and ``discard`` its tie rule, per round; ``bids`` has one column
    per seat holding the bid's strength (-1 where a game has fewer seats). The single
    highest bid takes the pool; a shared highest bid is a tie: under carry the pool stays
    for the next round, under discard (and in the last round under both rules) it is
    unclaimed. The value a round's pool carries in depends only on earlier rounds.
    """
    top = bids.max(axis=1)
    alone = (bids == top[:, None]).sum(axis=1) == 1
    w = np.where(alone, bids.argmax(axis=1), -1)
    new_pool = run_starts(game) | discard
    new_pool[1:] |= w[:-1] >= 0
    pool_id = np.cumsum(new_pool) - 1
    starts = np.flatnonzero(new_pool)[pool_id]
    value = prize.astype(np.int64)
    total = np.cumsum(value)
    carried = total - value - (total[starts] - value[starts])
    pool_value = carried + value
    won = w >= 0
    scores = np.zeros((games, MAX_PLAYERS), np.int64)
    np.add.at(scores, (game[won], w[won]), pool_value[won])
    lost = ~won & (discard | (round_no == last_round))
    unclaimed = np.bincount(game[lost], weights=pool_value[lost],
                            minlength=games).astype(np.int64)
    return Played(w, carried, starts, scores, unclaimed)


def _number_text(token: str) -> str:
    """A written round number without its dot (shortened if it is very long)."""
    digits = token.rstrip(".):,]")
    return digits if len(digits) <= 12 else digits[:9] + "..."


def _takes_count(round_no: int, takes: int, players: int) -> str:
    return (f"round {round_no} gives {takes} {'take' if takes == 1 else 'takes'} after its "
            f"bids; with every bidder choosing ([OpenTakes \"each\"]) each of the {players} "
            "seats writes one (a prize, or - for none)")


def _bid_count(round_no: int, bids: int, players: int, open_prizes: bool = False,
               each: bool = False) -> str:
    if each:
        cards = bids + 1
        noun = "card" if cards == 1 else "cards"
        return (f"round {round_no} has {cards} {noun} after its revealed prizes; {players} "
                f"players need {players} bids, then {players} takes (a prize or -), one "
                "per seat")
    if open_prizes:
        cards = bids + 1
        noun = "card" if cards == 1 else "cards"
        return (f"round {round_no} has {cards} {noun} after its revealed prizes; {players} "
                f"players need {players} bids, then the prize taken or -")
    noun = "bid" if bids == 1 else "bids"
    return f"round {round_no} has {bids} {noun}; {players} players need {players}"


def _cards_count(ctx: _Context, game: int, seat: int, count: int, text: str, k: int) -> str:
    noun = "card" if count == 1 else "cards"
    rule = f"{k} cards ([BidCards \"{k}\"])" if k > 1 else \
        "one card (a BidCards tag allows more)"
    return f"{ctx.who(game, seat)} bids {count} {noun} ({text}); a bid in this game is {rule}"


def _bid_text(ranks: np.ndarray) -> str:
    return "+".join(rank_name(int(r)) for r in ranks if r > 0)


def _too_many(rounds: int, cards: int, whole: int) -> str:
    if whole == cards:
        return f"the game has {rounds} rounds; a {cards}-card game has {cards}"
    return (f"the game has {rounds} rounds; a {cards}-card game of {cards // whole}-card "
            f"bids has {whole}")


def _unknown(ctx: _Context, game: int, place: int, rank: int, cards: int) -> str:
    if place == 0:
        return f"prize {rank_name(rank)} is not in a {cards}-card suit"
    return f"{ctx.who(game, place - 1)} bids {rank_name(rank)}, which is not in a " \
           f"{cards}-card suit"


def _wrong_suit(ctx: _Context, game: int, place: int, rank: int, suit: int) -> str:
    if place == 0:
        return f"prize {rank_name(rank)} is written as {_SUIT_NAMES[suit]}; prizes are diamonds"
    seat = place - 1
    return (f"{ctx.who(game, seat)} bids with {_EXPECTED[seat].name.lower()}, but "
            f"{rank_name(rank)} is written as {_SUIT_NAMES[suit]}")


def _word_message(text: str, shape: int, suggestion: str | None) -> str:
    shown = shorten(text)
    if shape == Shape.NUMBER:
        return f"{shown!r} is not a round number: write {suggestion!r}"
    if shape == Shape.CARD:
        hint = f"; did you mean {suggestion}?" if suggestion else ""
        if text.isdigit():
            return (f"{shown!r} is not a card: ranks are A 2-10 J Q K (and round numbers "
                    f"end with a dot, e.g. '3.'){hint}")
        return f"{shown!r} is not a card: ranks are A 2-10 J Q K, suits D C S H{hint}"
    return f"{shown!r} is not a card, tag, round number or terminator"


def _syntax(problems: Problems, t: Tokens, s: Structure, ctx: _Context) -> np.ndarray:
    """Tokens that are not notation, numbered rounds without cards, missing terminators.

    In a game with open prizes the words ``(``, ``)``, ``-`` and cards touching a
    parenthesis are notation; those out of place are reported here too.

    Returns which games have any of them (a word without text is a place the record's
    own source reported: it counts, without a message)."""
    words = np.flatnonzero(t.kind == Kind.WORD)
    if t.has_groups and s.open_game.any():  # open-prize notation is no typo there
        words = words[~(s.open_game[s.game[words]] & (t.group_of(words) > 0))]
    dirty = np.zeros(s.count, bool)
    dirty[s.game[words]] = True
    silent = np.array([not text for text in t.word_texts] + [False], bool)
    word = words[~silent[t.word[words]]]
    messages = [_word_message(text, w.shape, w.suggestion)
                for text, w in zip(t.word_texts, t.words, strict=True)]
    odd = np.flatnonzero((t.kind == Kind.WORD) | (t.kind == Kind.BAD_TAG)
                         | (t.kind == Kind.UNCLOSED))
    round_of = _round_of_tokens(s, t) if len(odd) or len(s.empty_numbers) else \
        np.zeros(len(t), np.int64)
    problems.add("syntax", s.game[word], t.start[word], round_of[word],
                 lambda i: messages[t.word[word[i]]], reader=True, token=word)
    bad_tag = np.flatnonzero(t.kind == Kind.BAD_TAG)
    problems.add("syntax", s.game[bad_tag], t.start[bad_tag], round_of[bad_tag],
                 lambda i: f"malformed tag {ctx.text(bad_tag[i])!r}: write tags as "
                           '[Name "value"]', reader=True, token=bad_tag)
    unclosed = np.flatnonzero(t.kind == Kind.UNCLOSED)
    problems.add("syntax", s.game[unclosed], t.start[unclosed], round_of[unclosed],
                 lambda i: "comment opened with '{' is never closed (a comment may span "
                           "lines, but not a blank line); it is read as ending with its line",
                 reader=True, token=unclosed)
    empty = s.empty_numbers
    problems.add("syntax", s.game[empty], t.start[empty], round_of[empty],
                 lambda i: f"round {ctx.text(empty[i])[:-1]} has no cards", reader=True,
                 token=empty)
    missing = np.flatnonzero(s.missing_end > 0)
    after = np.minimum(missing + 1, max(s.count - 1, 0))
    where = np.where(s.missing_end[missing] == 3, t.end[np.maximum(s.last[missing], 0)],
                     t.start[s.first_significant[after]])
    last_round = s.n_rounds[missing]
    problems.add("syntax", missing, where, last_round,
                 lambda i: _missing_end(int(s.missing_end[missing[i]])), reader=True,
                 token=np.where(s.missing_end[missing] == 3, -1, s.first_significant[after]))
    odd, why = s.odd_token, s.odd_why
    problems.add("syntax", s.game[odd], t.start[odd], s.round_no[s.odd_round],
                 lambda i: _odd_message(int(why[i]), int(s.round_no[s.odd_round[i]])),
                 reader=True, token=odd)
    for found in (bad_tag, unclosed, empty, odd):
        dirty[s.game[found]] = True
    dirty[missing] = True
    return dirty


def _odd_message(why: int, round_no: int) -> str:
    if why == NO_OPEN:
        return (f"round {round_no} has no '(': a round with open prizes starts with the "
                "prizes its top-up reveals in parentheses, () when it reveals none")
    if why == UNCLOSED_GROUP:
        return "'(' is never closed: the prizes revealed end with ')'"
    if why == STRAY_CLOSE:
        return "')' closes no '('"
    return "'-' stands for no prize taken: it comes after the bids"


def _missing_end(why: int) -> str:
    if why == 1:
        return "missing terminator (a result like 44-24, or *) before the next game's tags"
    if why == 2:
        return "missing terminator (a result like 44-24, or *) before the next game's round 1"
    return ("missing terminator at end of file (a result like 44-24, or * for a game "
            "without one); the file may be truncated")


def _round_of_tokens(s: Structure, t: Tokens) -> np.ndarray:
    """The round each token belongs to (0: none): a round token's own round, any other
    token the round being read where it stands (the next one if the last is full)."""
    n = len(t)
    of = np.zeros(n, np.int64)
    rr = np.flatnonzero(s.cards.ravel() >= 0) // MAX_SLOTS
    of[s.cards.ravel()[s.cards.ravel() >= 0]] = s.round_no[rr]
    nt = s.number_token >= 0
    of[s.number_token[nt]] = s.round_no[nt]
    of[s.reveal_token] = s.round_no[s.reveal_round]
    if s.take_token is not None:
        tr = np.flatnonzero(s.take_token.ravel() >= 0) // s.take_token.shape[1]
        of[s.take_token.ravel()[s.take_token.ravel() >= 0]] = s.round_no[tr]
    is_round = (s.role == CARD) | (s.role == NUMBER)
    is_round[s.reveal_token] = True
    is_round[s.empty_numbers] = False
    # other tokens: after the last round token of their game
    last = np.where(is_round, np.arange(n), -1)
    np.maximum.accumulate(last, out=last)
    prev = np.maximum(last, 0)
    same = (last >= 0) & (s.game[prev] == s.game)
    full = np.zeros(n, bool)
    players = s.players[s.round_game]
    full_rounds = s.n_cards == players + 1
    last_cards = s.cards[np.arange(len(s.round_game)),
                         np.minimum(np.maximum(s.n_cards - 1, 0), MAX_SLOTS - 1)]
    if s.take_token is not None:  # a round where every bidder takes ends at its last take
        each = s.take_token[:, 0] >= 0
        full_rounds = np.where(each, s.n_cards == 2 * players, full_rounds)
        last_take = s.take_token[np.arange(len(s.round_game)),
                                 np.clip(players - 1, 0, s.take_token.shape[1] - 1)]
        last_cards = np.where(each, last_take, last_cards)
    full[last_cards[full_rounds & (s.n_cards > 0)]] = True
    other = ~is_round & same
    of[other] = of[prev[other]] + full[prev[other]]
    return of


def _results(problems: Problems, t: Tokens, s: Structure, tags: Tags, scores: np.ndarray,
             first_skipped: np.ndarray, dirty: np.ndarray) -> None:
    """Problems with the written results (terminator and Result tag)."""
    G = s.count
    cards, players = tags.rounds, s.players  # the rounds of a whole game
    finished = s.n_rounds == cards
    end = s.end_token
    term = (end >= 0) & (t.kind[np.maximum(end, 0)] == Kind.RESULT)
    term_len = np.where(term, t.value_count_of(np.maximum(end, 0)), -1)
    term_val = np.where(term[:, None], t.values_of(np.maximum(end, 0)), -1)
    tag_len, tag_val = tags.result_len, tags.result[:, :4]
    clean = ~dirty & tags.rules_ok & (first_skipped == 0)
    within = s.n_rounds <= cards
    unchecked_done = np.zeros(G, bool)
    for what, has_len, values, token in (("result", term_len, term_val, end),
                                         ("Result tag", tag_len, tag_val, tags.result_token)):
        has = within & (has_len >= 0)
        where = t.start[np.maximum(token, 0)]

        def shown(g: int, values=values, has_len=has_len) -> str:
            n = int(has_len[g])
            if n > 4:
                return f"a result of {n} points"
            return format_result(tuple(int(v) for v in values[g, :n]))

        inc = np.flatnonzero(has & ~finished)
        problems.add("incomplete", inc, where[inc], 0,
                     lambda i, inc=inc, w=what, sh=shown:
                     f"the game has {s.n_rounds[inc[i]]} of {cards[inc[i]]} rounds, so its "
                     f"{w} must be *, not {sh(int(inc[i]))}")
        wrong_len = np.flatnonzero(has & finished & (has_len != players))
        problems.add("result-mismatch", wrong_len, where[wrong_len], 0,
                     lambda i, g=wrong_len, w=what, sh=shown, n=has_len:
                     f"{w} {sh(int(g[i]))} has {n[g[i]]} scores; the game has "
                     f"{players[g[i]]} players")
        seats = np.arange(4)[None, :] < players[:, None]
        differs = ((values != scores) & seats).any(axis=1)
        comparable = has & finished & (has_len == players)
        bad = np.flatnonzero(comparable & clean & differs)
        problems.add("result-mismatch", bad, where[bad], 0,
                     lambda i, g=bad, w=what, sh=shown:
                     f"{w} {sh(int(g[i]))} differs from the replayed points "
                     f"{format_result(tuple(int(x) for x in scores[g[i], :players[g[i]]]))}")
        skip = np.flatnonzero(comparable & ~clean & ~unchecked_done)
        unchecked_done[skip] = True
        problems.add("result-unchecked", skip, where[skip], 0,
                     lambda i, g=skip, w=what: _unchecked(w, int(g[i]), first_skipped, tags))
    both = within & finished & (term_len >= 0) & (tag_len >= 0)
    upto = np.arange(4)[None, :] < np.minimum(term_len, 4)[:, None]
    disagree = both & ((term_len != tag_len) | ((term_val != tag_val) & upto).any(axis=1))
    dis = np.flatnonzero(disagree)

    def points(values: np.ndarray, count: np.ndarray, g: int) -> str:
        return format_result(tuple(int(v) for v in values[g, :min(4, int(count[g]))]))

    problems.add("result-mismatch", dis, t.start[np.maximum(end[dis], 0)], 0,
                 lambda i: f"Result tag {points(tag_val, tag_len, dis[i])} and terminator "
                           f"{points(term_val, term_len, dis[i])} disagree")


def _unchecked(what: str, game: int, first_skipped: np.ndarray, tags: Tags) -> str:
    if not tags.rules_ok[game]:
        reason = f"the {RULE_TAGS[tags.bad_rule[game] - 1]} tag has a problem"
    elif first_skipped[game]:
        reason = f"the replay stopped at round {first_skipped[game]}, which has a problem"
    else:
        reason = "the record has a syntax problem, so a card may be missing"
    return f"{what} not checked: {reason}"

