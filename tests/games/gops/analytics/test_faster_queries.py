"""Queries rewritten for speed (issue 12, the Ties and pools page at a million games) give
what the queries they replaced gave, on the bundled samples, on simulated games of every
variant, events and players, and on the hand-made club database.

Each ``_old_*`` function below is a replaced query (the joins of the kept games to their
``game_players`` rows), kept here as the reference for the queries that now read the
games' own seat columns (schema 11); the filters cover every field, filters keeping many
games and few.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import duckdb
import polars as pl
import pytest
from paths import ROOT

import gops_records.games.gops.analytics as a
from gops_records.core.importer import import_paths
from gops_records.core.store.db import run, scalar
from gops_records.games.gops.analytics import ties
from gops_records.games.gops.analytics.filters import games_cte
from gops_records.games.gops.notation import write_games
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import simulate

SAMPLES = ROOT / "gops_records" / "samples"
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
    """The pairs by two joins of the kept games to their seat rows (the first query)."""
    scope, params = games_cte(f, "g.game_id, g.rounds_played::BIGINT AS rounds_played, "
                                 "g.n_players, g.ties::BIGINT AS ties")
    return run(con, f"""WITH {scope},
        joined AS (
            SELECT fg.rounds_played AS n, fg.ties AS k, a.player AS pa, b.player AS pb,
                   TRUE AS two
            FROM fg
            JOIN game_players a ON a.game_id = fg.game_id AND a.seat = 'A'
            JOIN game_players b ON b.game_id = fg.game_id AND b.seat = 'B'
            WHERE fg.n_players = 2
        )
        {_OLD_TWO_SUMS}
        FROM joined GROUP BY ALL""", params).drop("more_games")


def _old_more_games(con, f):
    where, params = f.games_where("g")
    return scalar(con, f"SELECT count(*) FROM games g WHERE {where} AND n_players > 2", params)


def _sorted(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort(frame.columns)


def test_two_player_sums_as_before(db_con):
    for f in _filters(db_con):
        (new, new_more), old = ties._two_player_sums(db_con, f), _old_two_player_sums(db_con, f)
        assert new_more == _old_more_games(db_con, f), f
        assert new.schema == old.schema, f
        assert _sorted(new).equals(_sorted(old)), f


def test_the_player_filter_keeps_the_games_the_seat_rows_name(db_con):
    """The player filter reads games.player_a .. player_d (schema 11): the same games as
    the semi join on game_players it replaced."""
    players = a.list_players(db_con)
    for names in [(players[0],), tuple(players[1:4]), tuple(players), ("no such player",)]:
        for f in (a.Filters(players=names), a.Filters(players=names, n_players=3),
                  a.Filters(players=names, events=tuple(a.list_events(db_con)[:1]))):
            where, params = f.games_where("g")
            new = {r[0] for r in db_con.execute(
                f"SELECT game_id FROM games g WHERE {where}", params).fetchall()}
            rest, rest_params = replace(f, players=()).games_where("g")
            marks = ", ".join("?" * len(names))
            old = {r[0] for r in db_con.execute(
                f"SELECT game_id FROM games g WHERE {rest} AND g.game_id IN (SELECT game_id "
                f"FROM game_players WHERE player IN ({marks}))",
                [*rest_params, *names]).fetchall()}
            assert new == old, f
    assert new or names == ("no such player",)


def test_two_player_sums_count_something(simulated_db):
    with duckdb.connect(str(simulated_db), read_only=True) as con:
        two, more = ties._two_player_sums(con, a.Filters())
        assert two["games"].sum() == scalar(con, "SELECT count(*) FROM games "
                                                 "WHERE n_players = 2")
        assert more == scalar(con, "SELECT count(*) FROM games WHERE n_players > 2") > 0
        assert (two["kk"] >= two["k"]).all() and two["nn"].sum() > two["n"].sum()


# -- list_players and overview: the kept games' seat columns --------------------------

def _old_list_players(con, f):
    """The players of the kept games by matching their seat rows (the first query)."""
    scope, params = games_cte(f, "g.game_id")
    rows = con.execute(f"WITH {scope} SELECT DISTINCT p.player FROM game_players p "
                       "SEMI JOIN fg USING (game_id) ORDER BY p.player", params).fetchall()
    return [r[0] for r in rows]


def test_players_as_before(db_con):
    for f in [*_filters(db_con), *[a.Filters(events=(e,)) for e in a.list_events(db_con)]]:
        old = _old_list_players(db_con, f)
        assert a.list_players(db_con, f) == old, f
        assert a.overview(db_con, f)["players"] == len(old), f
    assert len(a.list_players(db_con, a.Filters())) > 3
