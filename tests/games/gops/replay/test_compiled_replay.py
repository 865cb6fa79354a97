"""The compiled replay (production: replay.compiled) against the numpy passes (the oracle,
replay.reference_replay_tokens): the same structure, tags, replay arrays, problems and
verdicts for generated games of every rule profile and variant in every layout, spoiled
games, the fuzz corpus and hostile text."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import ALL_LAYOUTS, games
from test_variants_differential import variant_games

from gops_records.games.gops.notation import GameRecord, RoundRecord
from gops_records.games.gops.notation.layouts import write_games_in_layout
from gops_records.games.gops.notation.tokens import Tokens, tokenize
from gops_records.games.gops.replay import compiled, reference_replay_tokens, replay_tokens
from gops_records.games.gops.replay.chunks import record_body
from gops_records.games.gops.replay.frames import ChunkGames
from gops_records.games.gops.replay.records import record_tokens

TESTS = Path(__file__).parents[3]
_SKIP = {"tokens", "structure", "tags", "problems"}


def _fields(obj) -> dict:
    return {k: v for k, v in vars(obj).items() if k not in _SKIP}


def _equal(a, b, where: str) -> None:
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype, where
        np.testing.assert_array_equal(a, b, err_msg=where)
        assert a.shape == b.shape, where
    elif isinstance(a, pl.DataFrame):
        assert a.equals(b), where
    else:
        assert a == b, where


def assert_same_replay(data: bytes | memoryview | Tokens) -> bool:
    """Both readings of ``data`` (text, or tokens made of records) agree; returns whether
    the compiled play was taken for every game."""
    tokens = data if isinstance(data, Tokens) else tokenize(data)
    got, want = replay_tokens(tokens), reference_replay_tokens(tokens)
    for name, a, b in (("replay", got, want), ("structure", got.structure, want.structure),
                       ("tags", got.tags, want.tags)):
        fa, fb = _fields(a), _fields(b)
        assert fa.keys() == fb.keys()
        for key in fa:
            _equal(fa[key], fb[key], f"{name}.{key}")
    assert [(t, m, r) for t, m, r in got.tags.problems] == want.tags.problems
    games_all = np.arange(got.count)
    mine, theirs = ChunkGames(got, "x"), ChunkGames(want, "x")
    assert mine.problems(games_all) == theirs.problems(games_all)
    assert mine.verdicts().equals(theirs.verdicts())
    played = compiled.play(tokens, got.structure, got.tags)
    taken = played is not None and not played.bad.any()
    if played is not None:  # the valid games' rows come from the compiled pass
        for table in ("games", "game_players", "round_rows", "variant_round_rows"):
            assert mine[table].equals(theirs[table]), table
    return taken


def _body(raw: bytes) -> bytes | memoryview:
    try:
        return record_body(raw)
    except Exception:  # noqa: BLE001  (undecodable: the reader refuses the file whole)
        return raw.decode("utf-8", "replace").encode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=5), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_every_profile_and_layout_is_replayed_by_the_compiled_pass(played, layout, seed):
    data = write_games_in_layout([record for _, _, record in played], layout, seed)
    assert assert_same_replay(_body(data))  # valid games: the compiled play is taken


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(variant_games("bids"), min_size=1, max_size=4), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_bids_of_several_cards_are_replayed_by_the_compiled_pass(played, layout, seed):
    data = write_games_in_layout([p[-1] for p in played], layout, seed)
    assert assert_same_replay(_body(data))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=4),
       st.lists(variant_games("bids"), min_size=0, max_size=2))
def test_records_made_in_python_are_replayed_by_the_compiled_pass(played, bids):
    records = [record for _, _, record in played] + [p[-1] for p in bids]
    assert assert_same_replay(record_tokens(records))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(variant_games("open"), min_size=1, max_size=3), st.sampled_from(ALL_LAYOUTS),
       st.integers(0, 1000))
def test_open_prizes_read_the_same(played, layout, seed):
    data = write_games_in_layout([p[-1] for p in played], layout, seed)
    assert_same_replay(_body(data))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=1, max_size=4), st.data())
def test_spoiled_games_read_the_same(played, data):
    records = [record for _, _, record in played]
    g = data.draw(st.integers(0, len(records) - 1))
    records[g] = _spoiled(records[g], data)
    layout = data.draw(st.sampled_from(ALL_LAYOUTS))
    text = write_games_in_layout(records, layout, data.draw(st.integers(0, 99)))
    if data.draw(st.booleans()):  # a word cut out of the text
        words = text.split(b" ")
        del words[data.draw(st.integers(0, len(words) - 1))]
        text = b" ".join(words)
    assert_same_replay(_body(text))


def _spoiled(record: GameRecord, data) -> GameRecord:
    """``record`` with one thing wrong (or, by chance, none): a card, the result, a tag, a
    round dropped or two swapped."""
    how = data.draw(st.sampled_from(["card", "number", "result", "tag", "drop", "swap"]))
    rounds = list(record.rounds)
    tags = dict(record.tags)
    result = record.result
    if how == "card" and rounds:
        k = data.draw(st.integers(0, len(rounds) - 1))
        old = rounds[k]
        other = rounds[data.draw(st.integers(0, len(rounds) - 1))]
        rounds[k] = RoundRecord(other.prize, old.bids[::-1])
    elif how == "result":
        result = tuple(data.draw(st.integers(0, 99)) for _ in range(data.draw(st.integers(1, 4))))
    elif how == "tag":
        tags[data.draw(st.sampled_from(["Cards", "TieRule", "BidCards", "Date", "Event",
                                        "PrizeOrder", "Result", "BestOf", "OpenTakes"]))] = \
            data.draw(st.sampled_from(["3", "0", "carry", "x", "2026.13.01", "1-2", "*", "5"]))
    elif how == "drop" and rounds:
        del rounds[data.draw(st.integers(0, len(rounds) - 1))]
    elif how == "swap" and len(rounds) > 1:
        rounds[0], rounds[-1] = rounds[-1], rounds[0]
    return GameRecord(tags, tuple(rounds), result)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), min_size=6, max_size=14),
       st.lists(variant_games("bids"), min_size=0, max_size=3), st.data())
def test_a_window_of_good_games_with_scattered_bad_ones_reads_the_same(played, bids, data):
    """Only the spoiled games go through the diagnostic pass: the valid ones keep the
    compiled rows, and every field and problem still equals the oracle's."""
    records = [record for _, _, record in played] + [p[-1] for p in bids]
    spoiled = data.draw(st.sets(st.integers(0, len(records) - 1), min_size=1, max_size=3))
    for g in spoiled:
        records[g] = _spoiled(records[g], data)
    layout = data.draw(st.sampled_from(ALL_LAYOUTS))
    text = _body(write_games_in_layout(records, layout, data.draw(st.integers(0, 99))))
    assert_same_replay(text)
    tokens = tokenize(text)
    rep = replay_tokens(tokens)
    played_now = compiled.play(tokens, rep.structure, rep.tags)
    assert played_now is not None
    np.testing.assert_array_equal(played_now.bad, rep.n_problems > 0)


_ALPHABET = ['[A "x"]', '[Cards "3"]', '[TieRule "discard"]', '[BidCards "2"]', "1.", "2.",
             "3.", "AD", "2D", "3D", "AC", "2C", "3C", "AS", "2S", "3S", "1H", "9+2", "1-0",
             "0-3", "3-3", "2-1", "*", "{c}", ";x\n", "\n", " ", "x", "[", "{", "(", ")",
             "-", "3)"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_ALPHABET), max_size=40))
def test_any_sequence_of_notation_words_reads_the_same(words):
    assert_same_replay(" ".join(words).encode())


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fuzz_corpus_and_fuzzed_cases_read_the_same():
    fuzz = _load(TESTS / "faults/fuzz.py", "_fuzz_cases_replay")
    if not any(fuzz.SAMPLES.glob("*.gops")):  # the samples' folder, wherever it now is
        fuzz.SAMPLES = TESTS.parent / "gops_records" / "samples"
    made = [(p.name, p.read_bytes()) for p in fuzz.corpus_files()]
    made += fuzz.cases(300, seed=2026)
    for name, raw in made:
        if len(raw) > 4 << 20:  # longer than a window: the reader never replays it whole
            continue
        try:
            assert_same_replay(_body(raw))
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from e


def test_the_bundled_samples_read_the_same():
    folder = TESTS.parent / "gops_records" / "samples"
    if not any(folder.glob("*.gops")):
        folder = TESTS.parent / "data" / "samples"
    taken = [assert_same_replay(_body(p.read_bytes())) for p in sorted(folder.glob("*.gops"))]
    assert taken and any(taken)


def test_a_match_game_with_its_best_of_tag_is_replayed_by_the_compiled_pass():
    game = ('[Event "Club"]\n[Match "final"]\n[BestOf "3"]\n[A "Ann"]\n[B "Bob"]\n'
            '[Cards "3"]\n1. 2D 3C AS\n2. 3D AC 3S\n3. AD 2C 2S\n2-3\n')
    assert assert_same_replay(game.encode())
    assert not assert_same_replay(game.replace('[Match "final"]\n', "").encode())
    assert not assert_same_replay(game.replace('"3"]\n[A', '"4"]\n[A').encode())


def test_only_the_bad_games_of_a_window_are_diagnosed():
    good = ('[A "Ann"]\n[B "Bob"]\n[Cards "3"]\n1. 2D 3C AS\n2. 3D AC 3S\n3. AD 2C 2S\n'
            '2-3\n')
    wrong_result, wrong_card = good.replace("2-3", "3-2"), good.replace("3. AD", "3. 2D")
    texts = [good] * 40
    texts[3], texts[17], texts[39] = wrong_result, wrong_card, wrong_result
    data = "\n".join(texts).encode()
    assert not assert_same_replay(data)
    tokens = tokenize(data)
    rep = replay_tokens(tokens)
    played = compiled.play(tokens, rep.structure, rep.tags)
    assert np.flatnonzero(played.bad).tolist() == [3, 17, 39]
    assert np.flatnonzero(rep.n_problems).tolist() == [3, 17, 39]
    assert rep.scores[0].tolist() == [2, 3, 0, 0]  # a valid game: the compiled rows
