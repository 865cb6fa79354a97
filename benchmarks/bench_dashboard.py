"""Dashboard benchmark: how long each page's queries take on a large database, on first load
and after a filter change. Prints one table; also writes benchmarks/out/dashboard_results.json.

    python benchmarks/bench_dashboard.py                  # a million games
    python benchmarks/bench_dashboard.py --games 200000   # quicker

The database is built the real way, once, and kept under benchmarks/out/ (which git
ignores): ``gops simulate`` makes a record file (named as bench_import.py names it, so the
two benchmarks share it) and ``gops import`` loads it. A kept database that an older gops
wrote is brought up to date with ``gops upgrade`` first (read as it is, it would be read
through an upgraded copy in memory, and that copy would be timed). Each page is then
replayed call by call, as dashboards/gops/data.py makes the calls: every library function runs
on the session's shared read-only connection (``store.db.SharedReader``), timed with the
connection's opening, and a call the page already made with the same arguments is a cache
hit that costs nothing (``st.cache_data``). The first load opens the connection (cold: the
file's blocks are read again); a change reuses it, as the dashboard does while no import
asks for the file. Each repeat starts with a new connection. What each page calls is
copied from the page modules: keep the ``page_*`` functions below in step with
dashboards/gops/*.py and dashboards/quality.py.

Figures depend on what else the machine is doing: the load average is printed with them
(before and after the whole run, and the 1-minute figure before and after each page).
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import duckdb

from gops_records.core import import_log
from gops_records.core import rejects as quarantine
from gops_records.core.store.db import SharedReader, latest_version, reading, scalar, schema_version
from gops_records.games.gops import analytics
from gops_records.games.gops.analytics import ALL_GAMES, CLASSIC, Filters, VariantKind
from gops_records.games.gops.scouting import ScoutError, kept_store, predicted_bid_by_prize

OUT = Path(__file__).parent / "out"
FIRST_LOAD_GOAL = 1.0  # seconds, issue 4 section 4
CHANGE_GOAL = 0.5
#: The Scout page's goal for any report, a first one or another player's (issue 12).
SCOUT_GOAL = 1.0
LOCK_WAIT_SECONDS = 8.0  # as dashboards/data.py


# -- the database -------------------------------------------------------------------------

def records(games: int, seed: int, jobs: int) -> Path:
    """The simulated record file (bench_import.py's name for it), made once and kept."""
    path = OUT / f"games-{games}-seed{seed}.gops"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        print(f"making {path.name} with gops simulate ...", file=sys.stderr, flush=True)
        subprocess.run(["gops", "simulate", "--games", str(games), "--seed", str(seed),
                        "--jobs", str(jobs), "--out", str(partial)], check=True)
        partial.rename(path)
    return path


def database(games: int, seed: int, jobs: int) -> Path:
    """A database holding exactly the simulated games, imported once with ``gops import``."""
    db = OUT / f"dashboard-{games}-seed{seed}.duckdb"
    if db.exists():
        with duckdb.connect(str(db), read_only=True) as con:
            version = schema_version(con)
        if version < latest_version():
            # an older gops wrote it: a read-only open would time an upgraded copy in memory
            print(f"upgrading {db.name} (schema {version}) with gops upgrade ...",
                  file=sys.stderr, flush=True)
            subprocess.run(["gops", "upgrade", "--db", str(db)], check=True,
                           stdout=subprocess.DEVNULL)
        with reading(db) as con:
            if scalar(con, "SELECT count(*) FROM games") == games:
                return db
    source = records(games, seed, jobs)
    for stale in (db, db.with_name(db.name + ".wal")):
        stale.unlink(missing_ok=True)
    print(f"importing {source.name} into {db.name} ...", file=sys.stderr, flush=True)
    subprocess.run(["gops", "import", str(source), "--db", str(db), "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    return db


# -- replaying a page's calls -----------------------------------------------------------------

@dataclass
class Session:
    """One browser session of the dashboard: its cache and the calls that missed it."""

    db: Path
    cache: dict[tuple, Any] = field(default_factory=dict)
    calls: list[tuple[str, float]] = field(default_factory=list)
    reader: SharedReader | None = None

    def __post_init__(self) -> None:
        if self.reader is None:  # a new script run: its own connection, as in data.py
            self.reader = SharedReader(self.db, timeout=LOCK_WAIT_SECONDS)

    def __call__(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(con, *args)`` as the data.py function ``name`` runs it; a hit costs nothing."""
        key = (name, args)
        if key in self.cache:
            return self.cache[key]
        start = time.perf_counter()
        with self.reader.read() as con:
            out = fn(con, *args)
        self.calls.append((name, time.perf_counter() - start))
        self.cache[key] = out
        return out

    def fork(self) -> Session:
        """The same session with a copy of its cache and no calls yet (for the next step)."""
        return Session(self.db, dict(self.cache), reader=self.reader)

    def next_run(self) -> Session:
        """The next interaction: the cache and the connection kept."""
        return Session(self.db, dict(self.cache), reader=self.reader)

    @property
    def seconds(self) -> float:
        return sum(s for _, s in self.calls)


@dataclass(frozen=True)
class Picks:
    """What the user picked on a page (None: the page's default)."""

    player: str | None = None
    vs: str | None = None
    pair: tuple[str, str] | None = None
    game_id: str | None = None


def sidebar(run: Session, f: Filters) -> None:
    """dashboards/gops/sidebar.py filter_sidebar: runs before every Gops page."""
    run("events", analytics.list_events)
    run("matches", analytics.list_matches)
    run("date_range", analytics.date_range)
    scope = Filters(events=f.events, matches=f.matches, date_from=f.date_from,
                    date_to=f.date_to)
    run("players", analytics.list_players, scope)
    run("variants", analytics.list_variants)


def explain_empty(run: Session) -> None:
    run("overview", analytics.overview, ALL_GAMES)


def page_session(run: Session, f: Filters, picks: Picks) -> None:
    if run("overview", analytics.overview, f)["games"] == 0:
        return explain_empty(run)
    # The page opens on the latest evening in view (EVENINGS_LISTED newest are listed).
    listed = run("evenings", analytics.evenings, f, 200)
    if not listed.is_empty():
        f = analytics.evening_filters(f, listed["date"][0], listed["event"][0])
    run("standings", analytics.standings, f)
    run("match_results", analytics.match_results, f, 200 + 1)  # MATCHES_SHOWN + 1
    run("overview", analytics.overview, f)
    run("largest_pools", analytics.largest_pools, f, 10)
    run("games", analytics.list_games, f, 500, None)  # NOTABLE_FROM


def page_players(run: Session, f: Filters, picks: Picks) -> None:
    names = run("players", analytics.list_players, f)
    if not names:
        return explain_empty(run)
    filtered = [name for name in f.players if name in names]  # the filter's player first
    player = picks.player if picks.player in names else (filtered or names)[0]
    classic = f.only(CLASSIC)  # data._player_bidding: the hand-aware frames, classic games
    if classic is not None:
        run("bidding", analytics.player_bidding, classic, player)
    run("strength", analytics.strength_by_prize, f, player)
    if not run("open_row_bids", analytics.open_row_bids, f, player).is_empty():
        run("row_choices", analytics.row_choices, f, player)
    run("games", analytics.list_games, f, 200, player)


def _scouting(con, player: str, vs: str | None, seed: int) -> tuple | None:
    """data._scouting: the report, its predicted bids and the model in words (None where
    the page says it cannot scout)."""
    try:
        report = kept_store.report_for(con, player, vs, seed)  # kept, or computed
    except ScoutError:
        return None
    return report, predicted_bid_by_prize(report), report.model_description


def page_scout(run: Session, f: Filters, picks: Picks) -> None:
    names = run("players", analytics.list_players, ALL_GAMES)  # filters do not apply
    if not names:
        return explain_empty(run)
    # the page's pick, else the sidebar's player filter, else the first name
    filtered = [name for name in f.players if name in names]
    player = picks.player if picks.player in names else (filtered or names)[0]
    run("_opponents", analytics.list_players, Filters(players=(player,)))
    run("_scouting", _scouting, player, picks.vs, 0)


def page_ties(run: Session, f: Filters, picks: Picks) -> None:
    kinds = run("games_by_variant", analytics.games_by_variant, f)
    if kinds.is_empty():
        return explain_empty(run)
    run("final_ties", analytics.final_ties, f)
    run("game_shapes", _shaped, f)
    run("ties_by_pair", analytics.ties_by_pair, f)
    run("pool_distribution", analytics.pool_distribution, f)
    run("largest_pools", analytics.largest_pools, f, 20)
    if kinds["variant"].str.starts_with(VariantKind.OPEN_PRIZES.value).any():
        run("row_choices", analytics.row_choices, f)


def _shaped(con, f: Filters) -> list:
    """data.game_shapes and the five figures the page sums from it."""
    shapes = analytics.game_shapes(con, f)
    return [fn(shapes) for fn in (analytics.tie_summary_of, analytics.ties_by_round_of,
                                  analytics.tie_streaks_of, analytics.carried_per_game_of,
                                  analytics.unclaimed_per_game_of)]


def default_pair(table, players: tuple[str, ...]) -> tuple[str, str]:
    """dashboards/gops/h2h.py default_pair: the filter's player and their most frequent
    opponent, else the pair with the most games."""
    for name in players:
        mine = table.filter(table["player"] == name)
        if not mine.is_empty():
            return name, mine["opponent"][0]
    return table["player"][0], table["opponent"][0]


def page_h2h(run: Session, f: Filters, picks: Picks) -> None:
    table = run("head_to_head", analytics.head_to_head, f)
    if table.is_empty():
        run("overview", analytics.overview, f)
        return None
    names = set(table["player"])
    a, b = (picks.pair if picks.pair and set(picks.pair) <= names
            else default_pair(table, f.players))
    if a != b:
        run("games", analytics.list_games, replace(f, players=(b,)), 200, a)
    return None


def page_game(run: Session, f: Filters, picks: Picks) -> None:
    games = run("games", analytics.list_games, f, 500, None)  # LIST_LIMIT
    if games.is_empty() and not picks.game_id:
        return explain_empty(run)
    game_id = picks.game_id or games["game_id"][0]
    run("_game_detail", analytics.game_detail, game_id)  # filters do not apply


def page_quality(run: Session, f: Filters, picks: Picks) -> None:
    run("_imports", import_log.list_imports)  # filters do not apply
    run("_quarantine_counts", quarantine.counts)
    run("_source_files", import_log.list_source_files)
    if run("_quarantine", _quarantine, 200):  # REJECTS_SHOWN
        run("_quarantine_counts", quarantine.counts)


def _quarantine(con, limit: int) -> list:
    """data.quarantine: rejects.list_rejects(con, limit=...)."""
    return quarantine.list_rejects(con, limit=limit)


Page = Callable[[Session, Filters, Picks], None]
PAGES: dict[str, Page] = {
    "Session": page_session, "Players": page_players, "Scout": page_scout,
    "Ties and pools": page_ties, "Head-to-head": page_h2h, "Game viewer": page_game,
    "Data quality": page_quality,
}


# -- what a user changes ------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """A filter change or a pick on the page, applied to the page's first load."""

    label: str
    filters: Filters
    picks: Picks = Picks()


@dataclass(frozen=True)
class Facts:
    """What the changes pick from (read once, untimed)."""

    events: list[str]
    last: dt.date
    players: list[str]
    pairs: list[tuple[str, str]]
    newest: list[str]
    opponents: list[str]  # of the first player (the Scout page's default)

    @classmethod
    def read(cls, db: Path) -> Facts:
        with reading(db) as con:
            h2h = analytics.head_to_head(con, ALL_GAMES)
            players = analytics.list_players(con, ALL_GAMES)
            met = analytics.list_players(con, Filters(players=players[:1]))
            return cls(analytics.list_events(con), analytics.date_range(con)[1], players,
                       list(zip(h2h["player"], h2h["opponent"], strict=True)),
                       analytics.list_games(con, ALL_GAMES, 500, None)["game_id"].to_list(),
                       [name for name in met if name not in players[:1]])


def changes(facts: Facts, page: str) -> list[Change]:
    """The sidebar changes every page gets, plus the page's own pick (if it has one)."""
    events, last, players = facts.events, facts.last, facts.players
    # A middle name of the sorted list: not the default (the first), so the pick is new.
    player = players[len(players) // 2]
    out = [Change(f"event = {events[0]}", Filters(events=(events[0],))),
           Change(f"evening = {last}", Filters(date_from=last, date_to=last)),
           Change(f"player = {player}", Filters(players=(player,)))]
    if page == "Players":
        out.append(Change(f"pick player {player}", ALL_GAMES, Picks(player=player)))
    elif page == "Scout":
        out.append(Change(f"scout {player}", ALL_GAMES, Picks(player=player)))
        if facts.opponents:
            other = facts.opponents[len(facts.opponents) // 2]
            out.append(Change(f"{players[0]} vs {other}", ALL_GAMES,
                              Picks(player=players[0], vs=other)))
    elif page == "Head-to-head" and len(facts.pairs) > 1:
        pair = facts.pairs[len(facts.pairs) // 2]
        out.append(Change(f"pick pair {pair[0]} / {pair[1]}", ALL_GAMES, Picks(pair=pair)))
    elif page == "Game viewer" and len(facts.newest) > 1:
        out.append(Change("pick the 2nd newest game", ALL_GAMES,
                          Picks(game_id=facts.newest[1])))
    return out


# -- measuring ---------------------------------------------------------------------------------

@dataclass
class Step:
    """One step's misses: how many calls ran and their seconds in the median run of the
    repeats (the upper one of an even number), every run's seconds, and the median run's
    calls, slowest first."""

    label: str
    calls: int
    seconds: float
    runs: list[float]
    slowest: list[tuple[str, float]]


def measure(db: Path, facts: Facts, page: str, repeats: int
            ) -> tuple[Step, Step, list[Step]]:
    """The sidebar and the page on an empty cache, then each change on top of that cache."""
    view = PAGES[page]
    todo = changes(facts, page)
    side_runs: list[Session] = []
    first_runs: list[Session] = []
    change_runs: list[list[Session]] = [[] for _ in todo]
    for _ in range(repeats):
        side = Session(db)
        sidebar(side, ALL_GAMES)
        first = side.fork()  # the sidebar and the page are one script run
        view(first, ALL_GAMES, Picks())
        side_runs.append(side)
        first_runs.append(first)
        for i, change in enumerate(todo):
            after = first.next_run()
            sidebar(after, change.filters)
            view(after, change.filters, change.picks)
            change_runs[i].append(after)
        first.reader.close()  # the next repeat starts cold
    return (step("sidebar", side_runs), step("first load", first_runs),
            [step(c.label, runs) for c, runs in zip(todo, change_runs, strict=True)])


def step(label: str, runs: list[Session]) -> Step:
    seconds = [r.seconds for r in runs]
    middle = sorted(runs, key=lambda r: r.seconds)[len(runs) // 2]
    slowest = sorted(middle.calls, key=lambda c: -c[1])
    return Step(label, len(middle.calls), middle.seconds, seconds,
                [(n, round(s, 3)) for n, s in slowest])


def met(seconds: float, goal: float) -> str:
    return "yes" if seconds <= goal else "no"


def table(results: dict[str, dict]) -> str:
    """One row per page (first load = sidebar + page, both on an empty cache), then one per
    change (only the calls whose arguments changed run)."""
    head = (f"{'page / change':<44} {'calls':>5} {'seconds':>8} {'goal':>6} {'met?':>5}"
            "  slowest calls")
    lines = [head, "-" * len(head)]

    def row(label: str, s: dict, goal: float) -> str:
        slow = ", ".join(f"{n} {t:.2f}" for n, t in s["slowest"][:3])
        return (f"{label:<44} {s['calls']:>5} {s['seconds']:>8.3f} {goal:>6.1f} "
                f"{met(s['seconds'], goal):>5}  {slow}")

    for page, r in results.items():
        first = {"calls": r["sidebar"]["calls"] + r["first_load"]["calls"],
                 "seconds": r["sidebar"]["seconds"] + r["first_load"]["seconds"],
                 "slowest": sorted(r["sidebar"]["slowest"] + r["first_load"]["slowest"],
                                   key=lambda c: -c[1])}
        lines.append(row(f"{page}: first load", first, FIRST_LOAD_GOAL)
                     + ("  [load {:.1f}-{:.1f}]".format(*r["load"]) if "load" in r else ""))
        lines.append(row("  page only (sidebar already cached)", r["first_load"],
                         FIRST_LOAD_GOAL))
        for c in r["changes"]:
            lines.append(row(f"  {c['label']}", c,
                             SCOUT_GOAL if page == "Scout" else CHANGE_GOAL))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="gops simulate workers")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each page (the median is shown)")
    parser.add_argument("--pages", default=",".join(PAGES),
                        help="comma-separated page names (default: all)")
    args = parser.parse_args()
    pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    unknown = [p for p in pages if p not in PAGES]
    if unknown:
        parser.error(f"unknown page(s) {', '.join(unknown)}; pick from {', '.join(PAGES)}")

    db = database(args.games, args.seed, args.jobs)
    facts = Facts.read(db)
    load_before = os.getloadavg()
    started = time.perf_counter()
    results: dict[str, dict] = {}
    for page in pages:
        print(f"timing {page} ...", file=sys.stderr, flush=True)
        load = os.getloadavg()[0]
        side, first, steps = measure(db, facts, page, args.repeats)
        results[page] = {"sidebar": asdict(side), "first_load": asdict(first),
                         "changes": [asdict(s) for s in steps],
                         "load": [round(load, 2), round(os.getloadavg()[0], 2)]}
    load_after = os.getloadavg()
    with reading(db) as con:
        games = scalar(con, "SELECT count(*) FROM games")
        bids = scalar(con, "SELECT count(*) FROM bids")
    print(f"{games:,} games ({bids:,} bids) in {db}; median of {args.repeats} runs; "
          f"{time.perf_counter() - started:.0f} s in all")
    print(table(results))
    print(f"load average before {tuple(round(x, 2) for x in load_before)}, "
          f"after {tuple(round(x, 2) for x in load_after)} ({os.cpu_count()} cores)")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "dashboard_results.json").write_text(json.dumps({
        "when": dt.datetime.now().isoformat(timespec="seconds"), "database": str(db),
        "games": games, "bids": bids, "repeats": args.repeats,
        "goals": {"first_load_seconds": FIRST_LOAD_GOAL, "change_seconds": CHANGE_GOAL,
                  "scout_seconds": SCOUT_GOAL},
        "load_average_before": load_before, "load_average_after": load_after,
        "pages": results}, indent=2, default=str))


if __name__ == "__main__":
    main()
