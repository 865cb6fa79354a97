"""Where games and rounds are in a chunk's tokens, for all games at once (numpy).

A game is tags, then rounds, then a terminator. A new game starts after a terminator,
at a tag that follows a round (the terminator was left out), and at a round number
``1.`` that follows a card (the same, in a file of games without tags). Within a game,
a round number starts a round; cards fill the round's places (the prize, then one bid
per seat) and a round is full when every seat has bid, so rounds without numbers are
cut by counting. A mistyped card (``11♣``, ``1Os``) keeps its place, so the cards after
it stay with their seats; a mistyped round number (``3)``) still starts a round.

A game with open prizes (its OpenPrizes tag is known only after the games are found,
so rounds are cut in a second step, :func:`find_rounds`) writes each round as its
revealed prizes in parentheses, the bids, and the prize taken or ``-``. A ``(`` starts a
round there (unless it follows the round's number); the cards up to the first ``)`` are
the revealed ones and the cards after it fill the places (one bid per seat, then the
prize taken, which the place arrays keep as place 0). A round without its ``)`` takes
its last players + 1 cards as the places.

Everything here is positions and counts; what the cards mean is :mod:`.engine`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.games.gops.notation.tokens import Group, Kind, Shape, Tokens
from gops_records.games.gops.rules import MAX_PLAYERS

# the role each token plays in the structure
TAG, NUMBER, CARD, END, NEUTRAL, COMMENT = range(6)
#: Places in a round: the prize and up to four bids.
MAX_SLOTS = 5
#: Why an open-prize round's parentheses or dash are out of place (``Structure.odd_why``).
NO_OPEN, UNCLOSED_GROUP, STRAY_CLOSE, STRAY_DASH = range(4)


def roles(tokens: Tokens) -> np.ndarray:
    """The structural role of every token."""
    kind, shape = tokens.kind, tokens.shape
    role = np.full(len(kind), NEUTRAL, np.int8)
    role[(kind == Kind.TAG) | (kind == Kind.BAD_TAG)] = TAG
    role[(kind == Kind.NUMBER) | ((kind == Kind.WORD) & (shape == Shape.NUMBER))] = NUMBER
    role[(kind == Kind.CARD) | ((kind == Kind.WORD) & (shape == Shape.CARD))] = CARD
    role[(kind == Kind.RESULT) | (kind == Kind.STAR)] = END
    role[kind == Kind.COMMENT] = COMMENT
    return role


def forward_fill(values: np.ndarray, mask: np.ndarray, empty: int) -> np.ndarray:
    """For each position, ``values`` at the last position at or before it where ``mask``
    holds (``empty`` before the first)."""
    idx = np.where(mask, np.arange(len(mask)), -1)
    np.maximum.accumulate(idx, out=idx)
    return np.where(idx >= 0, values[np.maximum(idx, 0)], empty)


def run_starts(groups: np.ndarray) -> np.ndarray:
    """Mask of the first element of each run of equal values."""
    mask = np.ones(len(groups), bool)
    mask[1:] = groups[1:] != groups[:-1]
    return mask


def first_seen(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each element: whether it is the first with its key (in array order), and the
    index of that first one."""
    order = np.argsort(key, kind="stable")
    first_sorted = run_starts(key[order])
    leader = order[np.flatnonzero(first_sorted)][np.cumsum(first_sorted) - 1]
    first = np.zeros(len(key), bool)
    first[order[first_sorted]] = True
    earliest = np.empty(len(key), np.int64)
    earliest[order] = leader
    return first, earliest


@dataclass
class Structure:
    """Games and rounds of a chunk.

    Per token: ``role`` and ``game``. Per game (G): first and last token, the terminator
    token (-1 if missing), why it is missing (0 none, 1 a tag follows, 2 a ``1.``
    follows, 3 the text ends), players, the number of rounds written. Per round (R, in
    file order): game, 1-based number, the token of each place (``cards``, -1 empty),
    how many cards it has, its written number token (-1) and its first token. Numbered
    rounds without a card are listed in ``empty_numbers``.
    """

    role: np.ndarray
    game: np.ndarray
    first: np.ndarray
    last: np.ndarray
    end_token: np.ndarray
    missing_end: np.ndarray
    players: np.ndarray
    n_rounds: np.ndarray
    round_game: np.ndarray
    round_no: np.ndarray
    cards: np.ndarray
    n_cards: np.ndarray
    number_token: np.ndarray
    round_token: np.ndarray
    empty_numbers: np.ndarray
    seat_tags: np.ndarray  # (G, 4): the token of each seat's player tag (last one), -1
    first_significant: np.ndarray  # per game: its first token that is not a comment
    comment_round: np.ndarray  # per comment token (tokens.comment_index): its round, -1
    open_game: np.ndarray  # per game: read with open prizes
    reveal_token: np.ndarray  # open prizes: each revealed card's token, in file order
    reveal_round: np.ndarray  # ... and its round
    odd_token: np.ndarray  # open prizes: a parenthesis or dash out of place (or the round
    odd_why: np.ndarray    # that lacks its '('), why (NO_OPEN, ...), and its round
    odd_round: np.ndarray
    open_token: np.ndarray  # open prizes: per round its '(' token, -1 (empty: no open game)
    #: [OpenTakes "each"]: per round (R, 4) the token of each seat's take, -1 (None: no
    #: such game read)
    take_token: np.ndarray | None = None

    @property
    def count(self) -> int:
        return len(self.first)

    @property
    def open_round(self) -> np.ndarray:
        """Per round: its game has open prizes."""
        return self.open_game[self.round_game]


@dataclass
class Games:
    """Where the games of a chunk are (the first step of :func:`find_rounds`): per token
    its role and game, and per game what :class:`Structure` lists of it."""

    role: np.ndarray
    game: np.ndarray
    first: np.ndarray
    last: np.ndarray
    end_token: np.ndarray
    missing_end: np.ndarray
    players: np.ndarray
    seat_tags: np.ndarray
    first_significant: np.ndarray

    @property
    def count(self) -> int:
        return len(self.first)


def find_games(tokens: Tokens, seat_of_tag: np.ndarray) -> Games:
    """The games of ``tokens``; ``seat_of_tag`` is the seat (0..3) each tag token names
    as a player tag, else -1 (aligned with ``tokens.tag_index``)."""
    role = roles(tokens)
    n = len(role)
    sig = np.flatnonzero(role != COMMENT)
    srole = role[sig]
    # the last role other than NEUTRAL before each significant token
    decisive = srole != NEUTRAL
    prev_decisive = np.full(len(sig), -1, np.int64)
    if len(sig) > 1:
        prev_decisive[1:] = forward_fill(srole.astype(np.int64), decisive, -1)[:-1]
    prev_role = np.full(len(sig), -1, np.int64)
    prev_role[1:] = srole[:-1]
    number_one = np.zeros(len(sig), bool)
    is_num = srole == NUMBER
    number_one[is_num] = tokens.values_of(sig[is_num])[:, 0] == 1
    after_round = (prev_decisive == CARD) | (prev_decisive == NUMBER)
    tag_split = (srole == TAG) & after_round
    one_split = number_one & (prev_decisive == CARD)
    start = (prev_role == END) | tag_split | one_split
    if len(sig):
        start[0] = True
    sgame = np.cumsum(start) - 1
    n_games = int(sgame[-1]) + 1 if len(sig) else 0
    # every token's game: a comment goes with the token before it, unless that one ends
    # a game (or there is none): then with the one after it (the last game at the end)
    game = np.full(n, max(n_games - 1, 0), np.int64)
    game[sig] = sgame
    com = np.flatnonzero(role == COMMENT)
    if len(sig) and len(com):
        at = np.searchsorted(sig, com)
        prev = sig[np.maximum(at - 1, 0)]
        use_prev = (at > 0) & (role[prev] != END)
        nxt = np.minimum(at, len(sig) - 1)
        game[com] = np.where(use_prev, game[prev], np.where(at < len(sig), sgame[nxt],
                                                            n_games - 1))
    if not len(sig):
        game[:] = -1
    first = np.searchsorted(game, np.arange(n_games))  # games are in token order
    last = np.searchsorted(game, np.arange(n_games), side="right") - 1
    # the terminator: the game's last significant token, when it is an END
    last_sig = sig[np.flatnonzero(np.append(sgame[1:] != sgame[:-1], True))] if len(sig) \
        else np.zeros(0, np.int64)
    end_token = np.where(role[last_sig] == END, last_sig, -1)
    missing = np.zeros(n_games, np.int8)
    split_kind = np.where(tag_split, 1, np.where(one_split, 2, 0))
    nxt_game = np.flatnonzero(start)[1:]  # the token starting each game after the first
    missing[sgame[nxt_game] - 1] = np.where(end_token[sgame[nxt_game] - 1] < 0,
                                            split_kind[nxt_game], 0)
    if n_games and end_token[-1] < 0:
        missing[-1] = 3

    # -- players: the highest seat named by a player tag ---------------------------------
    players = np.full(n_games, 2, np.int64)
    seat_tags = np.full((n_games, 4), -1, np.int64)
    named = np.flatnonzero(seat_of_tag >= 0)
    if len(named):
        tok = tokens.tag_index[named]
        seat_tags[game[tok], seat_of_tag[named]] = tok  # in file order: the last one wins
        top = np.max(np.where(seat_tags >= 0, np.arange(1, 5), 0), axis=1)
        players = np.maximum(players, top)
    return Games(role, game, first, last, end_token, missing, players, seat_tags, sig[start])


@dataclass
class _Rounds:
    """Rounds cut from some games' tokens (before the two kinds are merged): per round its
    game, first token, the token of each place, its count of cards and its number token;
    the tokens that belong to each round (``member``, ``member_round``), numbered
    segments without cards, and for open prizes the revealed cards and odd tokens."""

    game: np.ndarray
    first_token: np.ndarray
    cards: np.ndarray
    n_cards: np.ndarray
    number_token: np.ndarray
    member: np.ndarray
    member_round: np.ndarray
    empty_numbers: np.ndarray
    reveal_token: np.ndarray
    reveal_round: np.ndarray
    odd_token: np.ndarray
    odd_why: np.ndarray
    odd_round: np.ndarray
    open_token: np.ndarray
    take_token: np.ndarray | None = None


def _empty(dtype=np.int64) -> np.ndarray:
    return np.zeros(0, dtype)


def find_rounds(tokens: Tokens, games: Games, open_game: np.ndarray | None = None,
                each_game: np.ndarray | None = None) -> Structure:
    """The rounds of the games found by :func:`find_games`; ``open_game`` marks the games
    with open prizes (none when None), ``each_game`` those of them where every bidder
    takes a prize (``[OpenTakes "each"]``: one take per seat after the bids)."""
    g = games
    role, game, players = g.role, g.game, g.players
    n = len(role)
    if open_game is None:
        open_game = np.zeros(g.count, bool)
    any_open = bool(open_game.any()) and n > 0
    tok_open = open_game[game] if any_open else np.zeros(n, bool)
    round_like = (role == NUMBER) | (role == CARD)
    parts = [_classic_rounds(np.flatnonzero(round_like & ~tok_open), game, players, role)]
    if any_open:
        group = np.zeros(n, np.int64)
        opened = np.flatnonzero(tok_open)
        group[opened] = tokens.group_of(opened)
        each = each_game if each_game is not None else np.zeros(g.count, bool)
        parts.append(_open_rounds(tokens, np.flatnonzero(tok_open & (round_like | (group > 0))),
                                  game, players, role, group, each))
    rounds = _merge(parts)
    n_games = g.count
    round_game = rounds.game
    n_r = len(round_game)
    counts = np.bincount(round_game, minlength=n_games)
    game_first_round = np.zeros(n_games + 1, np.int64)
    game_first_round[1:] = np.cumsum(counts)
    round_no = np.arange(n_r) - game_first_round[round_game] + 1
    round_token = np.where(rounds.number_token >= 0, rounds.number_token, rounds.first_token)
    # a comment belongs to the round of the last round token before it in its game
    round_of = np.full(n, -1, np.int64)
    round_of[rounds.member] = rounds.member_round
    com = tokens.comment_index
    owner = forward_fill(round_of, round_of >= 0, -1)[com]
    end_token = g.end_token
    after_end = com > np.where(end_token >= 0, end_token, n)[game[com]] if n_games else \
        np.zeros(len(com), bool)
    comment_round = np.where((owner >= 0) & (round_game[np.maximum(owner, 0)] == game[com])
                             & ~after_end if n_r else np.zeros(len(com), bool), owner, -1)
    return Structure(role, game, g.first, g.last, end_token, g.missing_end, players, counts,
                     round_game, round_no, rounds.cards, rounds.n_cards, rounds.number_token,
                     round_token, rounds.empty_numbers, g.seat_tags, g.first_significant,
                     comment_round, open_game, rounds.reveal_token, rounds.reveal_round,
                     rounds.odd_token, rounds.odd_why, rounds.odd_round, rounds.open_token,
                     rounds.take_token)


def find_structure(tokens: Tokens, seat_of_tag: np.ndarray,
                   open_game: np.ndarray | None = None) -> Structure:
    """Games and rounds of ``tokens`` in one call (see :func:`find_games`)."""
    return find_rounds(tokens, find_games(tokens, seat_of_tag), open_game)


def _merge(parts: list[_Rounds]) -> _Rounds:
    """Rounds of several kinds of games as one list in file order (games do not mix)."""
    if len(parts) == 1:
        return parts[0]
    first = np.concatenate([p.first_token for p in parts])
    order = np.argsort(first, kind="stable")
    at = np.empty(len(order), np.int64)
    at[order] = np.arange(len(order))
    offsets = np.cumsum([0] + [len(p.first_token) for p in parts])

    def moved(name: str) -> np.ndarray:
        return np.concatenate([at[getattr(p, name) + offsets[i]] if len(getattr(p, name))
                               else _empty() for i, p in enumerate(parts)])

    def joined(name: str) -> np.ndarray:
        return np.concatenate([getattr(p, name) for p in parts])

    def sort_by(tokens: np.ndarray, *others: np.ndarray) -> list[np.ndarray]:
        o = np.argsort(tokens, kind="stable")
        return [tokens[o], *(x[o] for x in others)]

    reveal_token, reveal_round = sort_by(joined("reveal_token"), moved("reveal_round"))
    takes = [p.take_token for p in parts if p.take_token is not None]
    take_token = np.concatenate([
        p.take_token if p.take_token is not None
        else np.full((len(p.first_token), MAX_PLAYERS), -1, np.int64) for p in parts]
    )[order] if takes else None
    odd_token, odd_why, odd_round = sort_by(joined("odd_token"), joined("odd_why"),
                                            moved("odd_round"))
    return _Rounds(joined("game")[order], first[order], joined("cards")[order],
                   joined("n_cards")[order], joined("number_token")[order], joined("member"),
                   moved("member_round"), np.sort(joined("empty_numbers")), reveal_token,
                   reveal_round, odd_token, odd_why, odd_round,
                   np.concatenate([p.open_token if len(p.open_token) == len(p.first_token)
                                   else np.full(len(p.first_token), -1, np.int64)
                                   for p in parts])[order], take_token)


def _classic_rounds(rt: np.ndarray, game: np.ndarray, players: np.ndarray, role: np.ndarray
                    ) -> _Rounds:
    """Rounds of games without open prizes: ``rt`` are their round numbers and cards."""
    rgame = game[rt]
    rnum = role[rt] == NUMBER
    seg_start = rnum | run_starts(rgame)
    seg = np.cumsum(seg_start) - 1
    n_seg = int(seg[-1]) + 1 if len(seg) else 0
    is_card = ~rnum
    card_rank = np.cumsum(is_card) - is_card  # cards before each token
    seg_first = np.flatnonzero(seg_start)
    k = card_rank - card_rank[seg_first][seg]  # place of a card within its segment
    slots = players[rgame] + 1
    seg_game = rgame[seg_first]
    seg_slots = players[seg_game] + 1
    seg_cards = np.bincount(seg[is_card], minlength=n_seg)
    seg_numbered = rnum[seg_first]
    seg_rounds = -(-seg_cards // seg_slots)
    # a round's index among all rounds of the chunk
    seg_base = np.cumsum(seg_rounds) - seg_rounds
    r_in_seg = k // slots
    card_round = seg_base[seg] + r_in_seg
    n_r = int(seg_rounds.sum())
    round_game = np.repeat(seg_game, seg_rounds)
    cards = np.full((n_r, MAX_SLOTS), -1, np.int64)
    ci = np.flatnonzero(is_card)
    cards[card_round[ci], (k % slots)[ci]] = rt[ci]
    n_cards = (cards >= 0).sum(axis=1)
    number_token = np.full(n_r, -1, np.int64)
    numbered = seg_numbered & (seg_rounds > 0)
    number_token[seg_base[numbered]] = rt[seg_first[numbered]]
    empty_numbers = rt[seg_first[seg_numbered & (seg_cards == 0)]]
    has_number = np.flatnonzero(number_token >= 0)
    member = np.concatenate([rt[ci], number_token[has_number]])
    member_round = np.concatenate([card_round[ci], has_number])
    return _Rounds(round_game, np.where(number_token >= 0, number_token, cards[:, 0]), cards,
                   n_cards, number_token, member, member_round, empty_numbers, _empty(),
                   _empty(), _empty(), _empty(), _empty(), _empty())


def _open_rounds(tokens: Tokens, rt: np.ndarray, game: np.ndarray, players: np.ndarray,
                 role: np.ndarray, group: np.ndarray, each_game: np.ndarray) -> _Rounds:
    """Rounds of games with open prizes: ``rt`` are their round numbers, cards and
    open-prize words (``group`` their flags, per token).

    After the ``)`` come the bids, then the prize taken. A round with fewer cards there
    than players + 1 keeps its last one as the prize taken when it is ``-`` or written in
    diamonds, else takes them all as bids (the prize taken is missing). In a game where
    every bidder takes (``each_game``) the bids are followed by one take per seat, in seat
    order (``take_token``); there is no single prize taken."""
    rgame = game[rt]
    grp = group[rt]
    is_num = (role[rt] == NUMBER) & (grp == 0)  # '3)' closes a group here
    opens = (grp & Group.OPENS) > 0
    closes = (grp & Group.CLOSES) > 0
    is_card = (role[rt] == CARD) | ((grp & (Group.CARD | Group.DASH)) > 0)
    new_game = run_starts(rgame)
    prev_num = np.zeros(len(rt), bool)
    prev_num[1:] = is_num[:-1] & ~new_game[1:]
    seg_start = is_num | new_game | (opens & ~prev_num)
    seg = np.cumsum(seg_start) - 1
    n_seg = int(seg[-1]) + 1 if len(seg) else 0
    seg_first = np.flatnonzero(seg_start)
    seg_game = rgame[seg_first]
    seg_numbered = is_num[seg_first]
    # the segment's first ')' (its position among rt), and the cards up to it
    pos = np.arange(len(rt))
    first_close = np.full(n_seg, len(rt), np.int64)
    np.minimum.at(first_close, seg[closes], pos[closes])
    has_close = first_close < len(rt)
    has_open = np.bincount(seg[opens], minlength=n_seg) > 0
    card_rank = np.cumsum(is_card) - is_card
    k = card_rank - card_rank[seg_first][seg]  # a card's place among its segment's cards
    seg_cards = np.bincount(seg[is_card], minlength=n_seg)
    inside = np.bincount(seg[is_card & (pos <= first_close[seg])], minlength=n_seg)
    seg_each = each_game[seg_game]
    seg_players = players[seg_game]
    slots = np.where(seg_each, 2 * seg_players, seg_players + 1)
    before = np.where(has_close, inside, np.maximum(seg_cards - slots, 0))
    place_no = k - before[seg]  # <0: revealed; then the places in written order
    # which place holds the prize taken: the (P+1)th, or in a short round its last card
    # when that is '-' or a diamond
    dash = (grp & Group.DASH) > 0
    n_places = seg_cards - before
    last_place = np.full(n_seg, -1, np.int64)
    placed = np.flatnonzero(is_card & (place_no >= 0))
    last_place[seg[placed]] = placed  # in order: the last one wins
    safe = np.maximum(last_place, 0)
    diamond = (tokens.kind[rt[safe]] == Kind.CARD) & (tokens.values_of(rt[safe])[:, 1] == 1) \
        if len(rt) else np.zeros(n_seg, bool)
    short_taken = (last_place >= 0) & (dash[safe] | diamond)
    taken_at = np.where(n_places >= slots, slots - 1, np.where(short_taken, n_places - 1, -1))
    taken_at[seg_each] = -1
    is_taken = is_card & (place_no >= 0) & (place_no == taken_at[seg])
    tok_each = seg_each[seg]
    bid_places = np.where(tok_each, seg_players[seg], slots[seg] - 1)
    is_bid = is_card & (place_no >= 0) & ~is_taken & (place_no < bid_places)
    is_take = is_card & tok_each & (place_no >= bid_places) & (place_no < slots[seg])
    is_round = (seg_cards > 0) | has_open | has_close
    n_r = int(is_round.sum())
    round_of_seg = np.cumsum(is_round) - 1
    r_of = round_of_seg[seg]
    cards = np.full((n_r, MAX_SLOTS), -1, np.int64)
    taken = np.flatnonzero(is_taken)
    cards[r_of[taken], 0] = rt[taken]
    bid = np.flatnonzero(is_bid)
    cards[r_of[bid], place_no[bid] + 1] = rt[bid]
    take_token = None
    if each_game.any():
        take_token = np.full((n_r, MAX_PLAYERS), -1, np.int64)
        took = np.flatnonzero(is_take)
        take_token[r_of[took], place_no[took] - bid_places[took]] = rt[took]
    n_cards = n_places[is_round]
    revealed = np.flatnonzero(is_card & (place_no < 0))
    number_token = np.where(seg_numbered, rt[seg_first], -1)[is_round]
    first_token = rt[seg_first][is_round]
    empty_numbers = rt[seg_first[seg_numbered & ~is_round]]
    in_round = np.flatnonzero(is_round[seg])
    # the odd ones: a round without '(', a '(' never closed, a second ')', a misplaced '-'
    no_open = np.flatnonzero(is_round & ~has_open)
    unclosed = np.flatnonzero(opens & ~has_close[seg])
    stray_close = np.flatnonzero(closes & (pos > first_close[seg]))
    stray_dash = np.flatnonzero(dash & ~is_taken & ~is_take)
    first_card = np.full(n_seg, -1, np.int64)
    cards_at = np.flatnonzero(is_card | opens | closes)
    firsts = cards_at[run_starts(seg[cards_at])] if len(cards_at) else cards_at
    first_card[seg[firsts]] = rt[firsts]
    odd_token = np.concatenate([first_card[no_open], rt[unclosed], rt[stray_close],
                                rt[stray_dash]])
    odd_why = np.concatenate([np.full(len(no_open), NO_OPEN), np.full(len(unclosed),
                              UNCLOSED_GROUP), np.full(len(stray_close), STRAY_CLOSE),
                              np.full(len(stray_dash), STRAY_DASH)])
    odd_round = np.concatenate([round_of_seg[no_open], r_of[unclosed], r_of[stray_close],
                                r_of[stray_dash]])
    order = np.argsort(odd_token, kind="stable")
    open_token = np.full(n_seg, -1, np.int64)
    opened = np.flatnonzero(opens)
    firsts = opened[run_starts(seg[opened])] if len(opened) else opened
    open_token[seg[firsts]] = rt[firsts]
    return _Rounds(rgame[seg_first][is_round], first_token, cards, n_cards, number_token,
                   rt[in_round], r_of[in_round], empty_numbers, rt[revealed], r_of[revealed],
                   odd_token[order], odd_why[order], odd_round[order], open_token[is_round],
                   take_token)

