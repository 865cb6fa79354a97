"""What each distinct line of a record file says, worked out once per distinct line.

A large file repeats few distinct lines (a million simulated games hold about 40,000:
round lines like ``7. 10♦ Q♣ 10♠``, tag lines, results), so every distinct line is read
once, in Python, and its meaning is kept as numbers in arrays indexed by a *row*
(kind, round number, ranks, winner, bit masks, tag name, ...). The vectorised fast path
then only gathers from these arrays. :meth:`LineBook.rows` maps a polars Series of
lines to rows by hash and compares every line with its row's text, so a hash collision
can never change a value (the colliding line becomes ``COMPLEX``: exact path).

Only line shapes whose meaning does not depend on context get a kind other than
``COMPLEX``: a blank line, one tag, one comment, one terminator, or a numbered round
with its cards (and trailing comments). Anything else, including a ``{`` comment left
open at the end of the line, is ``COMPLEX``. Tokens are read with the regexes of the
notation's lexer, restricted to ASCII digits and to comments closed on their line, so
a line given a kind here reads the same way in the exact parser.
"""

from __future__ import annotations

import re
import threading

import numpy as np
import polars as pl

from gops_records.cards import RANK_BY_TEXT, SUIT_BY_TEXT, Seat, Suit
from gops_records.notation.model import GameRecord, canonical_tag
from gops_records.notation.parser import unescape
from gops_records.rules import PrizeOrder, TieRule, resolve
from gops_records.validate import profile_of

BLANK, TAG, ROUND, TERM, COMMENT, COMPLEX = range(6)

#: Most cards one line may hold and still be read here (1 prize + 4 bids).
MAX_CARDS = 5
#: Cap for numbers kept in the int arrays (a larger one can only fail a check).
_CAP = 1_000_000

_BOUNDARY = r"(?=[\s{};\[]|\Z)"
_RANK = r"(10|[2-9AaTtJjQqKk])"
_SUIT = r"([DCSHdcsh♦♣♠♥♢♧♤♡]?)"
_TOKEN = re.compile(
    r"""
      (?P<ws>(?:[^\S\n]|\ufeff)+)
    | (?P<tag>\[[ \t]*(?P<tname>[A-Za-z][A-Za-z0-9_]*)[ \t]+
              "(?P<tval>(?:[^"\\\r\n]|\\[^\r\n])*)"[ \t]*\])
    | (?P<brace>\{(?P<btext>[^}\n]*)\})
    | (?P<semi>;(?P<stext>[^\n]*))
    | (?P<num>[0-9]+)\.
    | (?P<result>[0-9]+(?:-[0-9]+)+)""" + _BOUNDARY + r"""
    | (?P<star>\*)""" + _BOUNDARY + r"""
    | (?P<card>(?P<rank>10|[2-9AaTtJjQqKk])(?P<suit>[DCSHdcsh♦♣♠♥♢♧♤♡])?)""" + _BOUNDARY + r"""
    | (?P<nl>\n)
    | (?P<other>.)
    """,
    re.VERBOSE,
)
# the common shapes, read in one match (each card ends at a space or the line's end)
_PLAIN_ROUND = re.compile(r"([0-9]+)\.[ \t]*" + _RANK + _SUIT
                          + "".join(rf"(?:[ \t]+{_RANK}{_SUIT})" + ("" if i == 0 else "?")
                                    for i in range(MAX_CARDS - 1)) + r"[ \t\r]*\n?")
_PLAIN_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\r\n]*)"\][ \t\r]*\n?')
_PLAIN_TERM = re.compile(r"(?:([0-9]+(?:-[0-9]+)+)|\*)[ \t\r]*\n?")

_TIE_CODE = {TieRule.CARRY: 0, TieRule.DISCARD: 1}
_ORDER_CODE = {PrizeOrder.SHUFFLED: 0, PrizeOrder.ASCENDING: 1, PrizeOrder.DESCENDING: 2}
TIE_RULES = ("carry", "discard")
PRIZE_ORDERS = ("shuffled", "ascending", "descending")

#: Numeric features: name -> (dtype, default). ``bid0``..``bid3`` are 0 past the last
#: bid; ``pbit`` and ``bbit0``.. are 1 << rank of the prize and of each bid, and ``bits``
#: packs the prize's and the first three bids' in 14-bit fields. ``res`` packs the first
#: four points of a written result in 16-bit fields (capped: more can never match).
_NUMERIC: dict[str, tuple[type, int]] = {
    "kind": (np.int8, COMPLEX), "name": (np.int32, -1), "tag_ok": (np.bool_, False),
    "tag_num": (np.int8, -1), "number": (np.int32, -1), "ncards": (np.int8, 0),
    "prize": (np.int8, 0), "bid0": (np.int8, 0), "bid1": (np.int8, 0), "bid2": (np.int8, 0),
    "bid3": (np.int8, 0), "max_rank": (np.int8, 0), "winner": (np.int8, -1),
    "suit_ok": (np.bool_, False), "pbit": (np.int32, 0), "bbit0": (np.int32, 0),
    "bbit1": (np.int32, 0), "bbit2": (np.int32, 0), "bbit3": (np.int32, 0),
    "res_len": (np.int32, -1), "res": (np.int64, 0), "bits": (np.int64, 0),
}
#: String features: the line itself, a tag's canonical name and value, the line's part
#: of the game key (``name=value``, or ranks joined by commas), a round's comment.
_STRINGS = ("text", "tag_key", "tag_value", "frag", "comment")
_DEFAULTS = {name: default for name, (_, default) in _NUMERIC.items()}
_DEFAULTS.update(tag_key=None, tag_value=None, frag=None, comment=None)


class LineBook:
    """The meaning of every distinct line seen so far, as arrays indexed by row.

    Row 0 is a sentinel ``COMPLEX`` line with null strings. Tag names get small ids
    (``names``, ``name_id``). Rows are only ever added: an array or string column is
    replaced whole by a longer one.
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self.name_id: dict[str, int] = {}
        self.arrays: dict[str, np.ndarray] = {
            name: np.array([default], dtype) for name, (dtype, default) in _NUMERIC.items()}
        self.strings: dict[str, pl.Series] = {
            name: pl.Series(name, [None], dtype=pl.String) for name in _STRINGS}
        self._index = HashIndex()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.arrays["kind"])

    def rows(self, lines: pl.Series) -> np.ndarray:
        """The row of each line (int32): looked up by hash, read when new, verified.

        Threads may call this at once: new lines are read under a lock, and the arrays
        and strings of a row are in place before its hash can be found.
        """
        hashes = lines.hash().to_numpy()
        rows = self._index.find(hashes)
        missing = np.flatnonzero(rows < 0)
        if len(missing):
            with self._lock:
                rows[missing] = self._index.find(hashes[missing])
                still = missing[rows[missing] < 0]
                if len(still):
                    new_hashes, first = np.unique(hashes[still], return_index=True)
                    self._add(new_hashes, lines.gather(still[first]).to_list())
                    rows[still] = self._index.find(hashes[still])
        same = (lines == self.strings["text"].gather(rows)).to_numpy()
        if not same.all():  # a hash collision: that line is read by the exact path
            rows = np.where(same, rows, 0).astype(np.int32)
        return rows

    def _add(self, hashes: np.ndarray, lines: list[str]) -> None:
        first = len(self)
        # every dict gets the same keys in the same order: its values are one row
        columns = dict(zip(_DEFAULTS, zip(*[{**_DEFAULTS, **self._read(line)}.values()
                                             for line in lines], strict=True), strict=True))
        for name, (dtype, _) in _NUMERIC.items():
            column = np.array(columns[name], dtype)
            self.arrays[name] = np.concatenate([self.arrays[name], column])
        for name in _STRINGS:
            values = lines if name == "text" else columns[name]
            column = pl.Series(name, values, dtype=pl.String)
            self.strings[name] = pl.concat([self.strings[name], column], rechunk=True)
        self._index.add(hashes, np.arange(first, len(self), dtype=np.int32))

    # -- reading one line ----------------------------------------------------------

    def _read(self, line: str) -> dict:
        m = _PLAIN_ROUND.fullmatch(line)
        if m:
            groups = m.groups()
            return _round(groups[0], [g for g in groups[1::2] if g is not None],
                          [g for g in groups[2::2] if g is not None], [])
        m = _PLAIN_TAG.fullmatch(line)
        if m:
            return self._tag(m.group(1), m.group(2))
        m = _PLAIN_TERM.fullmatch(line)
        if m:
            return _term(m.group(1))
        return self._read_tokens(line)

    def _read_tokens(self, line: str) -> dict:
        tokens = []
        for m in _TOKEN.finditer(line):
            kind = m.lastgroup
            if kind == "other":
                return {}
            if kind not in ("ws", "nl"):
                tokens.append(m)
        kinds = [m.lastgroup for m in tokens]
        if not kinds:
            return {"kind": BLANK}
        if kinds == ["tag"]:
            return self._tag(tokens[0].group("tname"), unescape(tokens[0].group("tval")))
        if kinds in (["brace"], ["semi"]):
            return {"kind": COMMENT}
        if kinds in (["result"], ["star"]):
            return _term(tokens[0].group("result"))
        if kinds[0] != "num":
            return {}
        ncards = 0
        while 1 + ncards < len(kinds) and kinds[1 + ncards] == "card":
            ncards += 1
        if any(k not in ("brace", "semi") for k in kinds[1 + ncards:]):
            return {}
        cards = tokens[1:1 + ncards]
        comments = [m.group("btext") if m.lastgroup == "brace" else m.group("stext")
                    for m in tokens[1 + ncards:]]
        return _round(tokens[0].group("num"), [m.group("rank") for m in cards],
                      [m.group("suit") or "" for m in cards], comments)

    def _tag(self, raw_name: str, value: str) -> dict:
        name = canonical_tag(raw_name)
        if name not in self.name_id:
            self.name_id[name] = len(self.names)
            self.names.append(name)
        # the validator's own reading of this tag on its own: ok, and the rule it sets
        profile, problems = profile_of(GameRecord({name: value}, ()))
        features = {"kind": TAG, "name": self.name_id[name], "tag_ok": not problems,
                    "tag_key": name, "tag_value": value, "frag": f"{name}={value}"}
        if name == "Cards":
            features["tag_num"] = profile.cards
        elif name == "TieRule":
            features["tag_num"] = _TIE_CODE[profile.tie_rule]
        elif name == "PrizeOrder":
            features["tag_num"] = _ORDER_CODE[profile.prize_order]
        elif name == "Result" and not problems:
            text = value.strip()
            features.update(_result(() if text == "*" else
                                    tuple(int(x) for x in text.split("-"))))
        return features


class HashIndex:
    """Rows by 64-bit hash: an open-addressing table (linear probing) in numpy arrays,
    looked up for many hashes at once. Kept at most half full.

    :meth:`find` may run while another thread adds (under the book's lock): an entry
    being written reads as missing, and a grown table replaces the old one whole.
    """

    def __init__(self, size: int = 1 << 16) -> None:
        self.table = (np.zeros(size, np.uint64), np.full(size, -1, np.int32))
        self.count = 0

    def find(self, hashes: np.ndarray) -> np.ndarray:
        """The row of each hash, -1 where it is not in the table."""
        keys, values = self.table
        mask = np.uint64(len(keys) - 1)
        slots = (hashes & mask).view(np.int64)  # below 2**63: the same numbers
        rows = values[slots]
        todo = np.flatnonzero(keys[slots] != hashes)
        todo = todo[rows[todo] >= 0]  # an empty slot: not in the table (row -1)
        while len(todo):  # a taken slot holding another hash: probe the next one
            slots[todo] = (slots[todo] + 1) & int(mask)
            found = values[slots[todo]]
            rows[todo] = found
            todo = todo[(found >= 0) & (keys[slots[todo]] != hashes[todo])]
        return rows

    def add(self, hashes: np.ndarray, rows: np.ndarray) -> None:
        """Add distinct hashes that are not in the table yet (one thread at a time)."""
        keys, values = self.table
        if 2 * (self.count + len(hashes)) > len(keys):
            size = len(keys)
            while 2 * (self.count + len(hashes)) > size:
                size *= 2
            grown = HashIndex(size)
            taken = values >= 0
            grown.add(keys[taken], values[taken])
            keys, values = grown.table
            _fill(keys, values, hashes, rows)
            self.table = (keys, values)
        else:
            _fill(keys, values, hashes, rows)
        self.count += len(hashes)


def _fill(keys: np.ndarray, values: np.ndarray, hashes: np.ndarray, rows: np.ndarray) -> None:
    mask = len(keys) - 1
    for h, row in zip(hashes.tolist(), rows.tolist(), strict=True):
        slot = h & mask
        while values[slot] >= 0:
            slot = (slot + 1) & mask
        keys[slot] = h  # the key first: a reader meanwhile sees the slot as still empty
        values[slot] = row


def _term(result: str | None) -> dict:
    parts = () if result is None else tuple(int(x) for x in result.split("-"))
    return {"kind": TERM, **_result(parts)}


def _result(parts: tuple[int, ...]) -> dict:
    """A written result: its length (0 for ``*``) and its first four points, packed."""
    return {"res_len": min(len(parts), 127), "res": pack16(min(p, 0xFFFF) for p in parts[:4])}


def pack16(values) -> int:
    """Up to four numbers below 2**16 in one int (the first in the lowest bits)."""
    return sum(v << (16 * i) for i, v in enumerate(values))


def _round(number: str, ranks_text: list[str], suits_text: list[str],
           comments: list[str]) -> dict:
    """One round on its own line: ``N.``, the cards, then only comments."""
    if not ranks_text or len(ranks_text) > MAX_CARDS:
        return {}
    ranks = [RANK_BY_TEXT[r.lower()] for r in ranks_text]
    suits = [SUIT_BY_TEXT[s.lower()] if s else None for s in suits_text]
    suit_ok = suits[0] in (None, Suit.DIAMONDS)
    for seat, suit in enumerate(suits[1:4]):
        suit_ok &= suit is None or suit is Seat.at(seat).suit
    texts = [t.strip() for t in comments]
    bids = ranks[1:]
    features = {
        "kind": ROUND, "number": min(int(number), _CAP), "ncards": len(ranks),
        "prize": ranks[0], "max_rank": max(ranks), "suit_ok": suit_ok, "pbit": 1 << ranks[0],
        "winner": -1 if not bids else (-1 if (w := resolve(bids)) is None else w),
        "frag": ",".join(str(r) for r in ranks), "comment": " ".join(t for t in texts if t) or None,
    }
    for seat, bid in enumerate(bids[:4]):
        features[f"bid{seat}"] = bid
        features[f"bbit{seat}"] = 1 << bid
    features["bits"] = (features["pbit"] | features.get("bbit0", 0) << 14
                        | features.get("bbit1", 0) << 28 | features.get("bbit2", 0) << 42)
    return features
