"""Where games and rounds are in a chunk's tokens, for all games at once (numpy).

A game is tags, then rounds, then a terminator. A new game starts after a terminator,
at a tag that follows a round (the terminator was left out), and at a round number
``1.`` that follows a card (the same, in a file of games without tags). Within a game,
a round number starts a round; cards fill the round's places (the prize, then one bid
per seat) and a round is full when every seat has bid, so rounds without numbers are
cut by counting. A mistyped card (``11♣``, ``1Os``) keeps its place, so the cards after
it stay with their seats; a mistyped round number (``3)``) still starts a round.

Everything here is positions and counts; what the cards mean is :mod:`.engine`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.notation.tokens import Kind, Shape, Tokens

# the role each token plays in the structure
TAG, NUMBER, CARD, END, NEUTRAL, COMMENT = range(6)
#: Places in a round: the prize and up to four bids.
MAX_SLOTS = 5


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

    @property
    def count(self) -> int:
        return len(self.first)


def find_structure(tokens: Tokens, seat_of_tag: np.ndarray) -> Structure:
    """Games and rounds of ``tokens``; ``seat_of_tag`` is the seat (0..3) each tag token
    names as a player tag, else -1 (aligned with ``tokens.tag_index``)."""
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

    # -- rounds -------------------------------------------------------------------------
    rt = np.flatnonzero((role == NUMBER) | (role == CARD))
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
    game_first_round = np.full(n_games + 1, 0, np.int64)
    counts = np.bincount(round_game, minlength=n_games)
    game_first_round[1:] = np.cumsum(counts)
    round_no = np.arange(n_r) - game_first_round[round_game] + 1
    cards = np.full((n_r, MAX_SLOTS), -1, np.int64)
    ci = np.flatnonzero(is_card)
    cards[card_round[ci], (k % slots)[ci]] = rt[ci]
    n_cards = (cards >= 0).sum(axis=1)
    number_token = np.full(n_r, -1, np.int64)
    numbered = seg_numbered & (seg_rounds > 0)
    number_token[seg_base[numbered]] = rt[seg_first[numbered]]
    round_token = np.where(number_token >= 0, number_token, cards[:, 0])
    empty_numbers = rt[seg_first[seg_numbered & (seg_cards == 0)]]
    # a comment belongs to the round of the last card or round number before it in its game
    round_of = np.full(n, -1, np.int64)
    round_of[rt[ci]] = card_round[ci]
    round_of[number_token[number_token >= 0]] = np.flatnonzero(number_token >= 0)
    com = tokens.comment_index
    owner = forward_fill(round_of, round_of >= 0, -1)[com]
    after_end = com > np.where(end_token >= 0, end_token, n)[game[com]] if n_games else \
        np.zeros(len(com), bool)
    comment_round = np.where((owner >= 0) & (round_game[np.maximum(owner, 0)] == game[com])
                             & ~after_end if n_r else np.zeros(len(com), bool), owner, -1)
    return Structure(role, game, first, last, end_token, missing, players, counts,
                     round_game, round_no, cards, n_cards, number_token, round_token,
                     empty_numbers, seat_tags, sig[start], comment_round)

