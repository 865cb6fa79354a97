"""Checking and replaying the safe segments of a chunk, all games at once (numpy).

A segment is taken by the fast path only when it has the plainest layout (tag lines,
then numbered round lines with every card, then the terminator; blank lines and
comment lines before the rounds) and passes every check the validator makes: tags
known or free-form with readable values and no repeats, round numbers 1..k, 1 + P
cards a line, ranks within the deck, right suits, no prize or bid used twice, the
fixed prize order, at most N rounds, and written results that match the replayed
points (``*`` while unfinished). Anything else goes to the exact path, which finds the
same problem and says where it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gops_records.fastpath.lines import COMMENT, ROUND, TAG, TERM, LineBook
from gops_records.fastpath.scan import Lines, Units

SEATS = "ABCD"
#: Most distinct tag names one chunk may use on the fast path (bits of a uint64 mask).
_MAX_NAMES = 63
#: Highest set bit + 1 of a 4-bit seat mask: the number of seats named.
_TOP_SEAT = np.array([0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4], np.int64)


@dataclass
class Replayed:
    """The accepted games of a chunk, replayed: arrays per game, per round, per tag line.

    Games are numbered 0..G-1 in file order; ``unit`` is each game's unit in the chunk.
    """

    unit: np.ndarray          # per game
    source_line: np.ndarray   # per game, 1-based
    players: np.ndarray       # P per game
    cards: np.ndarray         # N per game
    tie_rule: np.ndarray      # 0 carry, 1 discard
    prize_order: np.ndarray   # 0 shuffled, 1 ascending, 2 descending
    n_rounds: np.ndarray      # rounds written (= played) per game
    scores: np.ndarray        # (G, 4)
    unclaimed: np.ndarray     # per game (meaningful when finished)
    seat_rows: np.ndarray     # (G, 4) book row of each seat's player tag, 0 if none
    tag_rows: np.ndarray      # book rows of the tag lines, file order
    tag_game: np.ndarray      # game of each tag line
    key_tag_rows: np.ndarray  # book rows of the key's tags (no Result), sorted by name
    key_tag_game: np.ndarray
    round_rows: np.ndarray    # book rows of the round lines, file order
    round_game: np.ndarray
    round_no: np.ndarray
    prize: np.ndarray
    winner: np.ndarray        # seat index, -1 on a tie
    carried_in: np.ndarray
    pool_start: np.ndarray    # index (into the round arrays) of the pool's first prize

    @property
    def count(self) -> int:
        return len(self.unit)

    @property
    def finished(self) -> np.ndarray:
        return self.n_rounds == self.cards


def _firsts(groups: np.ndarray) -> np.ndarray:
    """Mask of the first element of each run of equal values in ``groups``."""
    mask = np.ones(len(groups), bool)
    mask[1:] = groups[1:] != groups[:-1]
    return mask


def _lasts(groups: np.ndarray) -> np.ndarray:
    mask = np.ones(len(groups), bool)
    mask[:-1] = groups[1:] != groups[:-1]
    return mask


def _or_by(groups: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Bitwise OR of ``values`` per group (``groups`` sorted), as an array of ``size``."""
    out = np.zeros(size, np.uint64)
    if len(groups):
        first = np.flatnonzero(_firsts(groups))
        out[groups[first]] = np.bitwise_or.reduceat(values.astype(np.uint64), first)
    return out


def replay(lines: Lines, units: Units, book: LineBook, first_line: int) -> Replayed:
    """Check every segment of ``units`` and replay the ones that pass."""
    a = book.arrays
    n_units = units.count
    size = n_units + 1  # the last slot collects lines outside any unit
    unit_of = units.of_lines(lines.count)
    candidate = np.append(~units.exact, False)
    line_ok = candidate[unit_of]
    kind = np.where(line_ok, lines.kind, -1)
    rows = lines.rows
    ok = candidate.copy()

    # -- tags ----------------------------------------------------------------------
    t_idx = np.flatnonzero(kind == TAG)
    t_unit = unit_of[t_idx]
    t_rows = rows[t_idx]
    t_name = a["name"][t_rows]
    n_tags = np.bincount(t_unit, minlength=size)
    present = np.flatnonzero(np.bincount(t_name, minlength=len(book.names)))
    by_text = sorted(present.tolist(), key=lambda i: book.names[i])
    rank_of = np.full(len(book.names) + 1, _MAX_NAMES, np.int64)
    rank_of[by_text[:_MAX_NAMES]] = np.arange(min(len(by_text), _MAX_NAMES))
    t_rank = rank_of[t_name]
    ok &= np.bincount(t_unit[t_rank >= _MAX_NAMES], minlength=size) == 0
    t_bit = np.left_shift(np.uint64(1), np.minimum(t_rank, _MAX_NAMES - 1).astype(np.uint64))
    name_mask = _or_by(t_unit, t_bit, size)
    ok &= np.bitwise_count(name_mask).astype(np.int64) == n_tags  # no tag twice
    ok &= np.bincount(t_unit[~a["tag_ok"][t_rows]], minlength=size) == 0

    # the rule and player tags: the row of each per unit (0 when absent)
    wanted = ("A", "B", "C", "D", "Cards", "TieRule", "PrizeOrder", "Result")
    column_of = np.full(len(book.names) + 1, -1, np.int64)
    for k, name in enumerate(wanted):
        if name in book.name_id:
            column_of[book.name_id[name]] = k
    t_col = column_of[t_name]
    sel = np.flatnonzero(t_col >= 0)
    tag_row = np.zeros((size, len(wanted)), np.int64)
    tag_row[t_unit[sel], t_col[sel]] = t_rows[sel]
    seat_rows = tag_row[:, :4]
    seat_bits = (seat_rows > 0) @ np.array([1, 2, 4, 8])
    players = np.maximum(2, _TOP_SEAT[seat_bits])
    cards = np.where(tag_row[:, 4] > 0, a["tag_num"][tag_row[:, 4]], 13).astype(np.int64)
    tie_rule = np.where(tag_row[:, 5] > 0, a["tag_num"][tag_row[:, 5]], 0).astype(np.int64)
    prize_order = np.where(tag_row[:, 6] > 0, a["tag_num"][tag_row[:, 6]], 0).astype(np.int64)
    tag_res_row = tag_row[:, 7]

    # -- layout: tags, then rounds; comment lines only before the rounds -------------
    r_idx = np.flatnonzero(kind == ROUND)
    r_unit = unit_of[r_idx]
    n_rounds = np.bincount(r_unit, minlength=size)
    first_round = np.full(size, np.iinfo(np.int64).max)
    first_round[r_unit[_firsts(r_unit)]] = r_idx[_firsts(r_unit)]
    last_tag = np.full(size, -1)
    last_tag[t_unit[_lasts(t_unit)]] = t_idx[_lasts(t_unit)]
    ok &= last_tag < first_round
    c_idx = np.flatnonzero(kind == COMMENT)
    ok &= np.bincount(unit_of[c_idx][c_idx > first_round[unit_of[c_idx]]], minlength=size) == 0
    ok &= n_rounds <= cards

    # -- rounds ----------------------------------------------------------------------
    r_rows = rows[r_idx]
    r_first = np.flatnonzero(_firsts(r_unit))
    r_no = np.arange(len(r_idx)) - np.repeat(r_first, np.diff(np.append(r_first, len(r_idx)))) + 1
    r_cards = cards[r_unit]
    prize = a["prize"][r_rows].astype(np.int64)
    bad = a["number"][r_rows] != r_no
    bad |= a["ncards"][r_rows] != 1 + players[r_unit]
    bad |= ~a["suit_ok"][r_rows]
    bad |= a["max_rank"][r_rows] > r_cards
    order = prize_order[r_unit]
    bad |= (order == 1) & (prize != r_no)
    bad |= (order == 2) & (prize != r_cards + 1 - r_no)
    ok &= np.bincount(r_unit[bad], minlength=size) == 0
    # no prize and no seat's bid twice: the used ranks of each, as bit masks, per game
    used = _or_by(r_unit, a["bits"][r_rows], size)
    for field in range(4):  # the prize, then seats A, B, C
        count = np.bitwise_count((used >> np.uint64(14 * field)) & np.uint64(0x3FFF))
        ok &= (count == n_rounds) | (players < field)
    if (players == 4).any():
        used = np.bitwise_count(_or_by(r_unit, a["bbit3"][r_rows], size))
        ok &= (used == n_rounds) | (players < 4)

    # -- replay: who takes each pool -------------------------------------------------
    winner = a["winner"][r_rows].astype(np.int64)
    tie = winner < 0
    discard = tie_rule[r_unit] == 1
    new_pool = _firsts(r_unit) | discard
    new_pool[1:] |= ~tie[:-1]
    pool_id = np.cumsum(new_pool) - 1
    pool_start = np.flatnonzero(new_pool)[pool_id]
    total = np.cumsum(prize)
    carried_in = total - prize - (total[pool_start] - prize[pool_start])
    pool_value = carried_in + prize
    won = ~tie
    scores = np.bincount(r_unit[won] * 4 + winner[won], weights=pool_value[won],
                         minlength=size * 4).astype(np.int64).reshape(size, 4)
    lost = tie & (discard | (r_no == r_cards))
    unclaimed = np.bincount(r_unit[lost], weights=pool_value[lost], minlength=size)
    unclaimed = unclaimed.astype(np.int64)

    # -- written results ---------------------------------------------------------------
    finished = n_rounds == cards
    term_row = np.zeros(size, np.int64)
    ends = units.start[1:] - 1
    seg = np.flatnonzero(candidate[:-1])
    term_row[seg] = np.where(lines.kind[ends[seg]] == TERM, rows[ends[seg]], 0)
    ok &= a["kind"][term_row] == TERM
    packed = scores @ (np.int64(1) << np.arange(0, 64, 16, dtype=np.int64))
    for res_row in (term_row, tag_res_row):
        length = np.where(res_row > 0, a["res_len"][res_row], 0)
        same = (length == players) & (a["res"][res_row] == packed)
        ok &= np.where(finished, (length == 0) | same, length == 0)

    # -- where each game starts ------------------------------------------------------
    s_idx = np.flatnonzero((kind == TAG) | (kind == ROUND) | (kind == TERM))
    s_unit = unit_of[s_idx]
    source_line = np.zeros(size, np.int64)
    source_line[s_unit[_firsts(s_unit)]] = s_idx[_firsts(s_unit)] + first_line

    # -- keep the accepted games ------------------------------------------------------
    ok[-1] = False
    games = np.flatnonzero(ok)
    game_of_unit = np.full(size, -1)
    game_of_unit[games] = np.arange(len(games))
    keep_r = ok[r_unit]
    keep_t = ok[t_unit]
    tag_game = game_of_unit[t_unit[keep_t]]
    tag_rows = t_rows[keep_t]
    key_rows, key_game = _key_tags(book, tag_rows, tag_game, t_rank[keep_t], len(games))
    return Replayed(
        unit=games, source_line=source_line[games], players=players[games],
        cards=cards[games], tie_rule=tie_rule[games], prize_order=prize_order[games],
        n_rounds=n_rounds[games], scores=scores[games], unclaimed=unclaimed[games],
        seat_rows=seat_rows[games], tag_rows=tag_rows, tag_game=tag_game,
        key_tag_rows=key_rows, key_tag_game=key_game,
        round_rows=r_rows[keep_r], round_game=game_of_unit[r_unit[keep_r]],
        round_no=r_no[keep_r], prize=prize[keep_r],
        winner=winner[keep_r], carried_in=carried_in[keep_r],
        pool_start=_reindex(pool_start, keep_r),
    )


def _reindex(pool_start: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Pool starts as indices among the kept rounds (a pool never spans two games)."""
    new_index = np.cumsum(keep) - 1
    return new_index[pool_start[keep]]


def _key_tags(book: LineBook, rows: np.ndarray, game: np.ndarray, rank: np.ndarray,
              n_games: int) -> tuple[np.ndarray, np.ndarray]:
    """The tags that make the game key (all but Result), sorted by name within each game.

    Ranks order names as text does; a tag's place among its game's tags is the number
    of the game's names ranked below it (popcount of a mask).
    """
    result = book.name_id.get("Result", -1)
    keep = book.arrays["name"][rows] != result
    rows, game, rank = rows[keep], game[keep], rank[keep].astype(np.uint64)
    bit = np.left_shift(np.uint64(1), rank)
    mask = _or_by(game, bit, n_games)
    below = mask[game] & (bit - np.uint64(1))
    offset = np.concatenate([[0], np.cumsum(np.bincount(game, minlength=n_games))])
    place = offset[game] + np.bitwise_count(below).astype(np.int64)
    sorted_rows = np.empty_like(rows)
    sorted_rows[place] = rows
    return sorted_rows, game
