"""Validation by replay: every game record is played through the engine.

All problems of a game are collected, never just the first: the parser's syntax
problems, unreadable tags, cards of the wrong suit, every illegal round, a result
written for an unfinished game, a result that differs from the replayed points. An
illegal round is reported and skipped, and the replay goes on with the next one, so
one mistake does not hide the others (a wrong result is only reported when every round
was read and played under readable rules, where the replayed points mean something).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gops_records.cards import Seat, Suit, rank_name
from gops_records.errors import GameOver, RuleError
from gops_records.notation.model import GameRecord, Problem, RoundRecord, Span
from gops_records.notation.writer import format_result
from gops_records.rules import Game, Outcome, PrizeOrder, RoundResult, RuleProfile, TieRule

_DATE = re.compile(r"^(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)$")
_RESULT = re.compile(r"^\d+(?:-\d+)+$")


@dataclass(frozen=True, slots=True)
class GameReport:
    """A replayed game: its record and profile, what happened, and what is wrong."""

    record: GameRecord
    profile: RuleProfile
    rounds: tuple[RoundResult, ...]
    outcome: Outcome
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def finished(self) -> bool:
        """All N rounds are written (and, for a valid game, were played).

        A record with more than N rounds is finished too: its extra rounds are
        ``too-many-rounds`` problems, the N rounds before them were played.
        """
        return len(self.record.rounds) >= self.profile.cards

    @property
    def players(self) -> list[str]:
        return self.record.players

    @property
    def winner(self) -> str | None:
        """The winner's name; None for a draw or an unfinished game."""
        if not self.finished or self.outcome.winner is None:
            return None
        return self.players[self.outcome.winner]

    @property
    def unclaimed(self) -> int | None:
        return self.outcome.unclaimed if self.finished else None

    def as_json(self, source: str, game_no: int) -> dict:
        """The object `gops validate --json` prints for this game (keys are a contract)."""
        return {
            "source": source,
            "game": game_no,
            "line": self.record.line,
            "players": self.players,
            "valid": self.valid,
            "finished": self.finished,
            "rounds": len(self.record.rounds),
            "scores": list(self.outcome.scores),
            "unclaimed": self.unclaimed,
            "winner": self.winner,
            "errors": [p.as_dict() for p in self.problems],
        }


def profile_of(record: GameRecord) -> tuple[RuleProfile, list[Problem]]:
    """The rule profile a record's tags ask for, and problems with unreadable tag values.

    An unreadable value is reported and replaced by the default, so the replay can go on.
    """
    problems: list[Problem] = []
    tags = record.tags

    def bad(tag: str, message: str) -> None:
        span = record.tag_spans.get(tag)
        problems.append(Problem("tag-value", message, span.line if span else record.line,
                                span.column if span else 1))

    tie_rule, cards, order = TieRule.CARRY, 13, PrizeOrder.SHUFFLED
    if "TieRule" in tags:
        try:
            tie_rule = TieRule(tags["TieRule"].strip().lower())
        except ValueError:
            bad("TieRule", f"TieRule {tags['TieRule']!r} is not carry or discard")
    if "Cards" in tags:
        text = tags["Cards"].strip()
        if text.isdigit() and 1 <= int(text) <= 13:
            cards = int(text)
        else:
            bad("Cards", f"Cards {tags['Cards']!r} is not a number of cards from 1 to 13")
    if "PrizeOrder" in tags:
        try:
            order = PrizeOrder(tags["PrizeOrder"].strip().lower())
        except ValueError:
            bad("PrizeOrder",
                f"PrizeOrder {tags['PrizeOrder']!r} is not shuffled, ascending or descending")
    if "Date" in tags and not _date_ok(tags["Date"]):
        bad("Date", f"Date {tags['Date']!r} is not YYYY.MM.DD (write ?? for unknown parts)")
    result = tags.get("Result", "*").strip()
    if result != "*" and not _RESULT.match(result):
        bad("Result", f"Result {tags['Result']!r} is not points like 44-24, or *")
    try:
        profile = RuleProfile(cards, record.n_players, tie_rule, order)
    except RuleError as exc:  # pragma: no cover - n_players is always 2..4
        bad("A", str(exc))
        profile = RuleProfile(cards, 2, tie_rule, order)
    return profile, problems


def _date_ok(text: str) -> bool:
    m = _DATE.match(text.strip())
    if not m:
        return False
    month, day = m.group(2), m.group(3)
    return (month == "??" or 1 <= int(month) <= 12) and (day == "??" or 1 <= int(day) <= 31)


def validate_game(record: GameRecord) -> GameReport:
    """Replay ``record`` and collect every problem, sorted by position."""
    profile, tag_problems = profile_of(record)
    # the replayed points mean something unless the rules were guessed (an unreadable
    # TieRule, Cards or PrizeOrder), a token was lost (syntax), or a round was skipped;
    # a bad Date or a wrong round number does not hide a wrong result
    rule_tags = {(s.line, s.column) for name, s in record.tag_spans.items()
                 if name in ("TieRule", "Cards", "PrizeOrder")}
    clean = not any(p.code == "syntax" for p in record.problems) and not any(
        (p.line, p.column) in rule_tags for p in tag_problems)
    problems = list(record.problems) + tag_problems
    game = Game(profile)
    played: list[RoundResult] = []
    for number, rnd in enumerate(record.rounds, start=1):
        if number > profile.cards:
            span = rnd.span or rnd.prize.span
            problems.append(_at("too-many-rounds", GameOver(
                f"the game has {len(record.rounds)} rounds; a {profile.cards}-card game "
                f"has {profile.cards}").message, span, number))
            break
        round_problems = _suit_problems(rnd, number)
        prize, bids = rnd.prize.rank, tuple(b.rank for b in rnd.bids)
        for err in game.problems(prize, bids):
            if err.seat is not None and err.seat < len(rnd.bids):
                span = rnd.bids[err.seat].span
            elif err.code in ("unknown-card", "prize-repeated", "prize-order"):
                span = rnd.prize.span
            else:
                span = rnd.span
            round_problems.append(_at(err.code, err.message, span, number))
        if round_problems:
            problems += round_problems
            clean = False
            game.skip_round()  # keep round numbers aligned with the record
            continue
        played.append(game.play_unchecked(prize, bids))
    problems += _result_problems(record, game, profile, clean)
    problems.sort(key=lambda p: (p.line, p.column))
    return GameReport(record, profile, tuple(played), game.outcome(), tuple(problems))


def _at(code: str, message: str, span: Span | None, round_no: int | None) -> Problem:
    return Problem(code, message, span.line if span else 0, span.column if span else 0, round_no)


def _suit_problems(rnd: RoundRecord, number: int) -> list[Problem]:
    found = []
    if rnd.prize.suit is not None and rnd.prize.suit is not Suit.DIAMONDS:
        found.append(_at("wrong-suit", f"prize {rank_name(rnd.prize.rank)} is written as "
                         f"{rnd.prize.suit.name.lower()}; prizes are diamonds",
                         rnd.prize.span, number))
    for seat, bid in enumerate(rnd.bids[:4]):
        expected = Seat.at(seat).suit
        if bid.suit is not None and expected is not None and bid.suit is not expected:
            found.append(_at("wrong-suit", f"{Seat.at(seat).value} bids with "
                             f"{expected.name.lower()}, but {rank_name(bid.rank)} is written "
                             f"as {bid.suit.name.lower()}", bid.span, number))
    return found


def _result_problems(record: GameRecord, game: Game, profile: RuleProfile,
                     clean: bool) -> list[Problem]:
    """Problems with the written result (terminator and Result tag)."""
    found: list[Problem] = []
    if len(record.rounds) > profile.cards:
        return found  # too-many-rounds is already reported; the result means nothing
    finished = len(record.rounds) == profile.cards
    tag_text = record.tags.get("Result", "*").strip()
    tag_result = (tuple(int(x) for x in tag_text.split("-")) if _RESULT.match(tag_text)
                  else None)
    tag_span = record.tag_spans.get("Result")
    written = [(record.result, record.result_span, "result"),
               (tag_result, tag_span, "Result tag")]
    for result, span, what in written:
        if result is None:
            continue
        if not finished:
            found.append(_at("incomplete", f"the game has {len(record.rounds)} of "
                             f"{profile.cards} rounds, so its {what} must be *, not "
                             f"{format_result(result)}", span, None))
        elif len(result) != profile.players:
            found.append(_at("result-mismatch", f"{what} {format_result(result)} has "
                             f"{len(result)} scores; the game has {profile.players} players",
                             span, None))
        elif clean and result != tuple(game.scores):
            found.append(_at("result-mismatch", f"{what} {format_result(result)} differs "
                             f"from the replayed points {format_result(tuple(game.scores))}",
                             span, None))
    if (record.result is not None and tag_result is not None and record.result != tag_result
            and finished):
        found.append(_at("result-mismatch", f"Result tag {tag_text} and terminator "
                         f"{format_result(record.result)} disagree", record.result_span, None))
    return found
