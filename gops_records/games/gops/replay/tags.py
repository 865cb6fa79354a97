"""What each game's tags say: its rules, its players, its written result, and the tag
problems (unreadable values, a tag given twice), for all games of a chunk at once.

Values are read once per distinct value (a file uses few): a rule tag with an
unreadable value is reported and the game is replayed with the default rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import polars as pl

from gops_records.core.text import capped
from gops_records.core.values import MAX_TAG_CHARS, date_problem, length_problem
from gops_records.games.gops.matches import best_of_problem
from gops_records.games.gops.notation.model import KNOWN_TAGS
from gops_records.games.gops.rules import (
    MAX_BID_CARDS,
    MAX_PLAYERS,
    OPEN_TAKES,
    PRIZE_ORDERS,
    TIE_RULES,
    OpenTakes,
)

_CANONICAL = {name.lower(): name for name in KNOWN_TAGS}
_RESULT = re.compile(r"[0-9]+(?:-[0-9]+)+")


def parse_result(text: str) -> tuple[int, ...] | None:
    """Points written as ``45-46`` (each capped), or None for ``*``; raises ValueError."""
    value = text.strip()
    if value == "*":
        return None
    if not _RESULT.fullmatch(value):
        raise ValueError(value)
    return tuple(capped(p) for p in value.split("-"))


@dataclass(frozen=True, slots=True)
class TagValue:
    """What one (tag, value) pair means: a rule code, a result, or a problem."""

    code: int = -1
    result: tuple[int, ...] | None = None
    problem: str | None = None


def read_value(name: str, value: str) -> TagValue:
    """The meaning of a known tag's value (only rule, Date and Result tags are read)."""
    text = value.strip()
    if name == "TieRule":
        low = text.lower()
        if low in TIE_RULES:
            return TagValue(TIE_RULES.index(low))
        return TagValue(problem=f"TieRule {value!r} is not carry or discard")
    if name == "PrizeOrder":
        low = text.lower()
        if low in PRIZE_ORDERS:
            return TagValue(PRIZE_ORDERS.index(low))
        return TagValue(problem=f"PrizeOrder {value!r} is not shuffled, ascending or "
                        "descending")
    if name == "Cards":
        if text.isascii() and text.isdigit() and 1 <= capped(text) <= 13:
            return TagValue(capped(text))
        return TagValue(problem=f"Cards {_short(value)!r} is not a number of cards from "
                        "1 to 13")
    if name == "BidCards":
        if text.isascii() and text.isdigit() and 1 <= capped(text) <= MAX_BID_CARDS:
            return TagValue(capped(text))
        return TagValue(problem=f"BidCards {_short(value)!r} is not a number of cards a bid "
                        f"from 1 to {MAX_BID_CARDS}")
    if name == "OpenPrizes":
        if text.isascii() and text.isdigit() and 2 <= capped(text) <= 13:
            return TagValue(capped(text))
        return TagValue(problem=f"OpenPrizes {_short(value)!r} is not a number of open "
                        "prizes from 2 to 13")
    if name == "OpenTakes":
        low = text.lower()
        if low == OpenTakes.WINNER:
            return TagValue(0)
        if low == OpenTakes.EACH:
            return TagValue(1)
        return TagValue(problem=f"OpenTakes {_short(value)!r} is not "
                        f"{' or '.join(OPEN_TAKES)}")
    if name == "BestOf":
        found = best_of_problem(value)
        return TagValue(problem=found) if found else TagValue(int(text))
    if name == "Date":
        return TagValue(problem=date_problem(value))
    if name == "Result":
        try:
            return TagValue(result=parse_result(text))
        except ValueError:
            return TagValue(problem=f"Result {_short(value)!r} is not points like 44-24, or *")
    return TagValue()


def _short(value: str) -> str:
    return value if len(value) <= 40 else value[:37] + "..."


_READ = ("TieRule", "PrizeOrder", "Cards", "BidCards", "OpenPrizes", "OpenTakes", "BestOf",
         "Date", "Result")


@dataclass
class Tags:
    """Per game (G): cards N, tie rule and prize order codes, cards a bid (0 when the
    BidCards tag is unreadable: bids are then not counted), the open prizes' row size (0
    for a game without open prizes, -1 when the OpenPrizes tag is unreadable: the game is
    read as one with open prizes, its top-ups not counted), whether the rules were
    readable, the Result tag's points (``result``, (G, 5) with ``result_len``, -1 when
    absent or ``*``) and its token. ``frame``: every tag (token, game, name, value) in
    file order, names in canonical case. ``problems``: (token, message) of every tag
    problem, and whether it makes the rules unreadable."""

    cards: np.ndarray
    tie_rule: np.ndarray
    prize_order: np.ndarray
    rules_ok: np.ndarray
    result: np.ndarray
    result_len: np.ndarray
    result_token: np.ndarray
    frame: pl.DataFrame
    problems: list[tuple[int, str, bool]]
    bid_cards: np.ndarray
    open_prizes: np.ndarray
    #: per game: 1 + the index in RULE_TAGS of the first rule tag that cannot be used (0)
    bad_rule: np.ndarray
    #: per game: N of its BestOf tag, 0 when absent or unreadable (not a rule: a match's)
    best_of: np.ndarray | None = None
    #: per game: 1 where every bidder takes from the open row (``[OpenTakes "each"]``)
    open_takes: np.ndarray | None = None

    @property
    def each_takes(self) -> np.ndarray:
        """Per game: read with every bidder taking a prize (open prizes, OpenTakes each)."""
        if self.open_takes is None:
            return np.zeros(len(self.cards), bool)
        return (self.open_takes == 1) & (self.open_prizes != 0)

    @property
    def rounds(self) -> np.ndarray:
        """Rounds of each whole game: N, or floor(N / k) with bids of k cards."""
        return self.cards // np.maximum(self.bid_cards, 1)


@dataclass
class TagNames:
    """The tag names of a chunk: each tag's code, and the canonical name of each code
    (known names are case-insensitive, others are kept as written)."""

    codes: np.ndarray
    names: list[str]

    @classmethod
    def of(cls, raw: pl.Series) -> TagNames:
        """Codes for ``raw`` names, worked out once per distinct spelling."""
        spellings = raw.unique(maintain_order=True).to_list()
        names: list[str] = []
        index: dict[str, int] = {}
        code_of = {}
        for spelling in spellings:
            name = _CANONICAL.get(spelling.lower(), spelling)
            code_of[spelling] = index.setdefault(name, len(index))
            if len(names) < len(index):
                names.append(name)
        codes = raw.replace_strict(code_of, return_dtype=pl.Int64).to_numpy() if len(raw) \
            else np.zeros(0, np.int64)
        return cls(codes, names)

    def series(self) -> pl.Series:
        """The canonical name of every tag."""
        return pl.Series(self.names, dtype=pl.String).gather(self.codes)

    def code(self, name: str) -> int:
        return self.names.index(name) if name in self.names else -1


def read_tags(tag_token: np.ndarray, tag_game: np.ndarray, names: TagNames,
              values: pl.Series, n_games: int) -> Tags:
    """The tags of ``n_games`` games: tokens (in file order), their games, their names
    and values."""
    frame = pl.DataFrame({"token": tag_token, "game": tag_game, "name": names.series(),
                          "value": values},
                         schema={"token": pl.Int64, "game": pl.Int64, "name": pl.String,
                                 "value": pl.String})
    problems: list[tuple[int, str, bool]] = []
    # a name given twice in a game: every use after the first; the last one counts
    key = tag_game * max(len(names.names), 1) + names.codes
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    first = np.ones(len(key), bool)
    first[order[1:]] = sorted_key[1:] != sorted_key[:-1]
    final = np.ones(len(key), bool)
    final[order[:-1]] = sorted_key[1:] != sorted_key[:-1]
    for i in np.flatnonzero(~first):
        problems.append((int(tag_token[i]), f"tag {names.names[names.codes[i]]} is given twice",
                         False))
    for i in np.flatnonzero((values.str.len_chars() > MAX_TAG_CHARS).to_numpy()):
        name = names.names[names.codes[i]]
        problems.append((int(tag_token[i]), length_problem(name, values[int(i)]), False))
    wanted = np.isin(names.codes, [names.code(name) for name in _READ])
    last = frame.filter(pl.Series(final & wanted))
    pairs = last.select("name", "value").unique()
    read = [read_value(name, value) for name, value in pairs.iter_rows()]
    width = MAX_PLAYERS + 1
    points = [(m.result + (-1,) * width)[:width] if m.result else (-1,) * width for m in read]
    meaning = pairs.with_columns(
        pl.Series("code", [m.code for m in read], dtype=pl.Int64),
        pl.Series("problem", [m.problem for m in read], dtype=pl.String),
        pl.Series("points", [len(m.result) if m.result else -1 for m in read],
                  dtype=pl.Int64),
        *(pl.Series(f"r{i}", [p[i] for p in points], dtype=pl.Int64) for i in range(width)),
    )
    joined = last.join(meaning, on=["name", "value"], how="left", maintain_order="left")
    cards = np.full(n_games, 13, np.int64)
    tie_rule = np.zeros(n_games, np.int64)
    prize_order = np.zeros(n_games, np.int64)
    rules_ok = np.ones(n_games, bool)
    result = np.full((n_games, width), -1, np.int64)
    result_len = np.full(n_games, -1, np.int64)
    result_token = np.full(n_games, -1, np.int64)
    for token, name, message in joined.filter(pl.col("problem").is_not_null()).select(
            "token", "name", "problem").iter_rows():
        problems.append((token, message, name in _RULES))
    ok = joined.filter(pl.col("problem").is_null())
    bid_cards = np.ones(n_games, np.int64)
    open_prizes = np.zeros(n_games, np.int64)
    bad_rule = np.zeros(n_games, np.int64)
    for name, target, unreadable in (("Cards", cards, 13), ("TieRule", tie_rule, 0),
                                     ("PrizeOrder", prize_order, 0),
                                     ("BidCards", bid_cards, 0),
                                     ("OpenPrizes", open_prizes, -1)):
        part = ok.filter(pl.col("name") == name)
        target[part["game"].to_numpy()] = part["code"].to_numpy()
        bad = joined.filter((pl.col("name") == name) & pl.col("problem").is_not_null())
        rules_ok[bad["game"].to_numpy()] = False
        target[bad["game"].to_numpy()] = unreadable
        first_bad = bad["game"].to_numpy()
        bad_rule[first_bad] = np.where(bad_rule[first_bad] == 0, RULE_TAGS.index(name) + 1,
                                       bad_rule[first_bad])
    _variant_problems(joined, cards, bid_cards, open_prizes, rules_ok, problems, bad_rule)
    bad = joined.filter((pl.col("name") == "OpenTakes") & pl.col("problem").is_not_null())
    rules_ok[bad["game"].to_numpy()] = False
    for g in bad["game"].to_list():
        bad_rule[g] = bad_rule[g] or RULE_TAGS.index("OpenTakes") + 1
    for token, g in joined.filter((pl.col("name") == "OpenTakes") & pl.col("problem").is_null()
                                  ).select("token", "game").iter_rows():
        if open_prizes[g] == 0:
            problems.append((token, "OpenTakes says who takes from an open row: it needs an "
                             "OpenPrizes tag", True))
            rules_ok[g] = False
            bad_rule[g] = bad_rule[g] or RULE_TAGS.index("OpenTakes") + 1
    open_takes = np.zeros(n_games, np.int64)
    part = ok.filter(pl.col("name") == "OpenTakes")
    open_takes[part["game"].to_numpy()] = part["code"].to_numpy()
    best_of = _best_of(frame, joined, problems, n_games)
    res = joined.filter(pl.col("name") == "Result")
    games = res["game"].to_numpy()
    result_token[games] = res["token"].to_numpy()
    result_len[games] = res["points"].to_numpy()
    result[games] = res.select(f"r{i}" for i in range(width)).to_numpy()
    return Tags(cards, tie_rule, prize_order, rules_ok, result, result_len, result_token,
                frame, problems, bid_cards, open_prizes, bad_rule, best_of, open_takes)


def _best_of(frame: pl.DataFrame, joined: pl.DataFrame, problems: list[tuple[int, str, bool]],
             n_games: int) -> np.ndarray:
    """Each game's BestOf (0: none or unreadable); a BestOf without a Match tag is a
    problem (the games of a match are found by their Match tag). Neither touches the
    rules."""
    best_of = np.zeros(n_games, np.int64)
    part = joined.filter((pl.col("name") == "BestOf") & pl.col("problem").is_null())
    if not len(part):
        return best_of
    with_match = set(frame.filter(pl.col("name") == "Match")["game"].to_list())
    for token, game, code in part.select("token", "game", "code").iter_rows():
        if game in with_match:
            best_of[game] = code
        else:
            problems.append((token, "BestOf needs a Match tag: the games of a match are the "
                             "games of one event and date with the same Match tag", False))
    return best_of


def _variant_problems(joined: pl.DataFrame, cards: np.ndarray, bid_cards: np.ndarray,
                      open_prizes: np.ndarray, rules_ok: np.ndarray,
                      problems: list[tuple[int, str, bool]], bad_rule: np.ndarray) -> None:
    """The variant tags against the deck and each other: a bid of more cards than the
    deck has, a row longer than the pile, and the two variants together (they do not
    combine). Each makes the rules unreadable; the game is then read with the bids not
    counted (BidCards) or the top-ups not counted (OpenPrizes)."""
    if not ((bid_cards > cards) | (open_prizes > cards) | ((bid_cards > 1) & (open_prizes != 0))
            ).any():
        return
    tokens = {name: np.full(len(cards), -1, np.int64) for name in ("BidCards", "OpenPrizes")}
    values: dict[str, dict[int, str]] = {"BidCards": {}, "OpenPrizes": {}}
    for name in tokens:
        part = joined.filter(pl.col("name") == name)
        tokens[name][part["game"].to_numpy()] = part["token"].to_numpy()
        values[name] = dict(zip(part["game"].to_list(), part["value"].to_list(), strict=True))
    for g in np.flatnonzero(bid_cards > cards).tolist():
        problems.append((int(tokens["BidCards"][g]), f"BidCards {_short(values['BidCards'][g])!r}"
                         f" is more cards than a {cards[g]}-card hand holds", True))
        rules_ok[g], bid_cards[g] = False, 0
        bad_rule[g] = bad_rule[g] or RULE_TAGS.index("BidCards") + 1
    for g in np.flatnonzero(open_prizes > cards).tolist():
        problems.append((int(tokens["OpenPrizes"][g]),
                         f"OpenPrizes {_short(values['OpenPrizes'][g])!r} is more prizes than "
                         f"the {cards[g]} of the pile", True))
        rules_ok[g], open_prizes[g] = False, -1
        bad_rule[g] = bad_rule[g] or RULE_TAGS.index("OpenPrizes") + 1
    for g in np.flatnonzero((bid_cards > 1) & (open_prizes != 0)).tolist():
        problems.append((int(tokens["BidCards"][g]),
                         f"BidCards {_short(values['BidCards'][g])!r} does not combine with "
                         "OpenPrizes: a game has bids of several cards or open prizes, not both",
                         True))
        rules_ok[g], bid_cards[g] = False, 0
        bad_rule[g] = bad_rule[g] or RULE_TAGS.index("BidCards") + 1


#: The tags that set a game's rules.
RULE_TAGS = ("Cards", "TieRule", "PrizeOrder", "BidCards", "OpenPrizes", "OpenTakes")
_RULES = RULE_TAGS
