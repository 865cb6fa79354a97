"""Queries rewritten for speed (issue 12, the Ties and pools page at a million games) give
what the queries they replaced gave, on the bundled samples, on simulated games of every
variant, events and players, and on the hand-made club database.

Each ``_old_*`` function below is the replaced query as it stood, kept here as the
reference; the filters cover every field, filters keeping many games and few, and the
shortcuts are checked to have been taken both ways (so a test cannot pass vacuously).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import duckdb
import polars as pl
import pytest

import gops_records.analytics as a
from gops_records.analytics import results, ties
from gops_records.analytics.filters import MISPLACED, SEATS_AB, games_cte, run
from gops_records.importer import import_paths
from gops_records.notation import write_games
from gops_records.rules import RuleProfile, TieRule
from gops_records.simulate import simulate
from gops_records.store.db import scalar

SAMPLES = Path(__file__).parents[2] / "data" / "samples"
PROFILES = [RuleProfile(), RuleProfile(players=3), RuleProfile(players=4, tie_rule=TieRule.DISCARD),
            RuleProfile(bid_cards=2), RuleProfile(open_prizes=3), RuleProfile(cards=6),
            RuleProfile(tie_rule=TieRule.DISCARD)]


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled sample evenings (.gops), imported as `gops demo` does."""
    db = tmp_path_factory.mktemp("samples") / "samples.duckdb"
    summary = import_paths(sorted(SAMPLES.glob("*.gops")), db)
    assert summary.games_new > 20
    return db


@pytest.fixture(scope="module")
def simulated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Simulated evenings of every variant (events, a roster of players)."""
    folder = tmp_path_factory.mktemp("simulated")
    records = [r for i, p in enumerate(PROFILES) for r in simulate(30, 70 + i, p)]
    (folder / "sim.gops").write_text(write_games(records), encoding="utf-8")
    db = folder / "sim.duckdb"
    import_paths([folder / "sim.gops"], db)
    return db


@pytest.fixture(params=["samples", "simulated", "club"])
def db_con(request, samples_db, simulated_db, club_db):
    path = {"samples": samples_db, "simulated": simulated_db, "club": club_db}[request.param]
    with duckdb.connect(str(path), read_only=True) as c:
        yield c


def _filters(con: duckdb.DuckDBPyConnection) -> list[a.Filters]:
    players = a.list_players(con)
    events = a.list_events(con)
    matches = a.list_matches(con)
    first, last = a.date_range(con)
    out = [a.Filters(), a.Filters(events=(events[0],)), a.Filters(events=tuple(events[1:])),
           a.Filters(players=(players[0],)), a.Filters(players=tuple(players[1:3])),
           a.Filters(players=(players[-1],), n_players=2),
           a.Filters(date_from=last - dt.timedelta(days=20), date_to=last),
           a.Filters(date_from=first, date_to=first), a.Filters(finished_only=True),
           a.Filters(n_players=2), a.Filters(n_players=3), a.Filters(tie_rule="discard"),
           a.Filters(variant="classic"), a.Filters(variant="bid-cards-2"),
           a.Filters(variant="open-prizes-3"), a.Filters(events=("no such event",)),
           a.Filters(events=(events[0],), n_players=2, finished_only=True)]
    if matches:
        out.append(a.Filters(matches=(matches[0],)))
    return out


# -- ties_by_pair: the two-player games' sums ------------------------------------------

_OLD_TWO_SUMS = """
    SELECT pa, pb, sum(n) FILTER (two)::BIGINT AS n, sum(k) FILTER (two)::BIGINT AS k,
           sum(k * k) FILTER (two)::BIGINT AS kk, sum(n * n) FILTER (two)::BIGINT AS nn,
           sum(k * n) FILTER (two)::BIGINT AS kn, count(*) FILTER (two)::BIGINT AS games,
           count(*) FILTER (NOT two)::BIGINT AS more_games
"""


def _old_two_player_sums(con, f):
    rest, params = replace(f, players=()).games_where("g")
    played = "TRUE"
    if f.players:
        marks = ", ".join("?" * len(f.players))
        played = f"(a.player IN ({marks}) OR b.player IN ({marks}))"
        params = [*params, *f.players, *f.players]
    zipped = run(con, f"""WITH zipped AS (
            SELECT g.rounds_played::BIGINT AS n, g.ties::BIGINT AS k, a.player AS pa,
                   b.player AS pb, g.n_players = 2 AS two, {MISPLACED} AS misplaced
            FROM {SEATS_AB}
            WHERE {rest} AND (g.n_players > 2 OR {played})
        )
        {_OLD_TWO_SUMS}, count(*) FILTER (two AND misplaced) AS misplaced
        FROM zipped GROUP BY ALL""", params)
    more_games = int(zipped["more_games"].sum())
    if zipped["misplaced"].sum():
        zipped = _old_two_player_sums_joined(con, f)
    two = zipped.filter(pl.col("games") > 0).drop("more_games", "misplaced", strict=False)
    return two, more_games


def _old_two_player_sums_joined(con, f):
    scope, params = games_cte(f, "g.game_id, g.rounds_played::BIGINT AS rounds_played, "
                                 "g.n_players, g.ties::BIGINT AS ties")
    return run(con, f"""WITH {scope},
        zipped AS (
            SELECT fg.rounds_played AS n, fg.ties AS k, a.player AS pa, b.player AS pb,
                   TRUE AS two
            FROM fg
            JOIN game_players a ON a.game_id = fg.game_id AND a.seat = 'A'
            JOIN game_players b ON b.game_id = fg.game_id AND b.seat = 'B'
            WHERE fg.n_players = 2
        )
        {_OLD_TWO_SUMS}
        FROM zipped GROUP BY ALL""", params)


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(frame.columns)


def test_two_player_sums_as_before(db_con):
    for f in _filters(db_con):
        (new, new_more), (old, old_more) = (ties._two_player_sums(db_con, f),
                                            _old_two_player_sums(db_con, f))
        assert new_more == old_more, f
        assert new.schema == old.schema, f
        assert _sorted(new).equals(_sorted(old)), f
        joined = ties._two_player_sums_joined(db_con, f).drop("more_games")
        assert _sorted(joined).equals(
            _sorted(_old_two_player_sums_joined(db_con, f).drop("more_games"))), f


def test_two_player_sums_count_something(simulated_db):
    with duckdb.connect(str(simulated_db), read_only=True) as con:
        two, more = ties._two_player_sums(con, a.Filters())
        assert two["games"].sum() == scalar(con, "SELECT count(*) FROM games "
                                                 "WHERE n_players = 2")
        assert more == scalar(con, "SELECT count(*) FROM games WHERE n_players > 2") > 0
        assert (two["kk"] >= two["k"]).all() and two["nn"].sum() > two["n"].sum()


# -- list_players and overview: the first kept games' seats ----------------------------

def _old_players_of(con, f, kept):
    if kept and not f.players and kept >= results._ZIP_SHARE * scalar(
            con, "SELECT count(*) FROM games"):
        where, params = f.games_where("g")
        pairs = con.execute(f"""SELECT a.player, b.player, count(*) FILTER (g.n_players > 2),
                                       count(*) FILTER ({MISPLACED})
                                FROM {SEATS_AB} WHERE {where} GROUP BY ALL""",
                            params).fetchall()
        if not any(misplaced for *_, misplaced in pairs):
            names = {name for pa, pb, _, _ in pairs for name in (pa, pb)}
            if any(more for _, _, more, _ in pairs):
                scope, params = games_cte(f, "g.game_id, g.n_players")
                rows = con.execute(f"""WITH {scope} SELECT DISTINCT p.player
                    FROM game_players p
                    SEMI JOIN (SELECT game_id FROM fg WHERE n_players > 2) k USING (game_id)
                    WHERE p.seat IN ('C', 'D')""", params).fetchall()
                names.update(r[0] for r in rows)
            return sorted(names)
    scope, params = games_cte(f, "g.game_id")
    rows = con.execute(f"WITH {scope} SELECT DISTINCT p.player FROM game_players p "
                       "SEMI JOIN fg USING (game_id) ORDER BY p.player", params).fetchall()
    return [r[0] for r in rows]


def _old_list_players(con, f):
    if f.is_empty:
        rows = con.execute("SELECT DISTINCT player FROM game_players ORDER BY player").fetchall()
        return [r[0] for r in rows]
    where, params = f.games_where("g")
    return _old_players_of(con, f, scalar(con, f"SELECT count(*) FROM games g WHERE {where}",
                                          params))


@pytest.mark.parametrize("first", [(results._FIRST_GAMES, results._FIRST_SEATS), (5, 4),
                                   (40, 1_000)])
def test_players_as_before(db_con, monkeypatch, first):
    """The same players, whether the first kept games seat everyone or not, with the
    shortcut's look-ahead as shipped and cut short."""
    monkeypatch.setattr(results, "_FIRST_GAMES", first[0])
    monkeypatch.setattr(results, "_FIRST_SEATS", first[1])
    for f in [*_filters(db_con), *[a.Filters(events=(e,)) for e in a.list_events(db_con)]]:
        old = _old_list_players(db_con, f)
        assert a.list_players(db_con, f) == old, f
        assert a.overview(db_con, f)["players"] == len(old), f


def test_the_shortcut_is_taken_and_refused(simulated_db, monkeypatch):
    """Over the simulated evenings, some filters' first kept games seat every player (the
    answer is read from them) and some do not (the kept games are all read)."""
    seen = []
    real = results._first_kept_seat
    monkeypatch.setattr(results, "_first_kept_seat",
                        lambda con, f: seen.append(real(con, f)) or seen[-1])
    with duckdb.connect(str(simulated_db), read_only=True) as con:
        everyone = len(a.list_players(con))
        for f in [a.Filters(variant="classic"), *[a.Filters(events=(e,))
                                                  for e in a.list_events(con)]]:
            assert a.list_players(con, f) == _old_list_players(con, f)
        monkeypatch.setattr(results, "_FIRST_GAMES", 3)
        assert a.list_players(con, a.Filters(variant="classic")) == _old_list_players(
            con, a.Filters(variant="classic"))
    assert everyone in seen and any(n < everyone for n in seen), seen
