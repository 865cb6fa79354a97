"""Checking Gin Rummy score sheets (``.ginsheet``) against the rules and the full hands.

A sheet is one game. :func:`check_sheet` scores each line with the rule the engine uses
(:func:`rules.score_hand`) and the game with :class:`game.GinGame`, and reports, located
at the part of the line concerned (docs/gin.md has an example of each):

- ``tag-value``: no ``Match`` or ``Game`` tag (a sheet is a game of a match), a ``Game``
  that is not a number from 1 to 9999, an unknown ``Runs`` (a ``Date`` that is not a date
  is the reader's: the one date rule, :func:`notation.values.date_problem`);
- ``dealer``: a hand dealt by another seat than the last hand's winner (a drawn hand:
  the same dealer); the first dealer is recorded, not checked;
- ``knock-forbidden``, ``knock-over-limit``, ``out-kind``: a knock on an ace, over the
  upcard's limit, or with deadwood 0 (that is gin);
- ``hand-points``: points that are not what the deadwoods score;
- ``running-total``: totals after ``=`` that are not the previous totals plus the points
  written;
- ``after-game-end``: a hand after someone reached 100; ``incomplete``: a hand number
  skipped, a game score written for a game nobody has won, or a sheet without hands
  (a sheet is a game: a game of no hands is not stored);
- ``game-score``: a game score that is not the one the hands make;
- ``sheet-mismatch``: a line that says something else than the full record of the same
  hand (same game: ``Event``, ``Date``, ``Match``, ``Game``, ``A``, ``B``; same hand
  number), when one is known (:class:`FullHands`).

:func:`check_matches` then checks sheets of one ``Match`` against each other (``match``:
a game given twice, players changing, a game after the match was won). A sheet the reader
found a problem in is not checked further (its lines cannot be trusted to be all there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from gops_records.core.problems import Problem, Span
from gops_records.core.values import number_problem
from gops_records.games.gin.cards import Card, GinSuit
from gops_records.games.gin.game import GameScore, GinGame, GinMatch
from gops_records.games.gin.keys import game_id, game_number, match_key
from gops_records.games.gin.melds import RunOrder
from gops_records.games.gin.replay import HandReport
from gops_records.games.gin.rules import (
    DEFAULT_PROFILE,
    UNNAMED,
    GinProfile,
    HandResult,
    Outcome,
    Players,
    Seat,
    dealer_message,
    knock_limit,
    score_hand,
)
from gops_records.games.gin.sheet import ParsedSheet, SheetLine, SheetOut, SheetRecord, rank_text

_OUTCOME = {SheetOut.KNOCK: Outcome.KNOCK, SheetOut.GIN: Outcome.GIN,
            SheetOut.BIG_GIN: Outcome.BIG_GIN}
_WRITTEN = {Outcome.KNOCK: SheetOut.KNOCK, Outcome.UNDERCUT: SheetOut.KNOCK,
            Outcome.GIN: SheetOut.GIN, Outcome.BIG_GIN: SheetOut.BIG_GIN,
            Outcome.DRAW: SheetOut.DRAW}


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a full record says of a hand, in a sheet's terms (for ``sheet-mismatch``)."""

    dealer: Seat
    upcard: int
    out: SheetOut
    seat: Seat | None
    deadwood: int | None
    opponent: int | None
    points: tuple[int, int]
    where: str  # e.g. ``club.gin:12``, to name it in a message

    @classmethod
    def of_result(cls, result: HandResult, upcard: int, where: str) -> HandFacts:
        out = _WRITTEN[result.outcome]
        return cls(result.dealer, upcard, out, result.went_out,
                   result.out_deadwood if out is SheetOut.KNOCK else None,
                   result.defender_after if out is not SheetOut.DRAW else None,
                   result.scores, where)


class FullHands:
    """The full hands known to a check, by game id and hand number.

    Hands are added from replayed ``.gin`` records (:meth:`add`); ``lookup`` (e.g. the
    store's, :func:`gops_records.games.gin.store.stored_full_hands`) gives more for a game id.
    """

    def __init__(self, lookup: Callable[[int], dict[int, HandFacts]] | None = None):
        self.lookup = lookup
        self.games: dict[int, dict[int, HandFacts]] = {}
        self._looked_up: set[int] = set()

    def add(self, report: HandReport, source: str, line_offset: int = 0) -> None:
        """A replayed hand, if it is valid, finished and placed in a game (its record's
        lines are those of its file after ``line_offset``)."""
        record, result = report.record, report.result
        tags = dict(record.tags)
        key, number = game_id(tags), game_number(tags.get("Hand"))
        if not report.valid or result is None or key is None or number is None:
            return
        assert report.hand is not None
        line = (record.span.line if record.span is not None else 1) + line_offset
        self.games.setdefault(key, {})[number] = HandFacts.of_result(
            result, report.hand.upcard.rank, f"{source}:{line}")

    def of_game(self, key: int) -> dict[int, HandFacts]:
        if self.lookup is not None and key not in self._looked_up:
            self._looked_up.add(key)
            stored = self.lookup(key)
            self.games[key] = {**stored, **self.games.get(key, {})}
        return self.games.get(key, {})


@dataclass(frozen=True, slots=True)
class SheetReport:
    """A sheet, its problems, each line's result and the game they make."""

    record: SheetRecord
    problems: tuple[Problem, ...]
    results: tuple[HandResult, ...] = ()
    game: GinGame | None = None
    score: GameScore | None = None
    profile: GinProfile = field(default=DEFAULT_PROFILE)

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def finished(self) -> bool:
        return self.score is not None


def _at(span: Span | None, fallback: Span | None) -> tuple[int, int]:
    span = span or fallback
    return (span.line, span.column) if span is not None else (1, 1)


class _Found:
    def __init__(self, record: SheetRecord):
        self.record = record
        self.problems: list[Problem] = []

    def add(self, code: str, message: str, span: Span | None, hand: int | None = None) -> None:
        line, column = _at(span, self.record.span)
        self.problems.append(Problem(code, message, line, column, hand))


def line_result(line: SheetLine, profile: GinProfile = DEFAULT_PROFILE) -> HandResult:
    """The hand a sheet line describes, scored by the rules (points from the deadwoods)."""
    if line.out is SheetOut.DRAW:
        return HandResult(Outcome.DRAW, line.dealer, None, None, 0)
    assert line.seat is not None and line.opponent is not None
    out_deadwood = line.deadwood if line.out is SheetOut.KNOCK else 0
    assert out_deadwood is not None
    outcome, winner, points = score_hand(_OUTCOME[line.out], line.seat, out_deadwood,
                                         line.opponent, profile)
    return HandResult(outcome, line.dealer, line.seat, winner, points, out_deadwood, None,
                      line.opponent)


def explain(score: GameScore, profile: GinProfile = DEFAULT_PROFILE,
            who: Players = UNNAMED) -> str:
    """How a game score is made, in the sheet's terms (e.g. ``112 - 0 + 100 + 20 x (4 - 0)
    = 292, + 100 blitz = 392``); ``who`` names the players (``Bob (B) wins 25``)."""
    lead = score.winner.other if score.reversed else score.winner
    w, other = lead.index, lead.other.index
    formula = (f"{score.totals[w]} - {score.totals[other]} + {profile.game_bonus} + "
               f"{profile.hand_bonus} x ({score.hands_won[w]} - {score.hands_won[other]})")
    if score.reversed:
        return (f"{formula} = -{score.points}, so {who(score.winner)} wins {score.points}")
    if score.blitz:
        return (f"{formula} = {score.points - profile.blitz_bonus}, + {profile.blitz_bonus} "
                f"blitz = {score.points}")
    return f"{formula} = {score.points}, no blitz ({who(lead.other)} won a hand)"


def _facts_problem(line: SheetLine, facts: HandFacts, who: Players
                   ) -> tuple[str, Span | None] | None:
    """The first thing ``line`` says differently from the full record, and where."""
    spans = line.where

    def at(name: str) -> Span | None:
        return getattr(spans, name) if spans is not None else None

    def said(out: SheetOut, seat: Seat | None) -> str:
        return "a draw" if out is SheetOut.DRAW or seat is None else \
            f"{who(seat)} {out.value}"

    if line.dealer is not facts.dealer:
        return f"{who(facts.dealer)} deals, not {who(line.dealer)}", at("dealer")
    if line.upcard != facts.upcard:
        return (f"the upcard is a {rank_text(facts.upcard)}, not a {rank_text(line.upcard)}",
                at("upcard"))
    if line.out is not facts.out or line.seat is not facts.seat:
        return f"{said(facts.out, facts.seat)}, not {said(line.out, line.seat)}", \
            at("seat") or at("out")
    if line.deadwood != facts.deadwood:
        return f"the knocker keeps {facts.deadwood}, not {line.deadwood}", at("deadwood")
    if line.opponent != facts.opponent:
        return f"the opponent keeps {facts.opponent}, not {line.opponent}", at("opponent")
    if line.points != facts.points:
        return (f"the hand scores {facts.points[0]}-{facts.points[1]}, not "
                f"{line.points[0]}-{line.points[1]}", at("points"))
    return None


def check_sheet(parsed: ParsedSheet, full: FullHands | None = None) -> SheetReport:
    """Check one sheet (see the module docstring); syntax problems are kept in front."""
    record = parsed.record
    found = _Found(record)
    found.problems += parsed.problems
    tags = dict(record.tags)
    who = Players.of(tags.get)
    for tag in ("Match", "Game"):
        if tags.get(tag) is None:
            found.add("tag-value", f"the [{tag}] tag is missing: a sheet is one game of a "
                      "match, named by [Match] and [Game]", record.tag_spans.get(tag))
    if tags.get("Game") is not None and (problem := number_problem("Game", tags["Game"])):
        found.add("tag-value", problem, record.tag_spans.get("Game"))
    runs = tags.get("Runs", RunOrder.CIRCULAR.value)
    if runs not in {r.value for r in RunOrder}:
        found.add("tag-value", f'[Runs "{runs}"]: write circular, ace-high or ace-low',
                  record.tag_spans.get("Runs"))
        runs = RunOrder.CIRCULAR.value
    profile = GinProfile(runs=RunOrder(runs))
    if parsed.problems or not record.lines:
        if not parsed.problems:  # a sheet is a game: one hand at least
            found.add("incomplete", ("a game score for a sheet without hands" if record.result
                                     is not None else "a sheet without hands") +
                      ": write its hands, one a line", record.result_span)
        return SheetReport(record, tuple(found.problems), profile=profile)
    game = GinGame(record.lines[0].dealer, profile)
    known = full.of_game(key) if full is not None and (key := game_id(tags)) is not None \
        else {}
    results: list[HandResult] = []
    written = (0, 0)
    for index, line in enumerate(record.lines, 1):
        spans = line.where
        start = spans.start if spans is not None else None
        number = line.number if line.number is not None else index
        if number != index:
            found.add("incomplete", f"hand {index} is missing before hand {number}"
                      if number > index else f"hand {number} follows hand {index - 1}: "
                      f"number the hands 1, 2, 3, ...", start, number)
        if game.over:
            found.add("after-game-end", f"the game ended at {game.totals[0]}-"
                      f"{game.totals[1]} after hand {index - 1}: hand {number} belongs to a "
                      "new sheet (the next game)", start, number)
            break
        if game.hands and line.dealer is not game.next_dealer:
            found.add("dealer", dealer_message(game.next_dealer, game.hands[-1], index - 1,
                                               number, who),
                      spans.dealer if spans else None, number)
        _check_out(line, found, number)
        result = line_result(line, profile)  # an illegal knock is still scored, so the
        if result.scores != line.points:    # checks after it do not all fail with it
            how = f"{result.outcome.value.replace('_', ' ')}"
            found.add("hand-points", f"{_line_text(line, who)} scores {result.scores[0]}-"
                      f"{result.scores[1]} ({how}), not {line.points[0]}-"
                      f"{line.points[1]}", spans.points if spans else None, number)
        written = (written[0] + line.points[0], written[1] + line.points[1])
        if line.totals is not None and line.totals != written:
            found.add("running-total", f"the totals after hand {number} are {written[0]}-"
                      f"{written[1]} (the points written so far), not {line.totals[0]}-"
                      f"{line.totals[1]}", spans.totals if spans else None, number)
        if number in known and (differs := _facts_problem(line, known[number], who)):
            message, span = differs
            found.add("sheet-mismatch", f"the full record of hand {number} "
                      f"({known[number].where}) says {message}", span or start, number)
        results.append(result)
        game.add(result)
    score = game.score() if game.over else None
    if record.result is not None:
        if score is None:
            found.add("incomplete", f"nobody has reached {profile.game_target} "
                      f"({game.totals[0]}-{game.totals[1]}): the game is not over; write * "
                      "for its score", record.result_span)
        elif score.scores != record.result:
            found.add("game-score", f"the game scores {score.scores[0]}-{score.scores[1]}, "
                      f"not {record.result[0]}-{record.result[1]}: "
                      f"{explain(score, profile, who)}",
                      record.result_span)
    return SheetReport(record, tuple(found.problems), tuple(results), game, score, profile)


def _line_text(line: SheetLine, who: Players) -> str:
    """What a line says of the hand, its seat named as messages name it."""
    if line.out is SheetOut.DRAW or line.seat is None:
        return "a draw"
    if line.out is SheetOut.KNOCK:
        return f"{who(line.seat)} knock {line.deadwood} v {line.opponent}"
    return f"{who(line.seat)} {line.out.value} v {line.opponent}"


def _check_out(line: SheetLine, found: _Found, number: int) -> None:
    """Report a way out the rules do not allow (a knock's limits)."""
    if line.out is not SheetOut.KNOCK:
        return
    spans = line.where
    limit = knock_limit(Card.of(line.upcard, GinSuit.SPADES))
    where = spans.deadwood or spans.out if spans is not None else None
    assert line.deadwood is not None
    if line.deadwood == 0:
        found.add("out-kind", "deadwood 0 is gin, not a knock: write SEAT gin v D", where,
                  number)
    elif limit is None:
        found.add("knock-forbidden", "the upcard is an ace: no knock, only gin or big gin",
                  spans.out if spans else None, number)
    elif line.deadwood > limit:
        found.add("knock-over-limit", f"a knock keeps at most {limit} deadwood (upcard "
                  f"{rank_text(line.upcard)}), not {line.deadwood}", where, number)


def check_matches(reports: Iterable[SheetReport]) -> dict[int, list[Problem]]:
    """Sheets of one match (same ``Event``, ``Date`` and ``Match``: keys.match_key)
    checked against each other; problems by the index of the sheet (in ``reports``) they
    are found at, located at its ``Game`` tag.

    Games are taken in the order of their numbers; a game given twice, ``A``/``B`` players
    that change, or a game after the match was won (first to two games) is ``match``.
    A game that is not finished, not valid or missing stops the match's check."""
    by_match: dict[tuple, list[tuple[int, int, SheetReport]]] = {}  # by keys.match_key
    problems: dict[int, list[Problem]] = {}
    for i, report in enumerate(reports):
        tags = dict(report.record.tags)
        number = game_number(tags.get("Game"))
        if tags.get("Match") is not None and number is not None:
            by_match.setdefault(match_key(tags.get), []).append((number, i, report))

    def add(i: int, report: SheetReport, tag: str, message: str) -> None:
        record = report.record
        line, column = _at(record.tag_spans.get(tag), record.span)
        problems.setdefault(i, []).append(Problem("match", message, line, column))

    for key, games in by_match.items():
        name = key[-1]
        games.sort(key=lambda g: (g[0], g[1]))
        first = dict(games[0][2].record.tags)
        match = GinMatch(games[0][2].profile)
        following, seen = True, set()
        for number, i, report in games:
            tags = dict(report.record.tags)
            for seat in ("A", "B"):
                if tags.get(seat) != first.get(seat):
                    add(i, report, seat, f"[{seat}] is {first.get(seat)!r} in the match "
                        f"{name!r}, not {tags.get(seat)!r}")
            if number in seen:
                add(i, report, "Game", f"game {number} of {name!r} is given twice")
                continue
            seen.add(number)
            following = following and number == len(seen)  # no game missing before it
            if not following:
                continue
            if match.winner is not None:
                won = match.games_won
                add(i, report, "Game", f"the match {name!r} is over ({won[0]}-{won[1]} in "
                    f"games): game {number} does not belong to it")
            elif report.valid and report.score is not None:
                match.add(report.score)
            else:
                following = False
    return problems
