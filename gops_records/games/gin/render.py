"""The text ``gops replay`` prints for a Gin Rummy hand or score sheet.

A hand turn by turn (who played, the draw, the discard, going out, the least deadwood the
player holds after it and the stock left), the spreads, the outcome and its points; a
sheet hand by hand with what the rules score for each line and the running totals, then
the game score and how it is made. Problems follow, at their lines and columns.
"""

from __future__ import annotations

from gops_records.games.gin.cards import cards_text
from gops_records.games.gin.checking import GinRecord
from gops_records.games.gin.frames import walk
from gops_records.games.gin.notation import DrawKind
from gops_records.games.gin.replay import HandReport
from gops_records.games.gin.rules import Outcome, Players, Seat
from gops_records.games.gin.sheet import rank_text
from gops_records.games.gin.sheet_check import SheetReport, explain

_HOW = {Outcome.KNOCK: "knock", Outcome.GIN: "gin", Outcome.BIG_GIN: "big gin",
        Outcome.UNDERCUT: "undercut", Outcome.DRAW: "drawn hand"}


def _names(tags: dict[str, str]) -> dict[Seat, str]:
    return {Seat.A: tags.get("A") or "A", Seat.B: tags.get("B") or "B"}


def _problems(record: GinRecord) -> list[str]:
    if not record.problems:
        return []
    return ["", "Problems:"] + [f"  line {p.line}:{p.column}: {p.code}: {p.message}"
                                for p in record.problems]


def _where(record: GinRecord, at_line: bool) -> str:
    return f" (line {record.line})" if at_line else ""


def render_hand(record: GinRecord, title: str, at_line: bool = True) -> str:
    """A full hand turn by turn (turns after its first illegal one are not played);
    ``at_line``: the title names the record's line in its file."""
    report = record.report
    assert isinstance(report, HandReport)
    rec, hand = report.record, report.hand
    tags = dict(rec.tags)
    names = _names(tags)
    head = f"{title}{_where(record, at_line)}: {names[Seat.A]} v {names[Seat.B]}"
    if hand is None:
        return "\n".join([head, "", "The deal cannot be read: nothing is played.",
                          *_problems(record)])
    limit = f"knock limit {hand.limit}" if hand.limit is not None else "no knock (ace)"
    rows = [f"{head} | dealer {names[hand.dealer]}, upcard {hand.upcard} ({limit}), runs "
            f"{hand.profile.runs.value}", ""]
    header = f"{'turn':>4}  {'player':<{_width(names)}}  {'draw':<8} {'discard':<8} " \
             f"{'out':<7} {'deadwood':>8}  {'stock':>5}"
    rows += [header, "-" * len(header)]
    stop = min((p.round for p in report.problems if p.round), default=None)
    played = stop - 1 if stop is not None else None
    for state in walk(report, played):
        turn = state.turn
        draw = "pass" if turn.draw is DrawKind.PASS else \
            f"{'s' if turn.draw is DrawKind.STOCK else 'p'}:{state.taken}"
        rows.append(f"{state.number:>4}  {names[state.seat]:<{_width(names)}}  {draw:<8} "
                    f"{str(turn.discard or ''):<8} {turn.out.value if turn.out else '':<7} "
                    f"{state.deadwood:>8}  {state.stock_left:>5}")
    if stop is not None and stop <= len(rec.turns):
        rows.append(f"{stop:>4}  illegal turn: not played (see the problems below)")
    rows.append("")
    rows += _ending(report, names)
    return "\n".join(rows + _problems(record))


def _width(names: dict[Seat, str]) -> int:
    return max(6, *(len(n) for n in names.values()))


def _ending(report: HandReport, names: dict[Seat, str]) -> list[str]:
    result, hand, rec = report.result, report.hand, report.record
    if result is None:
        return [f"Unfinished after {len(rec.turns)} turns."] if report.valid else \
            ["No result: the hand has problems."]
    if result.outcome is Outcome.DRAW:
        return [f"Drawn: the stock is down to {result.stock_left} cards, nobody went out "
                "(0-0)."]
    assert hand is not None and result.went_out is not None
    out = result.went_out
    melds = " ".join(m.text for m in hand.out_melds)
    kind = {Outcome.UNDERCUT: "knocks"}.get(result.outcome, {
        Outcome.KNOCK: "knocks", Outcome.GIN: "goes gin", Outcome.BIG_GIN: "goes big gin"}.get(
        result.outcome, ""))
    last = rec.turns[-1]
    lines = [f"{names[out]} {kind}: {melds}"
             + (f" {cards_text(last.unmatched)}" if last.unmatched else "")
             + f", deadwood {result.out_deadwood}"]
    response = rec.response
    if response is not None:
        off = f"lays off {cards_text(response.layoffs)}; " if response.layoffs else ""
        own = " ".join(f"({cards_text(m)})" for m in response.melds) or "no meld"
        lines.append(f"{names[out.other]} {off}melds {own}; deadwood "
                     f"{result.defender_after}"
                     + (f" ({result.defender_before} before laying off)"
                        if result.defender_before != result.defender_after else ""))
    assert result.winner is not None
    lines.append(f"Outcome: {_HOW[result.outcome]}: {names[result.winner]} scores "
                 f"{result.points} ({result.scores[0]}-{result.scores[1]})")
    return lines


def render_sheet(record: GinRecord, title: str, at_line: bool = True) -> str:
    """A score sheet hand by hand, each line scored by the rules, then the game."""
    report = record.report
    assert isinstance(report, SheetReport)
    sheet = report.record
    tags = dict(sheet.tags)
    names = _names(tags)
    rows = [f"{title}{_where(record, at_line)}: {names[Seat.A]} v {names[Seat.B]} | match "
            f"{tags.get('Match', '?')}, game {tags.get('Game', '?')}", ""]
    header = f"{'hand':>4}  {'dealer':<{_width(names)}}  {'up':>2}  {'how':<22} " \
             f"{'scored':<22} {'totals':>9}"
    rows += [header, "-" * len(header)]
    totals = [0, 0]
    for number, (line, result) in enumerate(zip(sheet.lines, report.results, strict=False),
                                            1):
        how = "draw" if line.seat is None else \
            f"{names[line.seat]} {line.out.value}" + (
                f" {line.deadwood}" if line.deadwood is not None else "") + \
            f" v {line.opponent}"
        totals[0] += result.scores[0]
        totals[1] += result.scores[1]
        scored = "-" if result.winner is None else \
            f"{_HOW[result.outcome]}: {names[result.winner]} {result.points}"
        rows.append(f"{number:>4}  {names[line.dealer]:<{_width(names)}}  "
                    f"{rank_text(line.upcard):>2}  {how:<22} {scored:<22} "
                    f"{totals[0]:>4}-{totals[1]:<4}".rstrip())
    rows.append("")
    if report.score is not None:
        score = report.score
        rows.append(f"Game: {names[score.winner]} wins {score.points}: "
                    f"{explain(score, report.profile, Players.of(tags.get))}")
    elif report.game is not None:
        rows.append(f"Unfinished: nobody has reached 100 ({totals[0]}-{totals[1]}).")
    else:
        rows.append("No result: the sheet cannot be read.")
    return "\n".join(rows + _problems(record))


def render(record: GinRecord, title: str, at_line: bool = True) -> str:
    """``gops replay``'s text of a hand or a sheet (``at_line``: name its line in its file;
    a record rebuilt from the database has none)."""
    draw = render_hand if record.kind == "hand" else render_sheet
    return draw(record, title, at_line)
