"""Best-of-N matches (``[BestOf "N"]``): who won each match by games, which game decided
it, games played after it was decided, and the replays of drawn games.

A match is, as in :func:`gops_records.games.gops.analytics.results.match_results`, the
finished games of one event and date with the same Match tag; here only matches whose
games carry a BestOf tag. Its games are taken in the order they were recorded (import,
file, place in the file) and scored by :func:`gops_records.games.gops.matches.decide_match`:
one small query, then a few rows a match in Python (a match has a handful of games).
The 3-game cumulative total of the English text stays in ``match_results``.
"""

from __future__ import annotations

import duckdb
import polars as pl

from gops_records.core.store.db import run
from gops_records.games.gops.analytics.filters import Filters, games_cte
from gops_records.games.gops.matches import MatchGame, decide_match

#: Columns of :func:`best_of_games`.
GAME_COLUMNS = {"event": pl.String, "date": pl.Date, "match": pl.String, "best_of": pl.Int64,
                "game_no": pl.Int64, "game_id": pl.UInt64, "winner": pl.String,
                "counted": pl.Boolean, "after_decided": pl.Boolean,
                "replay_of": pl.UInt64}
#: Columns of :func:`best_of_matches`.
MATCH_COLUMNS = {"event": pl.String, "date": pl.Date, "match": pl.String, "best_of": pl.Int64,
                 "games": pl.Int64, "winner": pl.String, "score": pl.String,
                 "decided_at": pl.Int64, "after_decided": pl.Int64, "replays": pl.Int64}


def _match_rows(con: duckdb.DuckDBPyConnection, f: Filters, limit: int | None) -> pl.DataFrame:
    """The finished games of best-of matches in scope, match by match (newest first),
    each match's games in the order recorded."""
    scope, params = games_cte(
        f, "g.game_id, g.event, g.date, g.match, g.import_id, g.source, g.source_game, "
           "g.winner, [g.player_a, g.player_b, g.player_c, g.player_d] AS seats, "
           "try_cast(tag(g.tags, 'BestOf') AS BIGINT) AS best_of",
        con=con)
    keep, extra = "", []
    if limit is not None:
        keep, extra = "QUALIFY mid <= ?", [max(int(limit), 0)]
    return run(con, f"""WITH {scope},
        bo AS (SELECT * FROM fg WHERE match IS NOT NULL AND best_of IS NOT NULL),
        ids AS (
            SELECT event, date, match,
                   row_number() OVER (ORDER BY date DESC NULLS LAST, event NULLS LAST,
                                      try_cast(match AS BIGINT) NULLS LAST, match) AS mid
            FROM bo GROUP BY event, date, match {keep}
        )
        SELECT ids.mid, bo.event, bo.date, bo.match, bo.best_of, bo.game_id, bo.winner,
               list_filter(bo.seats, lambda p: p IS NOT NULL) AS players
        FROM bo JOIN ids ON bo.match = ids.match AND bo.event IS NOT DISTINCT FROM ids.event
                          AND bo.date IS NOT DISTINCT FROM ids.date
        JOIN games g USING (game_id)
        WHERE g.finished
        ORDER BY ids.mid, bo.import_id, bo.source, bo.source_game""", [*params, *extra])


def best_of_games(con: duckdb.DuckDBPyConnection, f: Filters,
                  limit: int | None = None) -> pl.DataFrame:
    """Every finished game of a best-of match, with its place in the match: ``game_no``
    (1-based, in the order recorded), whether it ``counted`` (a decisive game before the
    match was decided), whether it came ``after_decided``, and ``replay_of``: the drawn
    game it replays (the game before it in the match, when that was a draw). A match's
    N is its games' largest BestOf. ``limit`` keeps the newest matches.
    Columns: :data:`GAME_COLUMNS`."""
    rows = _match_rows(con, f, limit)
    out: dict[str, list] = {name: [] for name in GAME_COLUMNS}
    for part in rows.partition_by("mid", maintain_order=True):
        games = [MatchGame(tuple(p), w) for p, w in zip(part["players"].to_list(),
                                                         part["winner"].to_list(), strict=True)]
        best_of = int(part["best_of"].max())
        verdict = decide_match(best_of, games)
        ids = part["game_id"].to_list()
        first = part.row(0, named=True)
        for i, game_id in enumerate(ids):
            for key in ("event", "date", "match"):
                out[key].append(first[key])
            out["best_of"].append(best_of)
            out["game_no"].append(i + 1)
            out["game_id"].append(game_id)
            out["winner"].append(games[i].winner)
            out["counted"].append(verdict.counted[i])
            out["after_decided"].append(verdict.after[i])
            replayed = verdict.replays[i]
            out["replay_of"].append(ids[replayed - 1] if replayed else None)
    return pl.DataFrame(out, schema=GAME_COLUMNS)


def best_of_matches(con: duckdb.DuckDBPyConnection, f: Filters,
                    limit: int | None = None) -> pl.DataFrame:
    """Each best-of match in scope, newest first: its N, finished games, the ``winner`` by
    games (None while undecided), the ``score`` in games won (``Alice 2, Bruno 1``, most
    first), the game that decided it (``decided_at``, 1-based), and how many games came
    after that (``after_decided``) or replayed a draw (``replays``).
    Columns: :data:`MATCH_COLUMNS`."""
    rows = _match_rows(con, f, limit)
    out: dict[str, list] = {name: [] for name in MATCH_COLUMNS}
    for part in rows.partition_by("mid", maintain_order=True):
        games = [MatchGame(tuple(p), w) for p, w in zip(part["players"].to_list(),
                                                         part["winner"].to_list(), strict=True)]
        verdict = decide_match(int(part["best_of"].max()), games)
        first = part.row(0, named=True)
        for key in ("event", "date", "match"):
            out[key].append(first[key])
        out["best_of"].append(verdict.best_of)
        out["games"].append(len(games))
        out["winner"].append(verdict.winner)
        ranked = sorted(verdict.wins.items(), key=lambda kv: (-kv[1], kv[0]))
        out["score"].append(", ".join(f"{name} {won}" for name, won in ranked))
        out["decided_at"].append(verdict.decided_at)
        out["after_decided"].append(sum(verdict.after))
        out["replays"].append(sum(r is not None for r in verdict.replays))
    return pl.DataFrame(out, schema=MATCH_COLUMNS)
