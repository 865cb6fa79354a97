"""The round-by-round table `gops replay` prints, for the classic game and both variants.

Classic games and bids of several cards show each round's prize, the pool on offer, each
bid, who took the pool and the running score; a bid of several cards shows its cards and
its strength (``9♣+4♣ = 13``, each seat's cards in its suit as the canonical writer spells
them). Games with open prizes have no pool: their table shows what the top-up revealed, the
row on offer, each bid, the prize taken and by whom, and under the discard rule the prize
a tie set aside. Everything shown comes from the replay (:class:`GameReport`); nothing
here knows the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gops_records.games.gops.round_reading import BIDS, columns, read_rounds, rules_text

if TYPE_CHECKING:  # gops_records.games.gops.report, imported first, closes a circle with notation
    from gops_records.games.gops.report import GameReport

#: Column gap of the table.
GAP = "  "
#: The columns written left-aligned (text); numbers and cards are right-aligned.
LEFT = ("pool", "revealed", "row", "taken by", "by", "set aside", "score")


def render_replay(report: GameReport, title: str) -> str:
    """The round-by-round table `gops replay` prints, then the outcome and the problems."""
    profile, names = report.profile, report.players
    where = f" (line {report.record.line})" if report.record.line else ""
    lines = [f"{title}{where}: " + " v ".join(names) + f" | {rules_text(profile)}"
             + _match_text(report), ""]
    shown = columns(profile)
    kinds = [kind for name in shown for kind in ([BIDS] * len(names) if name == BIDS
                                                  else [name])]
    header = [h for name in shown for h in (names if name == BIDS else (name,))]
    played = {r.round_no: [str(c) for c in cells.row(shown)]
              for r, cells in zip(report.rounds, read_rounds(profile, report.rounds, names),
                                  strict=True)}
    table: list[list[str] | str] = [
        played.get(number, f"{number:>5}  illegal round, skipped (see problems below)")
        for number in range(1, len(report.record.rounds) + 1)]
    rows = [row for row in table if isinstance(row, list)]
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    widths = [max(w, 6) if kind == BIDS else w for w, kind in zip(widths, kinds, strict=True)]
    left = {i for i, kind in enumerate(kinds) if kind in LEFT}

    def line(cells: list[str]) -> str:
        return GAP.join(cell.ljust(w) if i in left else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    top = line(header)
    lines += [top, "-" * len(top)]
    lines += [row if isinstance(row, str) else line(row) for row in table]
    lines.append("")
    lines += _outcome(report)
    if report.problems:
        lines += ["", "Problems:"]
        lines += [f"  line {p.line}:{p.column}: {p.code}: {p.message}" for p in report.problems]
    return "\n".join(lines)


def _outcome(report: GameReport) -> list[str]:
    names, profile = report.players, report.profile
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, report.outcome.scores, strict=False))
    written = len(report.record.rounds)
    if not report.valid:
        return [f"No result: the game has problems. The replay played {len(report.rounds)} of "
                f"its {written} rounds" + (f" (the first skipped: round {report.first_skipped})"
                                           if report.first_skipped else "")
                + f", which give {scores}"]
    if report.finished:
        verdict = f"{report.winner} wins" if report.winner else "draw"
        return [f"Outcome: {scores}; unclaimed {report.outcome.unclaimed}: {verdict}"]
    return [f"Unfinished after {written} of {profile.rounds} rounds: {scores}"]


def _match_text(report: GameReport) -> str:
    """`` | match 1, best of 3`` for a game of a match (its Match and BestOf tags)."""
    match = report.record.tag("Match")
    if match is None:
        return ""
    best_of = report.record.tag("BestOf")
    return f" | match {match}" + (f", best of {best_of}" if best_of else "")
