"""What games keeps beside each game repeats the game's own rows exactly, however the games
came in (2 to 4 players, the variants, a game written twice in one batch, games already
stored, an upgraded older file): player_a to player_d (schema 11) repeat game_players,
carried_pools (schema 12) the rounds with a carried pool."""

from __future__ import annotations

from pathlib import Path

from gops_records.core.importer import import_paths
from gops_records.core.store.db import connect, reading
from gops_records.games.gops.rules import RuleProfile
from gops_records.games.gops.simulate import write_simulation

#: Games whose seat columns differ from their game_players rows (0 when they agree).
DIFFERENT = """
SELECT count(*) FROM games g LEFT JOIN (
    SELECT game_id, any_value(player) FILTER (seat = 'A') AS a,
           any_value(player) FILTER (seat = 'B') AS b,
           any_value(player) FILTER (seat = 'C') AS c,
           any_value(player) FILTER (seat = 'D') AS d, count(*) AS seats
    FROM game_players GROUP BY game_id) s USING (game_id)
WHERE g.player_a IS DISTINCT FROM s.a OR g.player_b IS DISTINCT FROM s.b
   OR g.player_c IS DISTINCT FROM s.c OR g.player_d IS DISTINCT FROM s.d
   OR s.seats <> g.n_players OR g.player_a IS NULL OR g.player_b IS NULL
"""

#: Games whose carried_pools differ from their rounds with something carried in.
DIFFERENT_POOLS = """
SELECT count(*) FROM games g LEFT JOIN (
    SELECT game_id, list(struct_pack(round_no := round_no, prize := prize,
                                     pool_value := pool_value,
                                     pool_cards := len(pool_cards)::TINYINT)
                         ORDER BY round_no) AS pools
    FROM rounds WHERE carried_in > 0 GROUP BY game_id) r USING (game_id)
WHERE CASE WHEN g.bid_cards = 1 AND g.open_prizes IS NULL
           THEN g.carried_pools IS DISTINCT FROM coalesce(r.pools, [])
           ELSE g.carried_pools IS NOT NULL END
"""


def _write(path: Path, games: int, seed: int, players: int, **rules) -> str:
    with path.open("w", encoding="utf-8") as out:
        write_simulation(out, games, seed, RuleProfile(players=players, **rules))
    return path.read_text(encoding="utf-8")


def test_they_repeat_the_games_rows(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    texts = [_write(folder / f"p{n}.gops", 30, n, n) for n in (2, 3, 4)]
    _write(folder / "bids.gops", 10, 5, 2, bid_cards=2)
    _write(folder / "open.gops", 10, 6, 2, open_prizes=3)
    # a game written twice in one file (the loader keeps one copy of its rows)
    (folder / "twice.gops").write_text(texts[1] + "\n" + texts[1], encoding="utf-8")
    db = tmp_path / "t.duckdb"
    import_paths([folder], db)
    # a file of games partly stored already: the loader finds the new ones by a join
    (tmp_path / "more.gops").write_text(texts[2] + "\n" + _write(tmp_path / "x.gops", 20, 9, 2),
                                        encoding="utf-8")
    summary = import_paths([tmp_path / "more.gops"], db)
    assert summary.games_new == 20 and summary.games_duplicate == 30
    with reading(db) as con:
        assert con.execute("SELECT count(DISTINCT n_players), count(*) FROM games"
                           ).fetchall() == [(3, 130)]
        assert con.execute(DIFFERENT).fetchall() == [(0,)]
        assert con.execute(DIFFERENT_POOLS).fetchall() == [(0,)]
        assert con.execute("SELECT sum(len(carried_pools)) > 50, count(carried_pools) FROM "
                           "games").fetchall() == [(True, 110)]


def test_an_upgrade_fills_them(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    _write(tmp_path / "a.gops", 25, 3, 3)
    import_paths([tmp_path / "a.gops"], db)
    con = connect(db)
    try:  # back to schema 10
        for column in ("player_a", "player_b", "player_c", "player_d", "carried_pools"):
            con.execute(f"ALTER TABLE games DROP COLUMN {column}")
        con.execute("DELETE FROM schema_migrations WHERE version >= 11")
    finally:
        con.close()
    with reading(db) as con:  # an upgraded copy in memory
        assert con.execute(DIFFERENT).fetchall() == [(0,)]
        assert con.execute(DIFFERENT_POOLS).fetchall() == [(0,)]
    connect(db).close()  # the upgrade in place
    with reading(db) as con:
        assert con.execute(DIFFERENT).fetchall() == [(0,)]
        assert con.execute(DIFFERENT_POOLS).fetchall() == [(0,)]
        assert con.execute("SELECT count(*) FROM games WHERE player_c IS NOT NULL"
                           ).fetchall() == [(25,)]
