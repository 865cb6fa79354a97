"""The seeded mutation fuzzer (tests/faults/fuzz.py) on a fixed budget, and its corpus.

Every case must leave validate without an uncaught exception, in bounded time, with
every invalid game's problems located inside the file, and give the same verdict in
`gops validate` and `gops import`. The inputs that ever failed are kept under
tests/data/fuzz/ and checked the same way on every run. To fuzz longer, see fuzz.py.
The run happens in a subprocess under a 4 GiB address-space cap: a mutation may make a
huge input, and the machine is shared.
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import fuzz
import pytest

BUDGET_CASES = 1000
CAP_BYTES = 4 << 30


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


@pytest.mark.slow
def test_a_fixed_budget_of_fuzzed_records_is_read_cleanly(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, fuzz.__file__, "--cases", str(BUDGET_CASES), "--seed", "2026",
         "--out", str(tmp_path), "--no-keep"],
        capture_output=True, text=True, timeout=600, preexec_fn=_capped)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["cases"] == BUDGET_CASES
    assert report["failures"] == []


def test_the_same_seed_makes_the_same_cases() -> None:
    assert fuzz.cases(50, seed=3) == fuzz.cases(50, seed=3)
    assert fuzz.cases(50, seed=3) != fuzz.cases(50, seed=4)


def test_every_input_that_ever_failed_is_read_cleanly(tmp_path: Path) -> None:
    kept = fuzz.corpus_files()
    assert kept, "the regression corpus is empty"
    folder = tmp_path / "corpus"
    folder.mkdir()
    paths = [Path(shutil.copy(p, folder / p.name)) for p in kept]
    assert fuzz.check_all(paths, folder, tmp_path / "c.duckdb", slowest=60.0) == []
