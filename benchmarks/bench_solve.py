"""Solver benchmark (issue 25): a full solve from the start of an N-card game, per tie
rule and objective.

    python benchmarks/bench_solve.py                  # N = 6..8, all four (a few minutes)
    python benchmarks/bench_solve.py --cards 9 --limit 1800

Each solve runs in a child process under a 4 GB address-space cap, timed from the
solver's construction to the end of ``Solver.analyse(start)`` (every prize's game at the
start, so every position reachable from it is solved; the start's value itself is 0 by
symmetry); the child reports the positions kept in the memo (after the reductions), its
wall and CPU seconds and its peak memory (``ru_maxrss``). The compiled code (from numba's
cache, by solving a 3-card game) and scipy's HiGHS (the mixes of the start's games) are
loaded before the clock starts. A solve over
``--limit`` seconds is stopped and printed as such, and larger N of that rule and
objective are skipped. Figures move with whatever else the
machine does: the one-minute load average at the end of each solve is printed beside it,
and the CPU seconds (the process's own) are the figure that moves least with the load.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

CHILD = """
import json, resource, sys, time
import numpy as np
from gops_records.games.gops.theory.position import Objective, Setting, TieRule, start
from gops_records.games.gops.theory.simplex import game_value
from gops_records.games.gops.theory.solver import Solver
from scipy.optimize import linprog  # noqa: F401  (analyse's HiGHS, imported off the clock)
game_value(np.array([[1.0, 0.0], [0.0, 1.0]]))  # load the compiled simplex first
n, rule, objective = int(sys.argv[1]), sys.argv[2], sys.argv[3]
setting = Setting(n, TieRule(rule), Objective(objective))
warm = Setting(3, setting.tie_rule, setting.objective)
Solver(warm).analyse(start(warm))  # and the compiled solver
began, cpu = time.perf_counter(), time.process_time()
solver = Solver(setting)
analysis = solver.analyse(start(setting))
seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
print(json.dumps({"value": analysis.value, "states": solver.states, "seconds": seconds,
                  "cpu_seconds": cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

CAP = 4 << 30  # bytes of address space a child may take


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def run(n: int, rule: str, objective: str, limit: float) -> dict | None:
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(n), rule, objective],
                              capture_output=True, text=True, timeout=limit,
                              preexec_fn=_cap, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="*", default=[6, 7, 8])
    parser.add_argument("--limit", type=float, default=600.0,
                        help="seconds a solve may take before it is stopped")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    print(f"{'N':>2} {'rule':8} {'objective':9} {'positions':>10} {'seconds':>9} "
          f"{'CPU s':>8} {'peak MB':>8} {'load':>5}")
    stopped: set[tuple[str, str]] = set()
    results = []
    for n in args.cards:
        for rule in ("carry", "discard"):
            for objective in ("points", "win"):
                if (rule, objective) in stopped:
                    continue
                out = run(n, rule, objective, args.limit)
                if out is None:
                    stopped.add((rule, objective))
                    print(f"{n:>2} {rule:8} {objective:9} {'stopped':>10} "
                          f"{'>' + str(int(args.limit)):>9}")
                    continue
                load = os.getloadavg()[0]
                results.append({"cards": n, "rule": rule, "objective": objective,
                                "load": load, **out})
                print(f"{n:>2} {rule:8} {objective:9} {out['states']:>10,} "
                      f"{out['seconds']:>9.2f} {out['cpu_seconds']:>8.2f} "
                      f"{out['peak_mb']:>8.0f} {load:>5.2f}", flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
