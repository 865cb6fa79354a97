"""The compiled tokenizer (production) against the notation's regex (the oracle): the
same token arrays for every layout, generated records, the fuzz corpus and hostile bytes."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gops_records.games.gops.notation.layouts import write_games_in_layout
from gops_records.games.gops.notation.tokens import Tokens, reference_tokenize, tokenize
from gops_records.games.gops.replay.chunks import record_body

TESTS = Path(__file__).parents[3]


def _load(path: Path, name: str):
    """A test helper module by its path (the test folders are no packages)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_generated = _load(TESTS / "games/gops/replay/test_differential.py", "_differential_games")
ALL_LAYOUTS, games = _generated.ALL_LAYOUTS, _generated.games


def assert_same_tokens(data: bytes | memoryview) -> Tokens:
    got, want = tokenize(data), reference_tokenize(data)
    for name in ("kind", "start", "end", "word", "tag_index", "comment_index"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype, name
        np.testing.assert_array_equal(a, b, err_msg=name)
    assert got.words == want.words
    assert got.word_texts == want.word_texts
    for name in ("tag_name", "tag_value", "comment"):
        assert getattr(got, name).to_list() == getattr(want, name).to_list(), name
    lines, columns = got.places(got.start)
    ref_lines, ref_columns = want.places(want.start)
    np.testing.assert_array_equal(lines, ref_lines)
    np.testing.assert_array_equal(columns, ref_columns)
    return got


def _body(raw: bytes) -> bytes | memoryview:
    """What the reader tokenizes of a file's bytes (invalid UTF-8 read as replaced)."""
    try:
        return record_body(raw)
    except Exception:  # noqa: BLE001  (undecodable: the reader refuses the file whole)
        return raw.decode("utf-8", "replace").encode("utf-8")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=4), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_every_layout_gives_the_oracles_tokens(played, layout, seed):
    data = write_games_in_layout([record for _, _, record in played], layout, seed)
    assert len(assert_same_tokens(_body(data))) > 0


# characters that cut or join tokens, in every role the pattern gives them
_ALPHABET = list('[]{};."\\ \t\r\n\x0b\x0c+-()*:,)_0123456789AKQJTdcshDCSH♦♣♠♥♢xyz'
                 ) + ["\x85", "\xa0", "\u1680", "\u2000", "\u200a", "\u2028", "\u202f",
                      "\u205f", "\u3000", "\ufeff", "\u180e", "\x00", "\x1c", "é", "\U0001f600"]


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(_ALPHABET), max_size=80))
def test_any_text_of_notation_characters_gives_the_oracles_tokens(text):
    assert_same_tokens(text.encode("utf-8"))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_hostile_bytes_give_the_oracles_tokens(raw):
    assert_same_tokens(_body(raw))


def test_awkward_inputs_give_the_oracles_tokens():
    cases = [
        b"", b"   \n\t ", "\ufeff[Event \"x\"]\r\n1. K\u2666 9\u2663 9\u2660 *".encode(),
        b'[Event "a]b \\"c\\""] [Bad "x\\\n"] [ X  "y" ]x',
        b"{a\n b\n\n c} {x\n   } {x\n\n} { {} }} ;x\r\ny {never\r\nclosed",
        b"12.K\xe2\x99\xa6 007. 1.5 12a. " + b"9" * 5000 + b". " + b"9" * 5000,
        b"\x00\x00 1. \x00KD",
        "K\u00a0D 8\u2003C \u3000 x\u180ey".encode(),
        b"[" * 300 + b"{" * 300 + b";" * 3,
        b'[Event "' + b"v" * 100_000 + b'"] 1. 2D 3C 4S 2-0',
        b"9c+4c 9+4 (8d K\xe2\x99\xa6) () (5d) - 3) 11c 1Os",
    ]
    for data in cases:
        assert_same_tokens(_body(data))


def test_the_fuzz_corpus_and_fuzzed_cases_give_the_oracles_tokens():
    fuzz = _load(TESTS / "faults/fuzz.py", "_fuzz_cases")
    if not any(fuzz.SAMPLES.glob("*.gops")):  # the samples' folder, wherever it now is
        fuzz.SAMPLES = TESTS.parent / "gops_records" / "samples"
    made = [(p.name, p.read_bytes()) for p in fuzz.corpus_files()]
    made += fuzz.cases(300, seed=2026)
    for name, raw in made:
        if len(raw) > 20 << 20:  # a mutation may make a huge file: the cap is the reader's
            continue
        try:
            assert_same_tokens(_body(raw))
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from e


def test_a_file_of_many_games_in_mixed_layouts_gives_the_oracles_tokens():
    from gops_records.games.gops.notation import GameRecord
    from gops_records.games.gops.rules import RuleProfile
    from gops_records.games.gops.simulate import simulate

    records = [r for r in simulate(200, 5, RuleProfile()) if isinstance(r, GameRecord)]
    rng = random.Random(7)
    data = b"\n".join(write_games_in_layout([record], rng.choice(ALL_LAYOUTS), rng.randrange(99))
                      .removeprefix(b"\xef\xbb\xbf") for record in records)
    assert len(assert_same_tokens(data)) > 200 * 13 * 3
