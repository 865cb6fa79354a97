"""Game lists and one game round by round, plus the data-quality tables (imports, rejects)."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import polars as pl

from gops_records.core.dates import known_rows
from gops_records.core.game_refs import REF_DIGITS, parse_game_ids
from gops_records.core.store.db import run
from gops_records.games.gops.analytics.filters import CLASSIC, Filters, Variant, games_cte
from gops_records.games.gops.round_reading import BIDS, columns, read_rounds
from gops_records.games.gops.rules import OPEN_TAKES, OpenTakes, RoundResult, RuleProfile

#: Fixed columns of :attr:`GameDetail.rounds`; the bid columns (one per player) come between.
ROUND_COLUMNS = ("round_no", "prize", "pool_cards", "pool_value", "carried_in")
AFTER_BIDS = ("taken_by", "score", "comment")


@dataclass(frozen=True)
class GameDetail:
    """One game for the game viewer.

    ``header`` holds the game's facts (event, site, date, tie_rule, cards, n_players,
    bid_cards, open_prizes, variant (its :attr:`Variant.label`), result, winner, source,
    source_line, players, scores, and more); ``rounds`` has one row per round: round_no,
    prize, pool_cards (text such as '8+5'), pool_value, carried_in, one bid column per
    player (named as ``header['bid_columns']``; a bid of several cards: its strength),
    taken_by (player or 'tie'), score (running score after the round, e.g. '13-0'),
    comment. ``profile`` is the rules the game was played under and ``results`` its rounds
    as the engine's values, which :func:`variant_rounds` reads as `gops replay` does.
    """

    header: dict
    rounds: pl.DataFrame
    profile: RuleProfile
    results: tuple[RoundResult, ...]


def list_games(con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 200,
               player: str | None = None) -> pl.DataFrame:
    """The newest ``limit`` games the filters keep (and ``player`` played, if given).

    Newest date first (undated games last), then file order. ``players`` is the names in
    seat order joined by ' · '; ``result`` is '*' for an unfinished game; ``winner`` is
    a name, 'draw', or null while unfinished. Columns: game_id, date, event, match,
    players, result, winner, rounds_played, tie_rule, n_players, finished, source,
    source_game.
    """
    scope, params = games_cte(f, "g.game_id, g.date, g.event, g.match, g.result, g.winner, "
                                 "g.finished, g.rounds_played, g.tie_rule, g.n_players, "
                                 "g.source, g.source_game", con=con)
    extra = ""
    if player is not None:
        extra = "WHERE game_id IN (SELECT game_id FROM game_players WHERE player = ?)"
        params = [*params, player]
    # The page is materialized: read twice, inlined it would be planned over every game.
    return run(con, f"""WITH {scope},
        page AS MATERIALIZED (
            SELECT * FROM fg {extra}
            ORDER BY date DESC NULLS LAST, source, source_game LIMIT ?
        ),
        names AS (
            SELECT p.game_id, string_agg(p.player, ' · ' ORDER BY p.seat) AS players
            FROM game_players p SEMI JOIN page USING (game_id) GROUP BY p.game_id
        )
        SELECT page.game_id, date, event, match, names.players,
               coalesce(result, '*') AS result,
               coalesce(winner, CASE WHEN finished THEN 'draw' END) AS winner,
               rounds_played::INTEGER AS rounds_played, tie_rule,
               n_players::INTEGER AS n_players, finished, source, source_game
        FROM page LEFT JOIN names USING (game_id)
        ORDER BY date DESC NULLS LAST, source, source_game""",
               [*params, max(int(limit), 0)])


def game_ref_expr(column: str = "game_id") -> pl.Expr:
    """:func:`game_ref` of an id column (UInt64 or its decimal text), as a polars expression."""
    return pl.concat_str(pl.lit("g"), pl.col(column).cast(pl.UInt64).map_elements(
        lambda i: f"{i:016x}"[:REF_DIGITS], return_dtype=pl.String)).alias(column)


def game_detail(con: duckdb.DuckDBPyConnection, game_id: str | int) -> GameDetail | None:
    """The game with this id (a number, or its text) round by round, or None if there is
    no such game."""
    head = pl.DataFrame()
    for candidate in parse_game_ids(game_id):
        head = run(con, f"""SELECT game_id, event, site, date, date_text, round, match,
                                  tie_rule, cards::INTEGER AS cards, prize_order,
                                  n_players::INTEGER AS n_players,
                                  bid_cards::INTEGER AS bid_cards,
                                  open_prizes::INTEGER AS open_prizes, finished,
                                  rounds_played::INTEGER AS rounds_played,
                                  unclaimed::INTEGER AS unclaimed, result, winner, source,
                                  source_game, source_line, import_id
                           FROM {known_rows('games', 'g.game_id = ?', 'g')}""",
                   [candidate])
        if not head.is_empty():
            game_id = candidate
            break
    if head.is_empty():
        return None
    header = head.row(0, named=True)
    seats = run(con, "SELECT seat, player, score::INTEGER AS score, outcome FROM game_players "
                     "WHERE game_id = ? ORDER BY seat", [game_id])
    header["players"] = seats["player"].to_list()
    header["scores"] = seats["score"].to_list()
    header["outcomes"] = seats["outcome"].to_list()
    if header["result"] is None:
        header["result"] = "*"
    if header["winner"] is None and header["finished"]:
        header["winner"] = "draw"
    columns = _bid_columns(seats["seat"].to_list(), header["players"])
    header["bid_columns"] = list(columns.values())
    header["seats"] = list(columns)
    header["variant"] = Variant.of(header["bid_cards"], header["open_prizes"]).label
    header["tags"] = dict(run(con, "SELECT unnest(tags) AS e FROM games "
                                   "WHERE game_id = ?", [game_id])
                          .unnest("e").iter_rows())
    rounds = run(con, """SELECT round_no::INTEGER AS round_no, prize::INTEGER AS prize,
                                array_to_string(pool_cards, '+') AS pool_cards,
                                pool_value::INTEGER AS pool_value,
                                carried_in::INTEGER AS carried_in, winner_seat, comment,
                                pool_cards AS pool_list, bid_a, bid_b, bid_c, bid_d,
                                cards_a, cards_b, cards_c, cards_d, revealed, taken, discarded,
                                t.takes
                         FROM rounds LEFT JOIN round_takes t USING (game_id, round_no)
                         WHERE game_id = ? ORDER BY round_no""", [game_id])
    bids = run(con, "SELECT round_no::INTEGER AS round_no, seat, bid::INTEGER AS bid "
                    "FROM bids WHERE game_id = ?", [game_id])
    profile = RuleProfile(cards=header["cards"], players=header["n_players"],
                          tie_rule=header["tie_rule"], prize_order=header["prize_order"],
                          bid_cards=header["bid_cards"], open_prizes=header["open_prizes"],
                          open_takes=_open_takes(header["tags"], header["open_prizes"]))
    return GameDetail(header, _round_table(rounds, bids, seats, columns), profile,
                      _results(rounds, profile))


def _open_takes(tags: dict[str, str], open_prizes: int | None) -> OpenTakes:
    """Who takes from the open row, as the stored game's ``OpenTakes`` tag says (the
    reader stored the game only if the tag was valid for its profile)."""
    value = tags.get("OpenTakes", OpenTakes.WINNER.value)
    return OpenTakes(value) if open_prizes and value in OPEN_TAKES else OpenTakes.WINNER


def _results(rounds: pl.DataFrame, profile: RuleProfile) -> tuple[RoundResult, ...]:
    """The stored rounds as the engine's values (docs/schema.md, ``rounds``)."""
    seats = "abcd"[: profile.players]
    several = profile.bid_cards > 1
    return tuple(RoundResult(
        round_no=r["round_no"], prize=r["prize"],
        bids=tuple(r[f"bid_{s}"] for s in seats), pool_cards=tuple(r["pool_list"] or ()),
        carried_in=r["carried_in"],
        winner=None if r["winner_seat"] is None else ord(r["winner_seat"]) - ord("A"),
        cards=tuple(tuple(r[f"cards_{s}"]) for s in seats) if several else (),
        revealed=tuple(r["revealed"] or ()), taken=r["taken"], discarded=r["discarded"],
        open_row=profile.is_open, takes=tuple(r["takes"] or ()))
        for r in rounds.iter_rows(named=True))


def variant_rounds(detail: GameDetail) -> pl.DataFrame | None:
    """A game of a variant round by round as `gops replay` reads it
    (:mod:`gops_records.games.gops.round_reading`); None for a classic game (its table is
    :attr:`GameDetail.rounds`).

    Bids of several cards: round, prize, pool, value, one bid column per player (its cards
    and strength, ``9♣+4♣ = 13``), taken by, score, comment. Open prizes: round, revealed
    (what the top-up showed, ``(8 3 K)``), row (on offer), one bid column per player, taken
    (the prize, ``-`` for none), by (the taker, or what a tie did), set aside (the prize a
    tie discarded), score, comment. ``round`` and ``value`` are numbers, the rest text;
    the bid columns are named as ``header['bid_columns']``, unless a name is one of the
    other columns.
    """
    h = detail.header
    if Variant.of(h["bid_cards"], h["open_prizes"]) == CLASSIC:
        return None
    shown = columns(detail.profile)
    bid_names = list(_bid_columns(h["seats"], h["players"], {*shown, "comment"}).values())
    names = [c for name in shown for c in (bid_names if name == BIDS else (name,))]
    rows = [cells.row(shown) for cells in read_rounds(detail.profile, detail.results,
                                                      h["players"])]
    frame = pl.DataFrame(rows, orient="row", schema={
        c: pl.Int64 if c in ("round", "value") else pl.String
        for c in names})
    return frame.with_columns(detail.rounds["comment"])


def _bid_columns(seats: list[str], players: list[str],
                 fixed: set[str] | None = None) -> dict[str, str]:
    """Seat -> bid column name: the player's name, made unique and kept off the fixed
    names (``fixed``; by default those of :attr:`GameDetail.rounds`)."""
    taken = ({*ROUND_COLUMNS, *AFTER_BIDS, "winner_seat"} if fixed is None else {*fixed})
    out: dict[str, str] = {}
    for seat, name in zip(seats, players, strict=True):
        column = name if name not in taken and players.count(name) == 1 else f"{name} ({seat})"
        taken.add(column)
        out[seat] = column
    return out


def _round_table(rounds: pl.DataFrame, bids: pl.DataFrame, seats: pl.DataFrame,
                 columns: dict[str, str]) -> pl.DataFrame:
    """Rounds with one bid column per player, who took the pool and the running score."""
    name_of = dict(zip(seats["seat"], seats["player"], strict=True))
    table = rounds
    for seat, column in columns.items():
        mine = bids.filter(pl.col("seat") == seat).select("round_no", pl.col("bid").alias(column))
        table = table.join(mine, on="round_no", how="left")
    running = [
        pl.when(pl.col("winner_seat") == seat).then(pl.col("pool_value")).otherwise(0)
        .cum_sum().cast(pl.String)
        for seat in columns
    ]
    return table.sort("round_no").with_columns(
        pl.col("winner_seat").replace_strict(name_of, default="tie", return_dtype=pl.String)
        .alias("taken_by"),
        (pl.concat_str(running, separator="-") if running else pl.lit("")).alias("score"),
    ).select(*ROUND_COLUMNS, *columns.values(), *AFTER_BIDS)


def list_rejects(con: duckdb.DuckDBPyConnection, limit: int = 200) -> pl.DataFrame:
    """Quarantined records, newest import first, in file order.

    ``codes`` lists the distinct problem codes, ``first_error`` is the first problem as
    'line L, column C: message', ``errors`` every problem in the order found (a list of
    structs: code, message, line, column, round; line, column and round may be null).
    Columns: import_id, source, source_game, source_line, codes, first_error, raw_text,
    n_errors, reject_id, errors.
    """
    return run(con, """SELECT import_id, source, source_game, source_line,
                              array_to_string(list_sort(list_distinct(
                                  list_transform(errors, lambda e: e.code))), ', ') AS codes,
                              CASE WHEN len(errors) > 0 THEN
                                  'line ' || coalesce(errors[1].line::VARCHAR, '?')
                                  || ', column ' || coalesce(errors[1]."column"::VARCHAR, '?')
                                  || ': ' || errors[1].message
                              END AS first_error,
                              raw_text, len(errors) AS n_errors, reject_id, errors
                       FROM rejects
                       ORDER BY import_id DESC, source, source_game NULLS FIRST, reject_id
                       LIMIT ?""", [max(int(limit), 0)])
