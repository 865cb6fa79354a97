"""Gin Rummy benchmark (issue 14): validation and import of simulated full hands, beside
OpenSpiel replaying the same ``ace-low`` hands in the same run.

    python benchmarks/bench_gin.py                   # 100,000 hands (about half an hour)
    python benchmarks/bench_gin.py --hands 10000     # quicker

1. A file of simulated hands: ``gops simulate --game gin --runs ace-low --hands N --seed S
   --jobs 2`` (bots of every style, ``docs/gin.md``), made once and kept under
   benchmarks/out/ (ignored by git).
2. ``gops validate FILE`` and ``gops import FILE`` into a fresh database, then the import
   again (the file unchanged: counted from ``source_files``, not read), each a child
   process timed from start to exit with its CPU time and peak memory (``wait4``).
3. In this process, window by window (``gin.checking.hand_windows``): our reader and
   replay (``gin.replay.read_hands``), and our engine alone on the parsed records; each
   hand turned into OpenSpiel actions (not timed) and replayed in
   ``pyspiel.load_game("gin_rummy", {"oklahoma": True})``: ``apply_action`` for every
   deal card, draw, stock card, discard, knock, meld and layoff (pyspiel checks each
   action itself and raises on an illegal one), and for the first ``--legal-hands`` hands
   again asking ``legal_actions()`` at every decision, as a validator that lists the
   legal alternatives would. Hands OpenSpiel cannot play as ours did (big gin, a layoff
   onto a run of 5, a gin its 11-card deadwood misses: docs/gin.md#cross-check-with-openspiel)
   are counted and left out of its figures. The ratios are taken on CPU time (the
   children's include Python's start-up), since wall time moves with the machine's load.

Prints a table and writes benchmarks/out/gin-results.json. Figures move with whatever
else the machine does: the load average is printed beside them. Nothing here asserts a
time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from pathlib import Path

from bench_import import OUT, Run, run

from gops_records.games.gin.cards import parse_cards
from gops_records.games.gin.checking import hand_windows
from gops_records.games.gin.notation import DrawKind, HandRecord, OutWord
from gops_records.games.gin.replay import HandReport, read_hands, replay
from gops_records.games.gin.rules import Outcome, Seat


def records(hands: int, seed: int) -> Path:
    """The simulated ``ace-low`` hands, made once by ``gops simulate`` and kept."""
    path = OUT / f"gin-hands-{hands}-seed{seed}-ace-low.gin"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        print(f"making {path.name} with gops simulate ...", file=sys.stderr, flush=True)
        made = run(["gops", "simulate", "--game", "gin", "--runs", "ace-low", "--hands",
                    str(hands), "--seed", str(seed), "--jobs", "2", "-o", str(partial)])
        print(f"  {made.seconds:.0f} s", file=sys.stderr)
        partial.rename(path)
    return path


# -- OpenSpiel --------------------------------------------------------------------------


class OpenSpiel:
    """OpenSpiel's gin_rummy (Oklahoma) and the translation of our records into it."""

    def __init__(self) -> None:
        import pyspiel

        self.game = pyspiel.load_game("gin_rummy", {"oklahoma": True})
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.error = pyspiel.SpielError
        gr = pyspiel.gin_rummy
        self.upcard, self.stock, self.passing, self.knock, self.meld = (
            gr.DRAW_UPCARD_ACTION, gr.DRAW_STOCK_ACTION, gr.PASS_ACTION, gr.KNOCK_ACTION,
            gr.MELD_ACTION_BASE)

    def melds(self, meld) -> list[int]:
        """A meld as OpenSpiel's meld actions (3 to 5 cards: a longer run in pieces)."""
        cards = sorted(int(c) for c in meld)
        pieces = []
        while len(cards) > 5:
            pieces.append(cards[:3])
            cards = cards[3:]
        return [self.meld + self.utils.meld_to_int(p) for p in (*pieces, cards)]

    def actions(self, report: HandReport) -> list[int] | None:
        """The hand as OpenSpiel's actions (player 0 is our non-dealer), or None for a
        hand OpenSpiel has no way to play (big gin)."""
        record: HandRecord = report.record
        tags = dict(record.tags)
        dealer = Seat(tags["Dealer"])
        deal = {Seat.A: parse_cards(tags["DealA"]), Seat.B: parse_cards(tags["DealB"])}
        out = [*map(int, deal[dealer.other]), *map(int, deal[dealer]),
               int(parse_cards(tags["Upcard"])[0])]
        for turn in record.turns:
            if turn.draw is DrawKind.PASS:
                out.append(self.passing)
                continue
            if turn.out is OutWord.BIG_GIN:
                return None
            out += [self.stock, int(turn.card)] if turn.draw is DrawKind.STOCK \
                else [self.upcard]
            if turn.out is None:
                out.append(int(turn.discard))
                continue
            out += [self.knock, int(turn.discard)]
            for meld in turn.melds:
                out += self.melds(meld)
            out.append(self.passing)
        answer = record.response
        if answer is None:  # drawn at the wall: OpenSpiel offers the discard, both pass
            return [*out, self.passing, self.passing]
        if report.result.outcome in (Outcome.KNOCK, Outcome.UNDERCUT):
            out += [*map(int, answer.layoffs), self.passing]
        for meld in answer.melds:
            out += self.melds(meld)
        return [*out, self.passing]

    def play(self, actions: list[int], legal: bool = False):
        """Replay ``actions``; the final state, or None when OpenSpiel refuses one."""
        state = self.game.new_initial_state()
        try:
            for action in actions:
                if state.is_terminal():
                    break
                if legal and not state.is_chance_node() and \
                        action not in state.legal_actions():
                    return None
                state.apply_action(action)
        except self.error:
            return None
        return state


# -- the run ----------------------------------------------------------------------------


@contextlib.contextmanager
def quiet_stderr():
    """File descriptor 2 sent to /dev/null for the block (C++ writes there directly)."""
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def in_process(path: Path, legal_hands: int) -> dict:
    """Our reader, our engine and OpenSpiel on the same hands, window by window."""
    spiel = OpenSpiel()
    text = path.read_text(encoding="utf-8")
    figures = {"hands": 0, "read_replay_s": 0.0, "engine_s": 0.0, "pyspiel_s": 0.0,
               "pyspiel_hands": 0, "pyspiel_skipped": 0, "pyspiel_legal_s": 0.0,
               "pyspiel_legal_hands": 0}
    for _, window in hand_windows(text):
        start = time.process_time()
        reports = read_hands(window)
        figures["read_replay_s"] += time.process_time() - start
        start = time.process_time()
        for report in reports:  # the records as read: the engine alone
            replay(report.record)
        figures["engine_s"] += time.process_time() - start
        figures["hands"] += len(reports)
        assert all(r.valid for r in reports), "simulated hands are valid"
        lists = [spiel.actions(r) for r in reports]
        playable = [a for a in lists if a is not None]
        with quiet_stderr():  # pyspiel prints each refused action's error itself
            start = time.process_time()
            ends = [spiel.play(a) for a in playable]
            figures["pyspiel_s"] += time.process_time() - start
        done = sum(s is not None and s.is_terminal() for s in ends)
        figures["pyspiel_hands"] += done
        figures["pyspiel_skipped"] += len(lists) - done
        if figures["pyspiel_legal_hands"] < legal_hands:
            with quiet_stderr():
                start = time.process_time()
                checked = [spiel.play(a, legal=True) for a in playable]
                figures["pyspiel_legal_s"] += time.process_time() - start
            figures["pyspiel_legal_hands"] += sum(s is not None and s.is_terminal()
                                                  for s in checked)
    return figures


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f} hands/s" if seconds > 0 else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--legal-hands", type=int, default=20_000,
                        help="hands OpenSpiel replays again asking legal_actions() each time")
    args = parser.parse_args(argv)
    path = records(args.hands, args.seed)
    load_before = os.getloadavg()
    validate = run(["gops", "validate", str(path)])
    db = OUT / "gin-bench.duckdb"
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    command = ["gops", "import", str(path), "--db", str(db), "--json", "--quiet"]
    fresh, again = run(command), run(command)
    stored = json.loads(fresh.stdout)
    figures = in_process(path, args.legal_hands)
    load_after = os.getloadavg()
    n, spiel = figures["hands"], figures["pyspiel_hands"]
    spiel_rate = spiel / figures["pyspiel_s"]

    def child(name: str, r: Run) -> tuple[str, str, str, str]:
        # the ratio is taken on CPU time, as OpenSpiel's (in this process) is: wall time
        # moves with the machine's load; the child's CPU includes Python's start-up
        return (name, f"{r.seconds:.1f} s (CPU {r.cpu:.1f} s), peak {r.peak_mb:,.0f} MB",
                rate(n, r.cpu), f"{n / r.cpu / spiel_rate:.2f}x")

    rows = [
        child("gops validate", validate),
        child("gops import, fresh", fresh),
        child("gops import, file unchanged", again),
        ("ours in-process: read and replay", f"{figures['read_replay_s']:.1f} s CPU",
         rate(n, figures["read_replay_s"]),
         f"{n / figures['read_replay_s'] / spiel_rate:.2f}x"),
        ("ours in-process: engine alone (records parsed)", f"{figures['engine_s']:.1f} s CPU",
         rate(n, figures["engine_s"]), f"{n / figures['engine_s'] / spiel_rate:.2f}x"),
        ("OpenSpiel replay (apply_action, checked by pyspiel)",
         f"{figures['pyspiel_s']:.1f} s CPU", rate(spiel, figures["pyspiel_s"]), "1.00x"),
        ("OpenSpiel replay asking legal_actions()", f"{figures['pyspiel_legal_s']:.1f} s CPU",
         rate(figures["pyspiel_legal_hands"], figures["pyspiel_legal_s"]), ""),
    ]
    print(f"{n:,} simulated ace-low hands ({path.stat().st_size / 1e6:.0f} MB, {path.name}); "
          f"OpenSpiel plays {spiel:,} of them ({figures['pyspiel_skipped']:,} left out: "
          f"big gin and the other documented differences); imported "
          f"{stored.get('games_new', '?')} new; load {load_before[0]:.1f} -> {load_after[0]:.1f}")
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':{width}}  {'time':38}  {'rate':>16}  vs OpenSpiel")
    for name, time_, speed, ratio in rows:
        print(f"{name:{width}}  {time_:38}  {speed:>16}  {ratio}")
    results = {"hands": n, "file": path.name, "load": [load_before[0], load_after[0]],
               "validate": vars(validate) | {"stdout": ""},
               "import_fresh": vars(fresh) | {"stdout": ""},
               "import_again": vars(again) | {"stdout": ""}, **figures}
    (OUT / "gin-results.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
