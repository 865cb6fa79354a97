"""Memory in proportion to the input (issue 21): a record's text costs a few bytes of
memory per byte, whatever part of the record holds it, and an import fits in the address
space README.md says the tool needs.

Each case runs in a child process under an address-space cap (RLIMIT_AS), so a runaway
cannot take the machine, and reads the child's own peak resident memory (VmHWM of
/proc/self/status, reset before each step through /proc/self/clear_refs), not ru_maxrss,
which exec carries over from the process the child replaced.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from core.store.gamefiles import club_game, run_python

from gops_records.core.registry import suffixes

#: Bytes of the huge tag value and the huge comment: under the longest game read
#: (chunks.MAX_GAME_BYTES, 4 MiB), so the game is read and checked whole.
HUGE = 3_500_000
#: What reading a byte of a huge value may cost at its peak, in bytes, above the same
#: work's peak on values a tenth as long: a few copies (the file, the window, the token,
#: the stored value) and what the allocators keep of the steps between. Measured 6-11
#: (validate) and 6-9 (import of the comment); it was 170 for a tag value.
BYTES_PER_BYTE = 16
#: The child's address space: a guard against a runaway.
AS_CAP = 4 << 30
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "gops_records" / "samples"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/status")

#: The child: caps its address space, then for validate and for import: does the work on
#: values a tenth as long (the fixed base: its peak), then on the huge ones, and prints
#: how far each step's peak resident memory went above that base (KB).
CHILD = """import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
from gops_records.core.checking import check_source
from gops_records.core.importer import import_paths

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))

def step(run, base):
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # VmHWM := VmRSS: the step's own peak from here
    result = run()
    return status("VmHWM") - base, result

def validate(path):
    data = open(path, "rb").read()
    return sum(c.games - c.invalid for c in check_source(data, path, readable=True))

def store(path, db):
    return import_paths([path], db).as_dict()["games_new"]

out = {{}}
# the fixed base of each command: its peak on the same records with values a tenth as long
for path in {warm!r}:
    validate(path)
base = status("VmHWM")
for name, path in {files!r}:
    out[name + " validate"] = step(lambda: validate(path), base)
for path in {warm!r}:
    store(path, {db!r} + "warm")
base = status("VmHWM")
for name, path in {files!r}:
    out[name + " import"] = step(lambda: store(path, {db!r} + name), base)
print(json.dumps(out))
"""


def _files(folder: Path, size: int, prefix: str = "") -> dict[str, Path]:
    """A file whose one game has an [Event] value of ``size`` bytes, and one whose game
    has a comment of ``size`` bytes."""
    game = club_game(1, event="Night")
    tags, rounds = game.split("\n\n", 1)
    files = {"tag": game.replace('[Event "Night"]', '[Event "' + "x" * size + '"]'),
             "comment": tags + "\n\n{" + "y" * size + "}\n" + rounds}
    paths = {}
    for name, text in files.items():
        paths[name] = folder / f"{prefix}{name}.gops"
        paths[name].write_text(text, encoding="utf-8")
    return paths


def _child(folder: Path, cap: int) -> str:
    """The child's code: warmed up on values of a tenth of HUGE, then measured on HUGE."""
    warm = _files(folder, HUGE // 10, "warm-")
    huge = _files(folder, HUGE)
    return CHILD.format(cap=cap, warm=[str(p) for p in warm.values()],
                        db=str(folder / "db-"), files=[(n, str(p)) for n, p in huge.items()])


def _run(code: str) -> dict:
    proc = run_python(code)
    out, err = proc.communicate(timeout=120)  # a guard against a hang, not a speed goal
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.splitlines()[-1])  # DuckDB may draw a progress bar before it


#: Children run: a step's peak is the least of theirs. The import's peak above its base
#: moves with when DuckDB's and the allocators' threads run (20-55 MB for the same comment
#: import, one run to the next, on a loaded machine): noise only ever adds, so the least
#: of a few runs is the cost of the bytes themselves, and a cost that grew with them
#: still shows in every run.
RUNS = 3


@pytest.fixture(scope="module")
def steps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[int]]:
    """Each step's peak above the fixed base (KB; the least of :data:`RUNS` children) and
    the games it found valid or stored (the same in every run)."""
    runs = [_run(_child(tmp_path_factory.mktemp("memory"), AS_CAP)) for _ in range(RUNS)]
    for run in runs[1:]:
        assert {k: v[1] for k, v in run.items()} == {k: v[1] for k, v in runs[0].items()}
    return {step: [min(run[step][0] for run in runs), games]
            for step, (_, games) in runs[0].items()}


#: How many games each file holds that validate (and are stored): a tag's value holds at
#: most notation.values.MAX_TAG_CHARS characters (the store copies an Event into each of
#: the game's bid group rows: a 3.5 MB one cost about 670 MB at import), so the game with
#: the huge tag is a reject, kept once with its text; a comment has no such bound.
VALID = {"tag": 0, "comment": 1}


@pytest.mark.parametrize("step", ["tag validate", "tag import", "comment validate",
                                  "comment import"])
def test_a_huge_tag_value_or_comment_costs_memory_in_proportion(
        steps: dict[str, list[int]], step: str) -> None:
    above_kb, games = steps[step]
    bound_kb = BYTES_PER_BYTE * HUGE // 1024
    expected = VALID[step.split()[0]]
    assert games == expected, f"{step}: {games} games valid or stored, not {expected}"
    assert above_kb < bound_kb, (f"{step}: the peak went {above_kb / 1024:.0f} MB above the "
                                 f"fixed base for a {HUGE / 2**20:.1f} MB value "
                                 f"(bound {bound_kb / 1024:.0f} MB)")


def _documented_kb() -> int:
    """The ``ulimit -v`` README.md gives for importing the samples, in KB."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`ulimit -v (\d+)`\s+\([^)]*\)\s+for\s+the\s+bundled\s+samples", text)
    assert found, "README.md says what ulimit -v importing the samples needs"
    return int(found.group(1))


def test_importing_the_samples_fits_the_address_space_readme_documents(tmp_path: Path) -> None:
    # it took 2.9 GB of address space (1.8 GB of ulimit -v failed): mimalloc's 1 GiB arena,
    # a glibc arena of 64 MiB for each of about twenty threads, OpenBLAS's threads
    cap = _documented_kb() * 1024

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    done = subprocess.run([sys.executable, "-m", "gops_records", "import", str(SAMPLES),
                           "--db", str(tmp_path / "s.duckdb"), "--json"],
                          capture_output=True, text=True, preexec_fn=limit, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.splitlines()[-1])
    files = [p for p in SAMPLES.rglob("*") if p.suffix in suffixes()]
    assert summary["files"] == len(files) and summary["games_new"] > 0
    assert summary["games_new"] + summary["games_rejected"] == summary["games_seen"]
