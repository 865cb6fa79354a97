"""A seeded mutation fuzzer over the bundled samples and round logs.

Each case is a seed file (a few games of a sample, a CSV or JSON Lines round log) with a
few random mutations: bytes and tokens deleted, duplicated, swapped or inserted, huge
numbers, deep nesting, other encodings, other line ends. The same seed gives the same
cases. The test suite runs a fixed budget (tests/faults/test_fuzz.py); to run it longer:

    python tests/faults/fuzz.py --cases 20000 --seed 11 --out /tmp/fuzz

which writes the cases to ``--out``, checks them the same way, and copies any case that
fails a check into tests/data/fuzz/ (the regression corpus the suite always runs).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "gops_records" / "samples"
CORPUS = ROOT / "tests" / "data" / "fuzz"

#: Words a record is made of, inserted whole by the token mutations.
TOKENS = ["1.", "13.", "14.", "0.", "[", "]", "{", "}", ";", "*", "1-0", "45-46", "0-0-6",
          "8", "K", "10", "T", "A", "1O", "11♣", "9♣", "J♠", "Q♦", "5D", "7c", "x", "+", "-",
          '[Event "x"]', '[Cards "5"]', '[Cards "99"]', '[TieRule "odd"]', '[Result "',
          '[Date "2026.02.30"]', '[A "Ann"]', '[C "Cy"]', '"', "\u00e9", "\ufeff", "\x00",
          "\r", "\n\n", "9" * 400]
ROUND_LOG_CSV = """game,round,prize,bid_a,bid_b,player_a,player_b,event,date
1,1,8,9,9,Ann,Bob,Thursday club,2026-11-26
1,2,5,7,J,Ann,Bob,Thursday club,2026-11-26
1,3,K,K,Q,Ann,Bob,Thursday club,2026-11-26
2,1,3,2,A,Cy,Dee,Thursday club,2026-11-26
2,2,Q,K,Q,Cy,Dee,Thursday club,2026-11-26
"""
ROUND_LOG_THREE = """game,round,prize,bid_a,bid_b,bid_c,cards,tie_rule,comment
g1,1,3,1,2,3,3,discard,"a comment, with a comma"
g1,2,1,3,3,1,3,discard,
g1,3,2,2,1,2,3,discard,"two ""quoted"" words"
"""
ROUND_LOG_JSONL = "".join(json.dumps(row) + "\n" for row in [
    {"game": 1, "round": 1, "prize": 8, "bid_a": 9, "bid_b": 9, "player_a": "Ann",
     "player_b": "Bob", "event": "Thursday club", "date": "2026-11-26"},
    {"game": 1, "round": 2, "prize": 5, "bid_a": 7, "bid_b": "J"},
    {"game": 2, "round": 1, "prize": "K", "bid_a": "Q", "bid_b": "K", "cards": 3},
])


#: The share of cases made from a round log (the samples give many more .gops seeds).
ROUND_LOG_SHARE = 0.3


@dataclass(frozen=True)
class Seed:
    suffix: str
    data: bytes


def seeds() -> list[Seed]:
    """The files mutations start from: each sample cut into pieces of a few games, plus
    one round log of each kind."""
    found = []
    for path in sorted(SAMPLES.glob("*.gops")):
        games = re.split(rb"\n(?=\[Event )", path.read_bytes())
        for start in range(0, len(games), 3):
            found.append(Seed(".gops", b"\n".join(games[start:start + 3])))
    found.append(Seed(".csv", ROUND_LOG_CSV.encode()))
    found.append(Seed(".csv", ROUND_LOG_CSV.replace(",", ";").replace("\n", "\r\n").encode()))
    found.append(Seed(".csv", ROUND_LOG_THREE.encode()))
    found.append(Seed(".jsonl", ROUND_LOG_JSONL.encode()))
    return found


def _span(rng: random.Random, data: bytes) -> tuple[int, int]:
    start = rng.randrange(len(data) + 1)
    return start, min(len(data), start + rng.choice([1, 2, 3, 8, 40, 400]))


def _delete(rng, data):
    a, b = _span(rng, data)
    return data[:a] + data[b:]


def _duplicate(rng, data):
    a, b = _span(rng, data)
    return data[:b] + data[a:b] + data[b:]


def _swap(rng, data):
    a, b = _span(rng, data)
    c, d = _span(rng, data)
    if b > c:
        (a, b), (c, d) = (c, d), (a, b)
    return data[:a] + data[c:d] + data[b:c] + data[a:b] + data[d:] if b <= c else data


def _insert_bytes(rng, data):
    at = rng.randrange(len(data) + 1)
    return data[:at] + bytes(rng.randrange(256) for _ in range(rng.choice([1, 3, 16]))) + data[at:]


def _insert_token(rng, data):
    at = rng.randrange(len(data) + 1)
    return data[:at] + (" " + rng.choice(TOKENS) + " ").encode() + data[at:]


def _replace_word(rng, data):
    words = list(re.finditer(rb"[^\s\[\]{};\"]+", data))
    if not words:
        return data
    word = rng.choice(words)
    return data[:word.start()] + rng.choice(TOKENS).encode() + data[word.end():]


def _huge_number(rng, data):
    at = rng.randrange(len(data) + 1)
    return data[:at] + b" " + b"7" * rng.choice([30, 5000, 100_000]) + b". " + data[at:]


def _deep_nesting(rng, data):
    depth = rng.choice([100, 10_000, 100_000])
    opener, closer = rng.choice([(b"{", b"}"), (b'{"game":', b"}"), (b"[", b"]")])
    at = rng.randrange(len(data) + 1)
    return data[:at] + opener * depth + b"1" + closer * rng.choice([0, depth]) + data[at:]


def _encoding(rng, data):
    text = data.decode("utf-8", errors="replace")
    return rng.choice([
        lambda: text.encode("latin-1", errors="replace"),
        lambda: text.encode("utf-16"),
        lambda: b"\xef\xbb\xbf" + data,
        lambda: data.replace(b"\n", b"\r\n"),
        lambda: data.replace(b"\n", b"\r"),
        lambda: data.upper(),
        lambda: data.lower(),
    ])()


def _truncate(rng, data):
    return data[:rng.randrange(len(data) + 1)]


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    _delete, _duplicate, _swap, _insert_bytes, _insert_token, _replace_word, _replace_word,
    _huge_number, _deep_nesting, _encoding, _truncate]


def cases(count: int, seed: int) -> list[tuple[str, bytes]]:
    """``count`` (suffix, bytes) cases, the same for the same ``seed``."""
    rng = random.Random(seed)
    pool = seeds()
    records = [s for s in pool if s.suffix == ".gops"]
    logs = [s for s in pool if s.suffix != ".gops"]
    made = []
    for _ in range(count):
        base = rng.choice(logs if rng.random() < ROUND_LOG_SHARE else records)
        data = base.data
        for _ in range(rng.choice([1, 1, 2, 3, 6])):
            data = rng.choice(MUTATIONS)(rng, data)
        made.append((base.suffix, data))
    return made


def write_cases(folder: Path, made: list[tuple[str, bytes]]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, (suffix, data) in enumerate(made):
        path = folder / f"case-{number:05d}{suffix}"
        path.write_bytes(data)
        paths.append(path)
    return paths


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*") if p.suffix in (".gops", ".csv", ".jsonl"))


def save_to_corpus(path: Path) -> Path:
    data = path.read_bytes()
    kept = CORPUS / f"crash-{hashlib.sha256(data).hexdigest()[:12]}{path.suffix}"
    CORPUS.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(data)
    return kept


# -- the checks ------------------------------------------------------------------------------

@dataclass
class Verdict:
    valid: int
    invalid: int
    seconds: float


@dataclass
class Ran:
    exit_code: int
    stdout: str
    stderr: str


def run_gops(args: list[str]) -> Ran:
    """Run a `gops` command in this process, as the shell would (its click command built
    once: rebuilding it for each of thousands of cases would cost more than the cases)."""
    global _COMMAND
    if _COMMAND is None:
        import typer

        from gops_records.cli import app
        _COMMAND = typer.main.get_command(app)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _COMMAND.main(args, prog_name="gops", standalone_mode=False)
    return Ran(code or 0, out.getvalue(), err.getvalue())


_COMMAND = None


def validate_verdicts(paths: list[Path], slowest: float) -> dict[str, Verdict]:
    """Per file: what `gops validate --json FILE` says, with each located problem checked
    and the time it took. A file validate cannot read (exit 2, e.g. not text in the
    encoding) counts as one invalid record, as import quarantines it whole. An exception
    out of the command fails the case."""
    verdicts = {}
    for path in paths:
        started = time.perf_counter()
        result = run_gops(["validate", "--json", str(path)])
        seconds = time.perf_counter() - started
        assert seconds < slowest, f"{path}: validate took {seconds:.1f} s"
        assert result.exit_code in (0, 1, 2), f"{path}: exit status {result.exit_code}"
        if result.exit_code == 2:
            assert result.stderr.startswith("gops: error: "), f"{path}: {result.stderr!r}"
            verdicts[str(path)] = Verdict(0, 1, seconds)
            continue
        data = path.read_bytes()
        lines = data.count(b"\n") + data.count(b"\r") + 1
        valid = invalid = 0
        for line in filter(None, result.stdout.split("\n")):  # not splitlines: U+2028
            game = json.loads(line)
            if game["valid"]:
                valid += 1
                continue
            invalid += 1
            assert game["errors"], f"{path}: an invalid game without a problem"
            for error in game["errors"]:
                assert 1 <= error["line"] <= lines, f"{path}: {error} is not in the file"
                assert error["column"] >= 1 and error["code"], f"{path}: {error}"
        assert result.exit_code == (1 if invalid else 0), f"{path}: exit {result.exit_code}"
        verdicts[str(path)] = Verdict(valid, invalid, seconds)
    return verdicts


def import_verdicts(folder: Path, db: Path) -> dict[str, Verdict]:
    """Per file's SHA-256: what `gops import` stored (valid games, rejects) from one import
    of the folder (files with the same bytes are read once and recorded under one name)."""
    from gops_records.core.importer import import_paths
    from gops_records.core.store.db import reading

    started = time.perf_counter()
    import_paths([folder], db)
    seconds = time.perf_counter() - started
    with reading(db) as con:
        rows = con.execute("SELECT sha256, games_valid, games_rejected "
                           "FROM source_file_reads").fetchall()
    return {sha: Verdict(valid, rejected, seconds) for sha, valid, rejected in rows}


def check_all(paths: list[Path], folder: Path, db: Path, slowest: float) -> list[str]:
    """Every failure, as text (empty: all good): each file through validate alone (any
    exception, a slow file or an unlocated problem is a failure of that file), then all
    through one import, and validate's verdict against import's, file by file."""
    failures: dict[str, str] = {}
    checked: dict[str, Verdict] = {}
    for path in paths:
        try:
            checked |= validate_verdicts([path], slowest)
        except Exception as exc:  # noqa: BLE001  (every failure is a finding)
            failures[str(path)] = f"{path}: {type(exc).__name__}: {exc}"[:400]
    try:
        stored = import_verdicts(folder, db)
    except Exception as exc:  # noqa: BLE001
        return [*failures.values(), f"the import of {folder} failed: {exc!r}"[:400]]
    for path in paths:
        mine = checked.get(str(path))
        theirs = stored.get(hashlib.sha256(path.read_bytes()).hexdigest())
        if mine is None:
            continue
        if theirs is None:
            if mine.valid or mine.invalid:
                failures[str(path)] = (f"{path}: validate found {mine.valid + mine.invalid} "
                                       "records, import read nothing")
        elif (mine.valid, mine.invalid) != (theirs.valid, theirs.invalid):
            failures[str(path)] = (f"{path}: validate {mine.valid} valid/{mine.invalid} invalid"
                                   f", import {theirs.valid} stored/{theirs.invalid} rejected")
    return list(failures.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="an empty folder for the cases")
    parser.add_argument("--slowest", type=float, default=10.0,
                        help="seconds one input may take to validate")
    parser.add_argument("--no-keep", action="store_true",
                        help="do not copy failing cases into tests/data/fuzz/")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    paths = write_cases(args.out / "cases", cases(args.cases, args.seed))
    failed = check_all(paths, args.out / "cases", args.out / "fuzz.duckdb", args.slowest)
    for failure in failed:
        path = Path(failure.split(": ", 1)[0])
        if path.is_file() and not args.no_keep:
            print(f"kept {save_to_corpus(path)}", file=sys.stderr)
    print(json.dumps({"cases": len(paths), "failures": failed}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
