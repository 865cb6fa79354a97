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

from gops_records.cards import Seat, card_text, rank_name
from gops_records.report import GameReport
from gops_records.rules import RoundResult, RuleProfile, TieRule

#: Column gap of the table.
GAP = "  "


def rules_text(profile: RuleProfile) -> str:
    """The rules a game is played under, as the table's title line ends."""
    text = (f"{profile.cards} cards, tie rule {profile.tie_rule.value}, "
            f"prizes {profile.prize_order.value}")
    if profile.bid_cards > 1:
        text += f", bids of {profile.bid_cards} cards ({profile.rounds} rounds)"
    if profile.open_prizes is not None:
        text += f", open prizes (a row of {profile.open_prizes})"
    return text


def bid_text(r: RoundResult, seat: int) -> str:
    """A seat's bid: its card (``J``), or its cards and strength (``9♣+4♣ = 13``)."""
    cards = r.cards[seat] if r.cards else (r.bids[seat],)
    if len(cards) <= 1:
        return rank_name(r.bids[seat])
    suit = Seat.at(seat).suit
    return "+".join(card_text(c, suit) for c in cards) + f" = {r.bids[seat]}"


def _tie_text(profile: RuleProfile, r: RoundResult) -> str:
    """What a tied round did with what was on offer."""
    if r.round_no >= profile.rounds:
        return "tie: unclaimed"
    if profile.open_prizes is not None:
        return "tie: row stays" if profile.tie_rule is TieRule.CARRY else "tie: set aside"
    return "tie: carried" if profile.tie_rule is TieRule.CARRY else "tie: unclaimed"


def _cells(report: GameReport, r: RoundResult, running: list[int]) -> list[str]:
    """One played round's cells (the running score updated), in the header's order."""
    profile, names = report.profile, report.players
    if r.winner is not None:
        running[r.winner] += r.pool_value
    by = names[r.winner] if r.winner is not None else _tie_text(profile, r)
    bids = [bid_text(r, seat) for seat in range(len(names))]
    score = "-".join(map(str, running))
    if profile.open_prizes is None:
        pool = "+".join(rank_name(c) for c in r.pool_cards)
        return [str(r.round_no), rank_name(r.prize), pool, str(r.pool_value), *bids, by, score]
    revealed = "(" + " ".join(rank_name(c) for c in r.revealed) + ")"
    row = " ".join(rank_name(c) for c in r.pool_cards)
    taken = rank_name(r.taken) if r.taken else "-"
    aside = rank_name(r.discarded) if r.discarded else ""
    return [str(r.round_no), revealed, row, *bids, taken, by, aside, score]


def _header(report: GameReport) -> list[str]:
    names = report.players
    if report.profile.open_prizes is None:
        return ["round", "prize", "pool", "value", *names, "taken by", "score"]
    return ["round", "revealed", "row", *names, "taken", "by", "set aside", "score"]


def _left(header: list[str]) -> set[int]:
    """The columns written left-aligned (text); numbers and cards are right-aligned."""
    return {i for i, name in enumerate(header)
            if name in ("pool", "revealed", "row", "taken by", "by", "set aside", "score")}


def render_replay(report: GameReport, title: str) -> str:
    """The round-by-round table `gops replay` prints, then the outcome and the problems."""
    profile, names = report.profile, report.players
    where = f" (line {report.record.line})" if report.record.line else ""
    lines = [f"{title}{where}: " + " v ".join(names) + f" | {rules_text(profile)}", ""]
    header = _header(report)
    played = {r.round_no: r for r in report.rounds}
    running = [0] * len(names)
    table: list[list[str] | str] = []
    for number in range(1, len(report.record.rounds) + 1):
        r = played.get(number)
        table.append(f"{number:>5}  illegal round, skipped (see problems below)" if r is None
                     else _cells(report, r, running))
    rows = [row for row in table if isinstance(row, list)]
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    for i, name in enumerate(header):
        if name in names:
            widths[i] = max(widths[i], 6)
    left = _left(header)

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
