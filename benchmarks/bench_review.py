"""Review benchmark (issue 25): 13-card records analysed over their last K rounds.

    python benchmarks/bench_review.py                     # K = 6, 7, 8; points and win
    python benchmarks/bench_review.py --rounds 7 --games 60 --objective points

An evening of simulated 13-card games (carry rule, shuffled prizes; bidders of every
personality the simulator has, seeded) is written to a temporary folder. Each
configuration runs in a child process under a 4 GB address-space cap:

- **cold, per game**: each game reviewed with an empty in-memory tablebase (nothing from
  earlier games), so a game's time is its own solve plus its linear programs; the
  median and the largest per game (wall and the process's CPU), first game excluded
  (it loads numba's cache and scipy);
- **evening**: the same games reviewed one after another sharing one tablebase on disk,
  then saved (what `gops review evening.gops` does before the dashboard opens), and a
  second process reviewing them again from that tablebase (what a page then costs);
- the child's peak memory (``ru_maxrss``);
- ``--page``: the Game viewer's review of two stored games as the page makes it
  (``stored_review.review_stored``, in a new process: imports timed apart), with no
  tablebase, after `gops review` of the evening filled it, and once their reviews are
  kept (read back without the solver).

K = 9 and 10 are not run: the compiled key holds hands of at most 8 cards for N = 11..13,
so the review refuses them (``--rounds`` is 1..8). Nothing here asserts a time; the
one-minute load average is printed beside each line.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import json, resource, statistics, sys, time
from pathlib import Path
from gops_records.games.gops.reading import read_reports
from gops_records.games.gops.theory.position import Objective
from gops_records.games.gops.theory.review import review_game, review_games
from gops_records.games.gops.theory.tablebase import Tablebase, forget
path, rounds, objective, mode, folder = sys.argv[1:6]
rounds, objective = int(rounds), Objective(objective)
reports = read_reports(Path(path).read_bytes())
out = {"games": len(reports)}
if mode == "cold":
    walls, cpus = [], []
    for report in reports:
        forget()
        began, cpu = time.perf_counter(), time.process_time()
        review_game(report, objective, rounds, Tablebase(Path(folder) / "none"))
        walls.append(time.perf_counter() - began)
        cpus.append(time.process_time() - cpu)
    rest_w, rest_c = walls[1:], cpus[1:]
    out.update(first=walls[0], median=statistics.median(rest_w), max=max(rest_w),
               cpu_median=statistics.median(rest_c), cpu_max=max(rest_c))
else:
    began, cpu = time.perf_counter(), time.process_time()
    store = Tablebase(Path(folder))
    review_games(reports, objective, rounds, store)
    out.update(seconds=time.perf_counter() - began, cpu_seconds=time.process_time() - cpu,
               positions=sum(store.loaded.values()))
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""

PAGE = """
import json, sys, time
began = time.perf_counter()
from gops_records.core.store.db import reading
from gops_records.games.gops.theory.stored_review import review_stored
imported = time.perf_counter() - began
db = sys.argv[1]
with reading(db) as con:
    ids = [g for (g,) in con.execute("SELECT game_id FROM games ORDER BY game_id").fetchall()]
t = time.perf_counter()
review_stored(db, ids[0])
first = time.perf_counter() - t
t = time.perf_counter()
review_stored(db, ids[1])
second = time.perf_counter() - t
print(json.dumps({"imports": imported, "first_game": first, "next_game": second}))
"""

CAP = 4 << 30


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def evening(folder: Path, games: int, seed: int) -> Path:
    """``games`` simulated 13-card games, as a .gops file in ``folder``."""
    from gops_records.games.gops.bots import Personality
    from gops_records.games.gops.notation import write_games
    from gops_records.games.gops.rules import RuleProfile, TieRule
    from gops_records.games.gops.simulate import Player, simulate_game

    rng = random.Random(seed)
    kinds = list(Personality)
    profile = RuleProfile(tie_rule=TieRule.CARRY)
    records = []
    for i in range(games):
        a, b = rng.sample(kinds, 2) if len(kinds) > 1 else (kinds[0], kinds[0])
        records.append(simulate_game(profile, [Player(f"P{a.value}", a),
                                               Player(f"Q{b.value}", b)], rng,
                                     {"Date": "2026.12.02", "Round": str(i + 1)}))
    path = folder / "evening.gops"
    path.write_text(write_games(records))
    return path


def child(path: Path, rounds: int, objective: str, mode: str, folder: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), str(rounds), objective,
                           mode, str(folder)], capture_output=True, text=True,
                          preexec_fn=_cap, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def page(tmp: Path, path: Path) -> None:
    """The Game viewer's review, cold and after `gops review` of the evening."""
    db = tmp / "club.duckdb"
    subprocess.run(["gops", "import", str(path), "--db", str(db), "--quiet"], check=True)
    run = [sys.executable, "-c", PAGE, str(db)]
    cold = json.loads(subprocess.run(run, capture_output=True, text=True, check=True,
                                     preexec_fn=_cap).stdout.strip().splitlines()[-1])
    shutil.rmtree(db.with_suffix(".tablebase"))
    began = time.perf_counter()
    subprocess.run(["gops", "review", str(path), "--db", str(db)], check=True,
                   capture_output=True)
    filled = time.perf_counter() - began
    warm = json.loads(subprocess.run(run, capture_output=True, text=True, check=True,
                                     preexec_fn=_cap).stdout.strip().splitlines()[-1])
    print(f"page review, no tablebase: imports {cold['imports']:.2f} s, first game "
          f"{cold['first_game']:.2f} s, next game {cold['next_game']:.2f} s")
    print(f"gops review of the evening: {filled:.1f} s; then imports {warm['imports']:.2f} s, "
          f"first game {warm['first_game']:.2f} s, next game {warm['next_game']:.2f} s  "
          f"load {os.getloadavg()[0]:.1f}")
    kept = json.loads(subprocess.run(run, capture_output=True, text=True, check=True,
                                     preexec_fn=_cap).stdout.strip().splitlines()[-1])
    print(f"the same two games again, their reviews kept: imports {kept['imports']:.2f} s, "
          f"first game {kept['first_game']:.2f} s, next game {kept['next_game']:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, nargs="*", default=[6, 7, 8])
    parser.add_argument("--objective", nargs="*", default=["points", "win"])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--cold-games", type=int, default=12,
                        help="games timed one by one with a cold cache")
    parser.add_argument("--evening-games", type=int, default=None,
                        help="games of the evening timing (default --games; 0: skip it)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--page", action="store_true",
                        help="time the Game viewer's review only (default rounds)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        path = evening(tmp, args.games, args.seed)
        if args.page:
            page(tmp, path)
            return
        few = tmp / "few.gops"
        from gops_records.games.gops.notation import write_games
        from gops_records.games.gops.reading import parse

        games = parse(path.read_text())
        few.write_text(write_games(games[: args.cold_games + 1]))
        evening_games = args.games if args.evening_games is None else args.evening_games
        part = tmp / "part.gops"
        part.write_text(write_games(games[:evening_games]))
        print("K  objective  cold per game: median / max wall s (CPU s)  | evening of "
              f"{evening_games}: cold s (CPU), from the tablebase s (CPU), positions; peak MB")
        for objective in args.objective:
            for k in args.rounds:
                cold = child(few, k, objective, "cold", tmp)
                runs = [cold]
                if evening_games:
                    store = tmp / f"tb-{objective}-{k}"
                    runs += [child(part, k, objective, "evening", store) for _ in (1, 2)]
                load = os.getloadavg()[0]
                if any("error" in r for r in runs):
                    print(f"{k}  {objective}: {runs}")
                    continue
                peak = max(r["peak_mb"] for r in runs)
                line = (f"{k}  {objective:<7}  {cold['median']:.2f} / {cold['max']:.2f} "
                        f"({cold['cpu_median']:.2f} / {cold['cpu_max']:.2f})  | ")
                if evening_games:
                    first, again = runs[1:]
                    line += (f"{first['seconds']:.1f} ({first['cpu_seconds']:.1f}), "
                             f"{again['seconds']:.1f} ({again['cpu_seconds']:.1f}), "
                             f"{first['positions']:,}, ")
                print(f"{line}{peak:.0f} MB  load {load:.1f}", flush=True)


if __name__ == "__main__":
    main()
