"""Names as people type them: one key (case, accents, spacing), the resolver, and the
near-duplicate finder on awkward names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gops_records.core.names import (
    MIN_EDIT_LENGTH,
    UnknownName,
    matching,
    name_key,
    near_duplicates,
    resolve,
)

#: Stored names whose keys all differ: accents, a German ß, a ligature, Greek, spaces.
STORED = ["Marta", "Joost", "José María", "Zoë Müller", "Strauß", "Ǆemal", "Ωmega Κλαμπ",
          "Anne-Sophie d'Arc", "Thursday club", "Bruno Keller", "Åsa Öberg", "Ngô Bảo Châu"]


@st.composite
def typed_as_people_type(draw: st.DrawFn) -> tuple[str, str]:
    """A stored name and a spelling of it: any case per letter, accents kept or dropped per
    letter, any run of spaces between words and around them."""
    stored = draw(st.sampled_from(STORED))
    out = []
    for ch in stored:
        if ch == " ":
            out.append(draw(st.sampled_from([" ", "  ", "\t", " \u00a0"])))
            continue
        if draw(st.booleans()):
            ch = ch.upper() if draw(st.booleans()) else ch.lower()
        if draw(st.booleans()):  # drop the accents of this letter
            ch = "".join(c for c in unicodedata.normalize("NFD", ch)
                         if not unicodedata.combining(c))
        out.append(ch)
    pad = draw(st.sampled_from(["", " ", "  "]))
    return stored, pad + "".join(out) + draw(st.sampled_from(["", " ", "\n"]))


@given(typed_as_people_type())
def test_any_casing_accents_or_spacing_of_a_stored_name_resolves_to_it(pair) -> None:
    stored, typed = pair
    assert matching(typed, STORED) == [stored]
    assert resolve(typed, STORED) == [stored]


def test_the_key_folds_case_strips_accents_collapses_spaces() -> None:
    assert name_key("  José   MARÍA ") == "jose maria"
    assert name_key("STRASSE") == name_key("Straße")  # case folding, not lower()
    assert name_key("ﬁnn") == "finn"  # NFKD: the ligature is two letters
    assert name_key("Ø") != name_key("O")  # a stroke is no accent in Unicode: kept apart


def test_an_exact_spelling_comes_first_among_several() -> None:
    assert matching("Thursday club", ["Thursday Club", "Thursday club"]) == [
        "Thursday club", "Thursday Club"]
    assert matching("thursday CLUB", ["Thursday Club", "Thursday club"]) == [
        "Thursday Club", "Thursday club"]


def test_an_unknown_name_says_what_is_close_and_what_lists_them() -> None:
    with pytest.raises(UnknownName, match=r"no stored player 'Martha'; did you mean 'Marta'"):
        resolve("Martha", STORED, what="player")
    with pytest.raises(UnknownName, match=r"12 players are recorded \(gops players lists"):
        resolve("Qqqqqq", STORED, what="player")


def _pairs(counts: dict[str, int]) -> set[tuple[str, str, str]]:
    return {(p.name, p.other, p.reason) for p in near_duplicates(counts)}


def test_near_duplicates_by_case_accents_spacing_and_one_edit() -> None:
    counts = {"Thursday Club": 20, "Thursday club": 3, "José": 3, "Jose": 1,
              "Bob  Smith": 1, "Bob Smith": 2, "Bruno Keller": 9, "Bruno Kellr": 1,
              "Zoë Müller": 4, "ZOE MULLER": 1}
    assert _pairs(counts) == {
        ("Thursday Club", "Thursday club", "case"), ("José", "Jose", "accents"),
        ("Bob Smith", "Bob  Smith", "spacing"), ("Bruno Keller", "Bruno Kellr", "one edit"),
        ("Zoë Müller", "ZOE MULLER", "accents")}
    first = near_duplicates(counts)[0]  # the most games first, the played spelling kept
    assert (first.name, first.count, first.other_count) == ("Thursday Club", 20, 3)


@pytest.mark.parametrize("a, b", [
    ("Ann", "Anna"),        # short names one letter apart are usually two people
    ("Bob", "Rob"),
    ("Sam", "Pam"),
    ("Anna", "Hanna"),      # one key shorter than MIN_EDIT_LENGTH
    ("Bruno Keller", "Bruno Kelelr"),  # a swap is two edits
    ("Marta", "Marco"),     # two edits
])
def test_names_that_must_not_be_offered_as_one(a: str, b: str) -> None:
    assert _pairs({a: 5, b: 5}) == set()


def test_one_edit_needs_both_keys_long_enough() -> None:
    assert MIN_EDIT_LENGTH == 5
    assert _pairs({"Maria": 3, "Mario": 1}) == {("Maria", "Mario", "one edit")}
    assert _pairs({"Annas": 2, "Anna": 1}) == set()  # "anna" has 4 characters


@given(st.lists(st.text(alphabet="abcdéABC É", min_size=1, max_size=8), max_size=12,
                unique=True))
def test_every_pair_of_one_key_is_found_and_no_pair_twice(names: list[str]) -> None:
    counts = {n: i + 1 for i, n in enumerate(names)}
    found = near_duplicates(counts)
    keys = [tuple(sorted((p.name, p.other))) for p in found]
    assert len(keys) == len(set(keys))
    by_key: dict[str, list[str]] = {}
    for n in names:
        by_key.setdefault(name_key(n), []).append(n)
    same = sum(len(v) - 1 for v in by_key.values())
    assert sum(p.reason != "one edit" for p in found) == same
