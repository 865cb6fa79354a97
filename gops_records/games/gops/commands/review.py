"""`gops review`: each bid of a recorded game against the equilibrium (theory/review.py)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated

import typer

from gops_records.cli.app import fail, fail_on
from gops_records.cli.options import DbOption
from gops_records.core.errors import GopsError
from gops_records.games.gops.theory.position import Objective

#: Kept in step with review.DEFAULT_ROUNDS and MAX_ROUNDS (the library is loaded lazily).
DEFAULT_ROUNDS = {"points": 8, "win": 7}
MAX_ROUNDS = 8


def review(
    what: Annotated[str | None, typer.Argument(
        metavar="REF|FILE", show_default=False,
        help="A stored game's reference or id, or a .gops file (every game in it). "
        "Leave out with --player: every stored game of the player.")] = None,
    db: DbOption = None,
    objective: Annotated[Objective, typer.Option(
        "--objective", help="points: expected point difference; win: P(ahead) - P(behind) "
        "at the end.")] = Objective.POINTS,
    player: Annotated[str | None, typer.Option(
        "--player", metavar="NAME", show_default=False,
        help="Summarise this player's mean cost per bid, per evening.")] = None,
    rounds: Annotated[int | None, typer.Option(
        "--rounds", min=1, max=MAX_ROUNDS, show_default=False, help="Analyse the last K "
        "rounds (a game of at most K cards whole); default 8 for points, 7 for win.")
    ] = None,
    tablebase: Annotated[Path | None, typer.Option(
        "--tablebase", metavar="DIR", show_default=False,
        help="Folder of solved values (default: beside the database, <db>.tablebase).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Review recorded games against the equilibrium: what each bid gave away.

    For each analysed round: the position's value before the reveal, both players'
    equilibrium mixes for the prize revealed, and the cost of each bid (what it gives away
    against an opponent playing the equilibrium that punishes it most: 0 for a bid some
    equilibrium plays). Then each player's accuracy and the costliest bids. A 13-card game
    is analysed from the round where K cards are left (--rounds; default 8 for points, 7
    for win), without the value before the reveal of that first round; a game of at most
    K cards whole. Solved values are kept in the tablebase, so a second review
    solves nothing. Two-player games of one-card bids only. See docs/theory.md.

    Example:

        gops review g3f2a9c0 --db club.duckdb

        gops review club/2026-11-26.gops --objective win --json

        gops review --player "Rosa Bakker" --db club.duckdb
    """
    from gops_records.core.store.db import resolve_db
    from gops_records.games.gops.theory import review as lib
    from gops_records.games.gops.theory import review_store
    from gops_records.games.gops.theory.tablebase import beside
    from gops_records.games.gops.theory.tablebase import tablebase as open_tablebase

    if what is None and player is None:
        fail("give a game (REF|FILE), or --player NAME to review a player's stored games")
    rounds = rounds or DEFAULT_ROUNDS[objective.value]
    folder = tablebase or beside(resolve_db(db))
    store = open_tablebase(folder)
    try:
        games = _games(what, db, player)
        results = lib.review_games([report for _, report in games], objective, rounds, store)
    except GopsError as exc:
        fail_on(exc)
    stored = {gid: r for (gid, _), r in zip(games, results, strict=True)
              if gid is not None and isinstance(r, lib.GameReview)}
    with contextlib.suppress(OSError):  # a read-only folder: shown, not kept
        review_store.keep(folder, objective, rounds, stored)
    reviews = [r for r in results if isinstance(r, lib.GameReview)]
    if len(results) == 1 and not reviews:
        fail(str(results[0]))
    evenings = lib.player_evenings(reviews, player) if player else None
    if player and not evenings:
        fail(f"{player!r} made no analysed bid of choice in these games (names must match "
             "the records exactly)")
    if as_json:
        print(json.dumps(as_json_object(games, results, evenings), ensure_ascii=False))
    else:
        print(text(games, results, evenings))


def _games(what: str | None, db, player: str | None) -> list[tuple[int | None, object]]:
    """(stored game id or None for a file's game, GameReport) of what the user named."""
    from gops_records.core.game_refs import looks_like_game
    from gops_records.core.games_query import GameFilter
    from gops_records.core.replay_lookup import Found, choose
    from gops_records.core.sources import read_text
    from gops_records.core.store.db import reading
    from gops_records.games.gops.export import iter_records
    from gops_records.games.gops.games import find_games, game_matches, games_close
    from gops_records.games.gops.reading import read_reports
    from gops_records.games.gops.validate import validate_game

    if what is not None and Path(what).exists():
        return [(None, report) for report in read_reports(read_text(Path(what), "utf-8"))]
    if what is not None and not looks_like_game(what):
        fail(f"{what!r} is neither a file nor a game reference (g and 4 to 16 hex digits) "
             "or id")
    with reading(db) as con:
        if what is not None:
            found = choose(what, [Found("gops", kind, gid) for kind, gid in
                                  game_matches(con, what)], games_close(con, what))
            ids = [found.id]
        else:
            ids = [g.game_id for g in find_games(con, GameFilter(players=(player,)))[0]]
        return [(gid, validate_game(next(iter_records(con, GameFilter(game_ids=(gid,))))))
                for gid in ids]


def _clean(x: float) -> float:
    return 0.0 if abs(x) < 1e-12 else x


def _value(x: float | None) -> str:
    """A value before the reveal as text ('-' where it was not computed)."""
    return "      -" if x is None else f"{_clean(x):+7.3f}"


def as_json_object(games, results, evenings) -> dict:
    from gops_records.games.gops.theory.review import GameReview

    out_games = []
    for (gid, report), result in zip(games, results, strict=True):
        if not isinstance(result, GameReview):
            out_games.append({"players": report.players, "error": str(result)})
            continue
        out_games.append(_game_json(gid, result))
    out: dict = {"games": out_games}
    if evenings is not None:
        out["player"] = [{"player": e.player, "date": e.date, "games": e.games, "bids": e.bids,
                          "mean_cost": e.mean_cost, "low": e.low, "high": e.high}
                         for e in evenings]
    return out


def _game_json(gid, review) -> dict:
    from gops_records.core.game_refs import game_ref

    s = review.setting
    return {
        "ref": game_ref(gid) if gid is not None else None,
        "players": list(review.players), "date": review.date, "cards": s.cards,
        "tie_rule": s.tie_rule.value, "objective": s.objective.value, "order": s.order.value,
        "rounds_played": review.rounds_played, "first_round": review.first_round,
        "accuracy": {seat: review.accuracy(seat) for seat in ("A", "B")},
        "mean_cost": {seat: review.mean_cost(seat)[0] for seat in ("A", "B")},
        "bids_of_choice": {seat: review.mean_cost(seat)[1] for seat in ("A", "B")},
        "costliest": [_bid_json(b) for b in review.costliest()],
        "rounds": [{
            "round": r.round_no, "prize": r.prize, "pool": r.pool, "lead": r.lead,
            "hand_a": list(r.hand_a), "hand_b": list(r.hand_b),
            "prizes_left": list(r.prizes_left),
            "value": None if r.value is None else _clean(r.value),
            "prize_value": _clean(r.prize_value),
            "mix_a": _mix(r.hand_a, r.mix_a), "mix_b": _mix(r.hand_b, r.mix_b),
            "bids": [_bid_json(b) for b in r.bids]} for r in review.rounds],
    }


def _mix(hand, mix) -> list[dict]:
    return [{"card": c, "probability": p} for c, p in zip(hand, mix, strict=True)]


def _bid_json(b) -> dict:
    return {"round": b.round_no, "seat": b.seat, "player": b.player, "card": b.card,
            "cost": b.cost, "accuracy": b.accuracy, "probability": b.probability,
            "choice": b.choice}


def text(games, results, evenings) -> str:
    from gops_records.core.game_refs import game_ref
    from gops_records.games.gops.theory.review import GameReview

    lines: list[str] = []
    for (gid, report), result in zip(games, results, strict=True):
        title = " vs ".join(report.players[:2]) + (f" ({game_ref(gid)})" if gid else "")
        if not isinstance(result, GameReview):
            lines += [title, f"  not reviewed: {result}", ""]
            continue
        lines += _game_text(title, result)
    if evenings:
        unit = "points" if (r := next((x for x in results if isinstance(x, GameReview)),
                                      None)) and r.setting.objective is Objective.POINTS \
            else "win minus loss"
        lines.append(f"{evenings[0].player}: mean cost per bid of choice ({unit}), per evening")
        for e in evenings:
            ci = f"[{e.low:.3f}, {e.high:.3f}]" if e.low is not None else "(one bid)"
            lines.append(f"  {e.date}  {e.mean_cost:.3f} {ci}  bids {e.bids}, games {e.games}")
    return "\n".join(lines).rstrip()


def _game_text(title: str, review) -> list[str]:
    s = review.setting
    unit = "points" if s.objective is Objective.POINTS else "win minus loss"
    lines = [title, f"  {s.cards} cards, tie rule {s.tie_rule.value}, objective "
             f"{s.objective.value} ({unit}, A's side); rounds {review.first_round}.."
             f"{review.rounds_played} analysed"]
    for r in review.rounds:
        a, b = r.bids
        lines.append(f"  {r.round_no:>2}. prize {r.prize:>2} pool {r.pool:>2} lead {r.lead:+}"
                     f"  value {_value(r.value)}  A {a.card} cost {a.cost:.3f}"
                     f"  B {b.card} cost {b.cost:.3f}")
        for seat, hand, mix in (("A", r.hand_a, r.mix_a), ("B", r.hand_b, r.mix_b)):
            plays = "  ".join(f"{c}: {p:.0%}" for c, p in zip(hand, mix, strict=True)
                              if p > 1e-9)
            lines.append(f"        {seat} mix  {plays}")
    for seat, name in zip(("A", "B"), review.players, strict=True):
        acc = review.accuracy(seat)
        mean, count = review.mean_cost(seat)
        lines.append(f"  {name} ({seat}): accuracy "
                     f"{'-' if acc is None else f'{acc:.1f}'}, mean cost "
                     f"{'-' if mean is None else f'{mean:.3f}'} over {count} bids of choice")
    costly = review.costliest()
    if costly:
        lines.append("  costliest: " + "; ".join(
            f"round {b.round_no} {b.player} bid {b.card} ({b.cost:.3f})" for b in costly))
    lines.append("")
    return lines
