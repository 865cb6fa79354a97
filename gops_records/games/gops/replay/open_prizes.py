"""The open-prize part of the replay: the row of face-up prizes, for all games at once.

A game with ``[OpenPrizes "k"]`` writes each round as the prizes its top-up revealed,
the bids and the prize taken (or ``-``). The row is followed *as written*: a revealed
prize joins it where it first appears readable, a prize written as taken leaves it, and
a ``-`` under the discard rule sets aside the most recently revealed prize still in it,
whether or not the round has a problem, so one mistake does not make every later top-up
look wrong. Points are only given for rounds without a problem (the engine's job).

The row depends on the rounds before, so it is followed one round number at a time (at
most 13 steps), each step for every game at once.

Checks: each revealed prize is a card of the deck, in diamonds, revealed once, in a
fixed order's place; each top-up reveals as many prizes as fill the row to k while the
pile lasts (``reveal-count``); a prize taken is in the row (``prize-not-in-row``); a
prize is taken on a win and none on a tie (``take-mismatch``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.games.gops.cards import MAX_RANK, rank_name
from gops_records.games.gops.notation.tokens import Group, Kind, Tokens
from gops_records.games.gops.replay.problems import Problems
from gops_records.games.gops.replay.structure import Structure, first_seen
from gops_records.games.gops.replay.tags import Tags
from gops_records.games.gops.rules import PRIZE_ORDERS

_BIT = np.left_shift(np.int64(1), np.arange(MAX_RANK + 1, dtype=np.int64))


@dataclass
class OpenPlay:
    """What following the rows gave, per checked round (the engine's ``lr`` order):
    whether it has an open-prize problem, the row after its top-up (a bit mask, bit r =
    rank r), the prize a tie set aside (0: none); and per revealed card (in file order)
    its round, rank, and whether it is the first readable reveal of its prize."""

    faulty: np.ndarray
    row: np.ndarray
    discarded: np.ndarray
    reveal_round: np.ndarray
    reveal_rank: np.ndarray
    reveal_first: np.ndarray
    reveal_token: np.ndarray
    #: [OpenTakes "each"]: the rounds whose takes can be checked (readable bids, one
    #: readable take per seat), and each one's row after its top-up in the order revealed
    ordered_rounds: np.ndarray | None = None
    ordered: list[list[int]] | None = None


def bits_of(mask: int) -> list[int]:
    """The ranks of a row mask, ascending."""
    return [r for r in range(1, MAX_RANK + 1) if mask >> r & 1]


def follow_rows(problems: Problems, ctx, t: Tokens, s: Structure, tags: Tags,
                lr: np.ndarray, opn: np.ndarray, taken: np.ndarray, winner: np.ndarray,
                bids_ok: np.ndarray, strengths: np.ndarray, each: np.ndarray | None = None,
                takes: np.ndarray | None = None) -> OpenPlay:
    """Check and follow the rows of the open-prize rounds among the checked rounds ``lr``
    (``opn`` marks them). ``taken`` is each round's prize taken (0 for ``-``, -1 when
    unreadable or missing); ``winner`` the single highest bidder (-1 on a tie) where
    ``bids_ok``; ``strengths`` the bids (for messages). ``each`` marks the rounds where
    every bidder takes (``[OpenTakes "each"]``; their ``taken`` is -1) and ``takes`` (L, 4)
    each seat's take (0 for ``-``, -1 unreadable): under discard a shared top bid first sets
    aside the most recently revealed prize, then every take in the row leaves it."""
    start = t.start
    L = len(lr)
    rg, rn = s.round_game[lr], s.round_no[lr]
    cards = tags.cards
    at = np.full(len(s.round_game), -1, np.int64)
    at[lr] = np.arange(L)

    # -- the revealed cards --------------------------------------------------------------
    vr = at[s.reveal_round] if len(s.reveal_round) else np.zeros(0, np.int64)
    keep = vr >= 0
    vt, vr = s.reveal_token[keep], vr[keep]
    vg = rg[vr]
    kind = t.kind[vt]
    group = t.group_of(vt)
    several = (kind == Kind.CARD) & (t.card_count_of(vt) > 1)
    readable = ((kind == Kind.CARD) & ~several) | ((kind == Kind.WORD)
                                                  & ((group & Group.CARD) > 0))
    values = t.values_of(vt)
    rank = np.where(readable, values[:, 0], -1)
    suit = values[:, 1]
    lead = ((group & Group.OPENS) > 0).astype(np.int64)  # '(8♦': the card after the '('
    where = start[vt] + lead
    big = np.flatnonzero(several)
    problems.add("syntax", vg[big], start[vt[big]], rn[vr[big]],
                 lambda i: f"{ctx.text(vt[big[i]])!r} is not one card: only a bid joins cards "
                           "with '+'", reader=True, token=vt[big])
    unknown = readable & (rank > cards[vg])
    uk = np.flatnonzero(unknown)
    problems.add("unknown-card", vg[uk], where[uk], rn[vr[uk]],
                 lambda i: f"prize {rank_name(int(rank[uk[i]]))} is not in a "
                           f"{cards[vg[uk[i]]]}-card suit")
    wrong = readable & ~unknown & (suit > 1)
    wr = np.flatnonzero(wrong)
    problems.add("wrong-suit", vg[wr], where[wr], rn[vr[wr]],
                 lambda i: f"prize {rank_name(int(rank[wr[i]]))} is written as "
                           f"{_SUIT_NAMES[int(suit[wr[i]])]}; prizes are diamonds")
    legal = readable & ~unknown
    li = np.flatnonzero(legal)
    is_first, earliest = first_seen(vg[li] * 16 + rank[li])
    first = np.zeros(len(vt), bool)
    first[li[is_first]] = True
    again = li[~is_first]
    e_of = li[earliest[~is_first]]
    problems.add("prize-repeated", vg[again], where[again], rn[vr[again]],
                 lambda i: f"prize {rank_name(int(rank[again[i]]))} was already revealed in "
                           f"round {rn[vr[e_of[i]]]} (line {ctx.line(vt[e_of[i]])})")
    # a fixed order: the i-th prize revealed (first reveals counted) must be i, or N+1-i
    prize_order = tags.prize_order[vg]
    fi = np.flatnonzero(first)
    nth = np.zeros(len(vt), np.int64)
    nth[fi] = np.arange(len(fi)) - np.searchsorted(vg[fi], vg[fi]) + 1
    expected = np.where(prize_order == 1, nth, cards[vg] + 1 - nth)
    off = np.flatnonzero(first & (prize_order > 0) & (rank != expected))
    problems.add("prize-order", vg[off], where[off], rn[vr[off]],
                 lambda i: f"prize order is {PRIZE_ORDERS[prize_order[off[i]]]}: the next "
                           f"prize revealed is {rank_name(int(expected[off[i]]))}, not "
                           f"{rank_name(int(rank[off[i]]))}")
    reveal_bad = np.zeros(L, bool)
    reveal_bad[vr[~readable | unknown | wrong | (legal & ~first)]] = True
    reveal_bad[vr[off]] = True

    # -- the rows, one round number at a time --------------------------------------------
    bits = np.zeros(L, np.int64)
    np.bitwise_or.at(bits, vr[first], _BIT[rank[first]])
    written = np.bincount(vr, minlength=L)
    seq = np.full((s.count, MAX_RANK + 1), -1, np.int64)
    seq[vg[first], rank[first]] = np.flatnonzero(first)  # the order revealed
    row = np.zeros(s.count, np.int64)
    revealed = np.zeros(s.count, np.int64)
    row_after = np.zeros(L, np.int64)
    row_before = np.zeros(L, np.int64)
    pile_before = np.zeros(L, np.int64)
    in_row = np.zeros(L, bool)
    discarded = np.zeros(L, np.int64)
    discard = tags.tie_rule == 1
    legal_taken = (taken > 0) & (taken <= cards[rg])
    open_rounds = np.flatnonzero(opn)
    steps = open_rounds[np.argsort(rn[open_rounds], kind="stable")]
    bounds = np.searchsorted(rn[steps], np.arange(1, MAX_RANK + 2))
    for j in range(MAX_RANK):
        now = steps[bounds[j]:bounds[j + 1]]
        if not len(now):
            continue
        g = rg[now]
        row_before[now] = np.bitwise_count(row[g])
        pile_before[now] = cards[g] - revealed[g]
        row[g] |= bits[now]
        revealed[g] += np.bitwise_count(bits[now])
        row_after[now] = row[g]
        if each is not None and each[now].any():
            _each_step(row, seq, now, g, each, takes, winner, discard, discarded, cards)
        take = legal_taken[now]
        t_bit = _BIT[np.where(take, taken[now], 0)]
        held = take & ((row[g] & t_bit) > 0)
        in_row[now] = held
        row[g] = np.where(held, row[g] & ~t_bit, row[g])
        drop = (taken[now] == 0) & discard[g] & (row[g] > 0)
        if drop.any():
            dg = g[drop]
            member = (row[dg][:, None] & _BIT[None, :]) > 0
            latest = np.argmax(np.where(member, seq[dg], -2), axis=1)
            discarded[now[drop]] = latest
            row[dg] &= ~_BIT[latest]

    # -- the checks that need the row ----------------------------------------------------
    k = tags.open_prizes[rg]
    want = np.maximum(0, np.minimum(k - row_before, pile_before))
    where_round = np.where(s.open_token[lr] >= 0, s.open_token[lr], s.round_token[lr])
    miscount = np.flatnonzero(opn & (k > 0) & (written != want))
    problems.add("reveal-count", rg[miscount], start[where_round[miscount]], rn[miscount],
                 lambda i: _reveal_count(int(rn[miscount[i]]), int(written[miscount[i]]),
                                         int(want[miscount[i]]), int(row_before[miscount[i]]),
                                         int(k[miscount[i]]), int(pile_before[miscount[i]])))
    taken_tok = s.cards[lr, 0]
    won = opn & bids_ok & (winner >= 0)
    tie = opn & bids_ok & (winner < 0)
    nothing = np.flatnonzero(won & (taken == 0))
    problems.add("take-mismatch", rg[nothing], start[taken_tok[nothing]], rn[nothing],
                 lambda i: f"{ctx.who(int(rg[nothing[i]]), int(winner[nothing[i]]))} wins round "
                           f"{rn[nothing[i]]} with "
                           f"{_bid(int(strengths[nothing[i], winner[nothing[i]]]))}: write the "
                           "prize taken, not -")
    on_tie = np.flatnonzero(tie & (taken > 0))
    problems.add("take-mismatch", rg[on_tie], start[taken_tok[on_tie]], rn[on_tie],
                 lambda i: f"round {rn[on_tie[i]]} is a tie (the highest bid "
                           f"{_bid(int(strengths[on_tie[i]].max()))} is shared): nobody takes "
                           "a prize; write -")
    missing = np.flatnonzero(opn & legal_taken & ~in_row & ~tie)
    problems.add("prize-not-in-row", rg[missing], start[taken_tok[missing]], rn[missing],
                 lambda i: _not_in_row(ctx, int(rg[missing[i]]), int(winner[missing[i]])
                                       if won[missing[i]] else -1, int(taken[missing[i]]),
                                       int(row_after[missing[i]])))
    faulty = reveal_bad.copy()
    for found in (miscount, nothing, on_tie, missing):
        faulty[found] = True
    if each is None:
        return OpenPlay(faulty, row_after, discarded, vr, rank, first, vt)
    seats = np.arange(takes.shape[1])[None, :] < s.players[rg][:, None]
    checkable = np.flatnonzero(each & bids_ok & ((takes >= 0) | ~seats).all(axis=1))
    ordered = [sorted(bits_of(int(row_after[i])), key=lambda r, g=int(rg[i]): seq[g, r])
               for i in checkable.tolist()]
    return OpenPlay(faulty, row_after, discarded, vr, rank, first, vt, checkable, ordered)


def _each_step(row: np.ndarray, seq: np.ndarray, now: np.ndarray, g: np.ndarray,
               each: np.ndarray, takes: np.ndarray, winner: np.ndarray, discard: np.ndarray,
               discarded: np.ndarray, cards: np.ndarray) -> None:
    """One round number's step of the rows for the rounds where every bidder takes: a
    shared top bid under discard sets aside the latest revealed prize still in the row,
    then each take written that is in the row leaves it (as written)."""
    e = each[now]
    drop = e & (winner[now] < 0) & discard[g] & (row[g] > 0)
    if drop.any():
        dg = g[drop]
        member = (row[dg][:, None] & _BIT[None, :]) > 0
        latest = np.argmax(np.where(member, seq[dg], -2), axis=1)
        discarded[now[drop]] = latest
        row[dg] &= ~_BIT[latest]
    for seat in range(takes.shape[1]):
        tk = takes[now, seat]
        ok = e & (tk > 0) & (tk <= cards[g])
        bit = _BIT[np.where(ok, tk, 0)]
        row[g] = np.where(ok & ((row[g] & bit) > 0), row[g] & ~bit, row[g])


_SUIT_NAMES = {1: "diamonds", 2: "clubs", 3: "spades", 4: "hearts"}


def _bid(value: int) -> str:
    return rank_name(value) if 1 <= value <= MAX_RANK else str(value)


def _reveal_count(round_no: int, written: int, want: int, row: int, k: int, pile: int) -> str:
    noun = "prize" if written == 1 else "prizes"
    if pile < k - row:
        why = f"the row holds {row} of {k} and the pile {pile}"
    else:
        why = f"the row holds {row} of {k}"
    return f"round {round_no} reveals {written} {noun}; {why}, so the top-up reveals {want}"


def _not_in_row(ctx, game: int, winner: int, taken: int, row: int) -> str:
    shown = " ".join(rank_name(r) for r in bits_of(row)) or "empty"
    who = ctx.who(game, winner) if winner >= 0 else "the winner"
    return f"{who} takes {rank_name(taken)}, which is not in the row ({shown})"
