"""Every bidder's take (``[OpenTakes "each"]``): reading and checking the takes written
after an open-prize round's bids, one per seat in seat order (``-``: none).

:func:`read_takes` reads the take tokens of the checked rounds (a card in diamonds, or
``-``); :func:`check_takes` holds them to the rules of :mod:`gops_records.games.gops.rules`
(``Game._each_take_problems``, the readable reference): bidders choose strongest first,
each with a strength of its own takes a prize still in the row at its turn while the row
lasts; tied bidders, and bidders whose turn finds the row empty, take nothing. A shared
top strength under ``discard`` first sets aside the most recently revealed prize.
Wrong takes are ``take-mismatch`` or ``prize-not-in-row``, at the take itself.

The takes are few (a round of four seats at most, and only in games with the tag), so
the checks run per round in Python, in the order the reference engine takes them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.games.gops.cards import MAX_RANK, rank_name
from gops_records.games.gops.notation.tokens import Group, Kind, Tokens
from gops_records.games.gops.replay.problems import Problems
from gops_records.games.gops.rules import choosing_order

_SUIT_NAMES = {1: "diamonds", 2: "clubs", 3: "spades", 4: "hearts"}


@dataclass(frozen=True)
class ReadTakes:
    """Per checked round (L, 4): each seat's take (a rank, 0 for ``-``, -1 where none is
    written or it cannot be read), and per round whether a take has a problem of its own."""

    rank: np.ndarray
    faulty: np.ndarray


def read_takes(problems: Problems, ctx, t: Tokens, take_token: np.ndarray, rg: np.ndarray,
               rn: np.ndarray) -> ReadTakes:
    """Read the take tokens (L, 4; -1: none) of the rounds ``rg``/``rn``: a card joined
    with '+' is a ``syntax`` problem, a suit other than diamonds is ``wrong-suit``, a rank
    past the deck is kept (the checks find it is not in the row, as the engine does)."""
    L = len(take_token)
    rank = np.full((L, 4), -1, np.int64)
    faulty = np.zeros(L, bool)
    r_i, s_i = np.nonzero(take_token >= 0)
    if not len(r_i):
        return ReadTakes(rank, faulty)
    tok = take_token[r_i, s_i]
    kind = t.kind[tok]
    group = t.group_of(tok)
    dash = (group & Group.DASH) > 0
    several = (kind == Kind.CARD) & (t.card_count_of(tok) > 1)
    readable = ((kind == Kind.CARD) & ~several) | ((kind == Kind.WORD) & ((group & Group.CARD)
                                                                         > 0))
    values = t.values_of(tok)
    lead = ((group & Group.OPENS) > 0).astype(np.int64)
    where = t.start[tok] + lead
    big = np.flatnonzero(several)
    problems.add("syntax", rg[r_i[big]], t.start[tok[big]], rn[r_i[big]],
                 lambda i: f"{ctx.text(tok[big[i]])!r} is not one card: only a bid joins cards "
                           "with '+'", reader=True, token=tok[big])
    faulty[r_i[big]] = True
    wrong = readable & ~dash & (values[:, 1] > 1) & (values[:, 0] >= 1) \
        & (values[:, 0] <= MAX_RANK)
    wr = np.flatnonzero(wrong)
    problems.add("wrong-suit", rg[r_i[wr]], where[wr], rn[r_i[wr]],
                 lambda i: f"{ctx.who(int(rg[r_i[wr[i]]]), int(s_i[wr[i]]))} takes "
                           f"{rank_name(int(values[wr[i], 0]))}, written as "
                           f"{_SUIT_NAMES[int(values[wr[i], 1])]}; prizes are diamonds")
    faulty[r_i[wr]] = True
    rank[r_i, s_i] = np.where(dash, 0, np.where(readable & ~dash, values[:, 0], -1))
    return ReadTakes(rank, faulty)


def check_takes(problems: Problems, ctx, t: Tokens, take_token: np.ndarray, rank: np.ndarray,
                rg: np.ndarray, rn: np.ndarray, players: np.ndarray, strengths: np.ndarray,
                rows: list[list[int]], discard: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """Check the takes of the rounds ``rounds`` (indexes into the checked rounds, each with
    readable bids and one take per seat): ``rows[j]`` is round ``rounds[j]``'s row after its
    top-up in the order revealed, ``discard`` whether its game sets aside on a tie. Returns
    per checked round whether its takes have a problem."""
    faulty = np.zeros(len(rank), bool)
    found: dict[str, list[tuple[int, int, str]]] = {"take-mismatch": [], "prize-not-in-row": []}
    for j, i in enumerate(rounds.tolist()):
        n_seats = int(players[i])
        takes = [None if r == 0 else int(r) for r in rank[i, :n_seats].tolist()]
        strength = [int(x) for x in strengths[i, :n_seats].tolist()]
        g, round_no = int(rg[i]), int(rn[i])
        for code, seat, message in _problems(ctx, g, round_no, strength, list(rows[j]), takes,
                                             bool(discard[i])):
            found[code].append((i, seat, message))
    for code, items in found.items():
        if not items:
            continue
        at = np.array([i for i, _, _ in items], np.int64)
        seat = np.array([s for _, s, _ in items], np.int64)
        messages = [m for _, _, m in items]
        tok = take_token[at, seat]
        problems.add(code, rg[at], t.start[tok], rn[at], lambda k, m=messages: m[k])
        faulty[at] = True
    return faulty


def _problems(ctx, game: int, n: int, strengths: list[int], left: list[int],
              takes: list[int | None], discard: bool) -> list[tuple[str, int, str]]:
    """The problems of one round's takes, as ``Game._each_take_problems`` finds them."""
    found: list[tuple[str, int, str]] = []
    taken_by: dict[int, int] = {}
    for place, group in enumerate(choosing_order(strengths)):
        if len(group) > 1:
            if place == 0 and discard and left:
                left.pop()
            for seat in group:
                if takes[seat] is not None:
                    found.append(("take-mismatch", seat,
                                  f"{ctx.who(game, seat)} shares the bid "
                                  f"{_show(strengths[seat])} in round {n}: a shared bid "
                                  "takes no prize; write -"))
            continue
        seat = group[0]
        take = takes[seat]
        if not left:
            if take is not None:
                found.append(("take-mismatch", seat,
                              f"{ctx.who(game, seat)} chooses when the row is empty in round "
                              f"{n}: write -, not {_show(take)}"))
            continue
        if take is None:
            found.append(("take-mismatch", seat,
                          f"{ctx.who(game, seat)} chooses with {_show(strengths[seat])} in "
                          f"round {n}: write the prize taken, not -"))
            left.pop()  # a prize still goes; the most recent stands in for it
            continue
        if take not in left:
            before = taken_by.get(take)
            why = (f"{ctx.who(game, before)} took it first" if before is not None
                   else f"the row is {' '.join(map(_show, left))}")
            found.append(("prize-not-in-row", seat,
                          f"{ctx.who(game, seat)} takes {_show(take)}, which is not in the "
                          f"row ({why})"))
            continue
        left.remove(take)
        taken_by[take] = seat
    return found


def _show(value: int) -> str:
    return rank_name(value) if 1 <= value <= MAX_RANK else str(value)


__all__ = ["ReadTakes", "check_takes", "read_takes"]
