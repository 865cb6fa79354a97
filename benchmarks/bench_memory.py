"""Memory against the input (issue 21): peak resident memory per input MB of a huge tag
value, a huge comment and ordinary games, and the address space an import reserves.

    python benchmarks/bench_memory.py              # values of 3.9 MB (about 2 minutes)
    python benchmarks/bench_memory.py --mb 1       # quicker

1. Files under benchmarks/out/memory/: one game (the base), the same game with an
   ``[Event]`` value of ``--mb`` MB, the same with a comment of ``--mb`` MB, and about
   ``--mb`` MB of games made by ``gops simulate`` (``--seed``).
2. For each: ``gops validate FILE`` and ``gops import FILE`` into a fresh database, each a
   child process that reports, as it exits, its own peak resident memory (VmHWM of
   /proc/self/status: not ru_maxrss, which exec carries over from the process it
   replaced) and its peak address space (VmPeak, what ``ulimit -v`` counts).
3. The import of the bundled samples (gops_records/samples/), with the same two figures.

"MB per input MB" is (peak - the one-game file's peak) / input MB: what a byte of input
costs beyond the tool's fixed base. Prints a table; nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).parent / "out" / "memory"
SAMPLES = Path(__file__).resolve().parents[1] / "gops_records" / "samples"
#: The child: runs the gops command line and prints its own peaks to stderr as it exits.
CHILD = """import atexit, json, sys
def peaks():
    with open("/proc/self/status") as f:
        got = {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in f)
               if k in ("VmHWM", "VmPeak")}
    sys.stderr.write("\\nPEAKS " + json.dumps(got) + "\\n")
atexit.register(peaks)
from gops_records.cli import main
sys.argv = ["gops", *sys.argv[1:]]
main()
"""
#: A whole valid game: the first of a bundled sample file.
BASE_GAME = (SAMPLES / "2026-01-13-gops-society.gops").read_text(encoding="utf-8") \
    .split("\n\n[")[0]


def game(event: str = "", comment: str = "") -> str:
    """The base game, with its [Event] value replaced by ``event`` and a ``comment``
    before its first round, when given."""
    head, rounds = BASE_GAME.split("\n\n", 1)
    if event:
        head = re.sub(r'\[Event "[^"]*"\]', lambda _: f'[Event "{event}"]', head)
    return head + "\n\n" + (f"{{{comment}}}\n" if comment else "") + rounds + "\n"


def files(mb: float, seed: int) -> dict[str, Path]:
    """The inputs, made once for each size and kept."""
    OUT.mkdir(parents=True, exist_ok=True)
    size = int(mb * 1_000_000)
    made = {}
    for name, text in (("one game", game()), ("tag value", game(event="x" * size)),
                       ("comment", game(comment="y" * size))):
        path = OUT / f"{name.replace(' ', '-')}-{size}.gops"
        if not path.exists():
            path.write_text(text, encoding="utf-8")
        made[name] = path
    games = max(1, size // 430)
    path = OUT / f"games-{games}-seed{seed}.gops"
    if not path.exists():
        subprocess.run(["gops", "simulate", "--games", str(games), "--seed", str(seed),
                        "--out", str(path)], check=True, capture_output=True)
    made["games"] = path
    return made


def peaks(args: list[str]) -> tuple[float, float]:
    """Peak resident memory and peak address space (MB) of ``gops ARGS``."""
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True,
                          text=True)
    line = [x for x in done.stderr.splitlines() if x.startswith("PEAKS ")]
    if not line:
        sys.exit(f"gops {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    got = json.loads(line[-1][6:])
    return got["VmHWM"] / 1024, got["VmPeak"] / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=3.9, help="size of the huge values (MB)")
    parser.add_argument("--seed", type=int, default=1)
    opts = parser.parse_args()
    inputs = files(opts.mb, opts.seed)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'input':<10} {'MB':>6} | {'command':<8} {'peak MB':>8} {'MB per input MB':>16} "
          f"{'address space MB':>17}")
    base: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in inputs.items():
            mb = path.stat().st_size / 1e6
            for command in ("validate", "import"):
                args = [command, str(path)]
                if command == "import":
                    args += ["--db", str(Path(tmp) / f"{path.stem}.duckdb")]
                peak, space = peaks(args)
                base.setdefault(command, peak)  # the one-game file comes first
                per = "" if name == "one game" else f"{(peak - base[command]) / mb:.1f}"
                print(f"{name:<10} {mb:>6.2f} | {command:<8} {peak:>8.0f} {per:>16} "
                      f"{space:>17.0f}", flush=True)
        peak, space = peaks(["import", str(SAMPLES), "--db", str(Path(tmp) / "samples.duckdb")])
        print(f"{'samples':<10} {'':>6} | {'import':<8} {peak:>8.0f} {'':>16} {space:>17.0f}")


if __name__ == "__main__":
    main()
