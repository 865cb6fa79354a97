"""Reader benchmark: 200,000 two-player games in mixed layouts, read by ``gops validate``
and by a fresh ``gops import``, beside OpenSpiel's bare replay of the same games
(pyspiel), all in the same run; and the reader alone in this process (tokens to replayed
games, compiled and by the numpy oracle).

The file is the simulated games of ``bench_import.records`` (20,000 by ``gops simulate``),
each game written in a layout drawn from ``notation.layouts`` (every round on one line,
4-7 a line, suit letters, no suits or numbers, lower case with T, comments, CRLF...), the
whole repeated with each copy's Event tag relabelled so every game is new. Commands run
in child processes under an address-space cap, timed from start to exit (wall and CPU).

    python benchmarks/bench_reader.py                    # 200,000 games
    python benchmarks/bench_reader.py --games 40000      # a quicker run

Issue 23's targets: validate at least 3x OpenSpiel's games/s, import at least 1.5x.
Figures depend on what else the machine runs: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_import import OUT, moves, pyspiel_replay, records  # noqa: E402

BASE_GAMES = 20_000
CAP_BYTES = 6 << 30


def mixed_file(games: int, seed: int = 1) -> tuple[Path, str]:
    """``games`` games in mixed layouts (made once, kept under benchmarks/out/), and the
    canonical text of the base games (for OpenSpiel)."""
    from gops_records.games.gops.notation.layouts import LAYOUTS, write_in_layout
    from gops_records.games.gops.reading import parse

    base = records(BASE_GAMES, seed)
    canonical = base.read_text(encoding="utf-8")
    path = OUT / f"mixed-{games}-seed{seed}.gops"
    if not path.exists():
        print(f"writing {games:,} games in mixed layouts ...", file=sys.stderr, flush=True)
        rng = random.Random(seed)
        once = "\n".join(write_in_layout(game, rng.choice(LAYOUTS), rng)
                         for game in parse(canonical)).encode("utf-8") + b"\n"
        partial = path.with_suffix(".partial")
        with partial.open("wb") as out:
            for k in range(-(-games // BASE_GAMES)):
                part = once if k == 0 else once.replace(b'[Event "', f'[Event "{k} '.encode())
                if (k + 1) * BASE_GAMES > games:  # the last copy, cut to its games
                    keep = games - k * BASE_GAMES
                    cut = part.split(b'[Event "')
                    part = b'[Event "'.join(cut[:keep + 1])
                out.write(part)
        partial.rename(path)
    return path, canonical


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def timed(args: list[str]) -> tuple[float, float, int]:
    """Wall and CPU seconds (the child's, all its processes) and the exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          preexec_fn=_capped, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


def in_process(path: Path) -> list[tuple[str, float]]:
    """Games per CPU-second of the reader alone (tokens to replayed games) on the
    file's first 20 MB, best of three."""
    from gops_records.games.gops.notation.tokens import reference_tokenize, tokenize
    from gops_records.games.gops.replay import reference_replay_tokens, replay_tokens

    data = path.read_bytes()[: 20 << 20]
    data = data[: data.rfind(b"\n[Event ") + 1]
    games = data.count(b'[Event "')
    rows = []
    for label, read in (("tokens to replay, compiled", lambda: replay_tokens(tokenize(data))),
                        ("tokens to replay, numpy oracle",
                         lambda: reference_replay_tokens(reference_tokenize(data)))):
        best = float("inf")
        for _ in range(3):  # warm: the best of three
            start = time.process_time()
            rep = read()
            best = min(best, time.process_time() - start)
        assert rep.count == games and bool(rep.valid.all()), label
        rows.append((label, games / best))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000)
    opts = parser.parse_args()
    path, canonical = mixed_file(opts.games)
    replayed = moves(canonical)
    copies = -(-opts.games // len(replayed))
    spiel_games = (replayed * copies)[: opts.games]
    load = os.getloadavg()[0]
    cpu_start = time.process_time()
    spiel_seconds, _ = pyspiel_replay(spiel_games)
    spiel_cpu = time.process_time() - cpu_start
    spiel = opts.games / spiel_seconds
    rows = [("OpenSpiel bare replay (pyspiel, in process)", spiel_seconds, spiel_cpu, spiel)]
    wall, cpu, code = timed(["gops", "validate", str(path)])
    assert code == 0, "every game of the file is valid"
    rows.append(("gops validate", wall, cpu, opts.games / wall))
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu, _ = timed(["gops", "import", str(path), "--db", f"{folder}/b.duckdb",
                              "--quiet"])
    rows.append(("gops import, fresh", wall, cpu, opts.games / wall))
    size = path.stat().st_size / 1e6
    print(f"{opts.games:,} two-player games in mixed layouts, {size:.1f} MB; "
          f"load {load:.1f} at the start, {os.cpu_count()} cores")
    spiel_per_cpu = opts.games / spiel_cpu
    print(f"| {'measure':<44} | {'wall':>7} | {'CPU':>7} | {'games/s':>8} | vs OpenSpiel "
          f"| games/CPU-s | vs OpenSpiel |")
    print(f"|{'-' * 46}|{'-' * 9}|{'-' * 9}|{'-' * 10}|--------------|-------------|"
          "--------------|")
    for label, wall, cpu, rate in rows:
        per_cpu = opts.games / cpu
        print(f"| {label:<44} | {wall:6.2f}s | {cpu:6.2f}s | {rate / 1000:7.1f}k | "
              f"{rate / spiel:11.2f}x | {per_cpu / 1000:10.1f}k | "
              f"{per_cpu / spiel_per_cpu:11.2f}x |")
    for label, rate in in_process(path):
        print(f"| reader alone: {label:<30} | {'':>7} | {'':>7} | {'':>8} | {'':>12} "
              f"| {rate / 1000:10.1f}k | {rate / spiel_per_cpu:11.2f}x |")


if __name__ == "__main__":
    main()
