"""One evening's results as a single printable HTML page: standings and matches.

Self-contained (styles inline, no script, no image, nothing fetched), so it can be saved,
mailed or printed from any browser. Every value is HTML-escaped (pandas' ``to_html``), so
a name cannot add markup to the page.
"""

from __future__ import annotations

import datetime as dt
import html

import polars as pl

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #111; background: #fff; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; }
p.lead { font-size: 1.05rem; margin-top: 0.2rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.95rem; }
th, td { border: 1px solid #bbb; padding: 0.25rem 0.6rem; text-align: right; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
footer { color: #555; font-size: 0.8rem; }
@media print { body { margin: 1cm; } a { color: inherit; } }
"""

STANDINGS_COLUMNS = {"player": "player", "games": "games", "wins": "won", "draws": "drawn",
                     "losses": "lost", "points_for": "points", "points_against": "against",
                     "point_diff": "±", "win_rate": "win rate", "ci": "95% interval"}
MATCH_COLUMNS = {"match": "match", "player": "player", "games": "games",
                 "total_points": "total points", "game_wins": "games won",
                 "cumulative_rank": "rank by points", "best_of_winner": "best-of winner",
                 "cumulative_winner": "winner on points", "match_games": "games in match"}


def _pct(column: str) -> pl.Expr:
    return (pl.col(column) * 100).round(0).cast(pl.Int64).cast(pl.String) + "%"


def _table(df: pl.DataFrame, columns: dict[str, str]) -> str:
    kept = df.select(pl.col(c).cast(pl.String).fill_null("").alias(columns[c])
                     for c in columns if c in df.columns)  # a blank, not None
    return kept.to_pandas().to_html(index=False, escape=True, border=0)


def session_page(evening: str, winners: str, standings: pl.DataFrame,
                 matches: pl.DataFrame, *, game: str, now: dt.datetime | None = None) -> str:
    """The page for one evening of ``game`` (its title, e.g. in the heading "… results:"):
    its name, who won (plain text), the standings (player, games, wins, draws, losses,
    points_for, points_against, point_diff, win_rate, ci_low, ci_high) and the matches
    (the columns of :data:`MATCH_COLUMNS`)."""
    table = standings.with_columns(
        _pct("win_rate").alias("win_rate"),
        pl.concat_str(_pct("ci_low"), pl.lit("–"), _pct("ci_high")).alias("ci"),
        pl.when(pl.col("point_diff") > 0).then(pl.lit("+")).otherwise(pl.lit(""))
        .add(pl.col("point_diff").cast(pl.String)).alias("point_diff"))
    when = (now or dt.datetime.now()).strftime("%Y-%m-%d %H:%M")
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(game)} results: {html.escape(evening)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(game)} results: {html.escape(evening)}</h1>",
        f'<p class="lead">{html.escape(winners)}</p>' if winners else "",
        "<h2>Standings</h2>",
        _table(table, STANDINGS_COLUMNS) if not table.is_empty()
        else "<p>No game of this evening is finished yet.</p>",
    ]
    if not matches.is_empty():
        parts += ["<h2>Matches</h2>", _table(matches, MATCH_COLUMNS)]
    parts += [f"<footer>Finished games only. Made by gops-records on {when}.</footer>",
              "</body></html>"]
    return "\n".join(p for p in parts if p)
