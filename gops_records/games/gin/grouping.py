"""Replayed ``.gin`` hands grouped into games and matches, with located problems.

A hand belongs to the match of its ``Match`` tag (with its ``Event`` and ``Date``: two
evenings' ``[Match "1"]`` are two matches, :func:`keys.match_key`), to game ``Game`` of
it and is hand ``Hand`` of that game (docs/gin.md); :func:`group_hands` sorts the hands
by those numbers and feeds their results to :class:`GinGame` and :class:`GinMatch`,
checking what the hands claim against each other:

- ``tag-value``: a ``Match``, ``Game`` or ``Hand`` tag missing, or one that is not a
  number from 1 to 9999 (:func:`gops_records.core.values.number_problem`);
  ``match``: the same hand twice, players (``A``, ``B``) that change within a match, a
  game after the match was decided;
- ``incomplete``: a missing game or hand number (hands 1 and 3 without 2);
- ``dealer``: a hand dealt by the wrong seat: the winner of a hand deals the next, a
  drawn hand is dealt again by the same dealer; the first dealer of a game is recorded,
  not checked (ambiguity 3);
- ``after-game-end``: a hand of a game somebody already brought to 100.

Each problem is located at the tag it concerns in the hand's record. A hand that did
not replay to its end (its own problems, or ``*``) stops its game: what follows cannot be
checked, so the game stays unscored and the match undecided, with no further problem.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gops_records.core.problems import Problem
from gops_records.core.values import number_problem
from gops_records.games.gin.game import GameScore, GinGame, GinMatch
from gops_records.games.gin.keys import game_number, match_key
from gops_records.games.gin.replay import HandReport, profile_of
from gops_records.games.gin.rules import Players, Seat, dealer_message


@dataclass(frozen=True, slots=True)
class GroupProblem:
    """A problem between hands, located in the record of the hand it was found at."""

    report: HandReport
    problem: Problem


@dataclass
class GameGroup:
    """One game of a match: its hands in order, the game so far and its score when over."""

    number: int
    hands: list[HandReport]
    game: GinGame
    score: GameScore | None = None
    #: False when a hand is missing or did not replay: the totals are not the game's
    checked: bool = True


@dataclass
class MatchGroup:
    """The games of one ``Match`` tag and the match they make."""

    name: str
    players: tuple[str | None, str | None]
    games: list[GameGroup] = field(default_factory=list)
    match: GinMatch = field(default_factory=GinMatch)

    @property
    def winner(self) -> Seat | None:
        return self.match.winner


@dataclass(frozen=True, slots=True)
class Grouping:
    matches: tuple[MatchGroup, ...]
    problems: tuple[GroupProblem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


class _Problems:
    def __init__(self) -> None:
        self.found: list[GroupProblem] = []

    def add(self, report: HandReport, code: str, message: str, tag: str) -> None:
        record = report.record
        span = record.tag_spans.get(tag, record.span)
        line, column = (span.line, span.column) if span is not None else (1, 1)
        self.found.append(GroupProblem(report, Problem(code, message, line, column)))


def _number(report: HandReport, tag: str, problems: _Problems) -> int | None:
    value = report.record.tag(tag)
    if value is None:
        problems.add(report, "tag-value", f"the [{tag}] tag is missing: a hand is placed in "
                     "its match, game and hand by [Match], [Game] and [Hand]", tag)
        return None
    if (problem := number_problem(tag, value)) is not None:
        problems.add(report, "tag-value", problem, tag)
        return None
    return game_number(value)


def group_hands(reports: Iterable[HandReport]) -> Grouping:
    """Group replayed hands into matches and games and check them against each other."""
    problems = _Problems()
    placed: dict[tuple, dict[int, dict[int, HandReport]]] = {}  # by keys.match_key
    for report in reports:
        name = report.record.tag("Match")
        if name is None:
            problems.add(report, "tag-value", "the [Match] tag is missing: a hand is placed "
                         "in its match, game and hand by [Match], [Game] and [Hand]", "Match")
            continue
        game, hand = _number(report, "Game", problems), _number(report, "Hand", problems)
        if game is None or hand is None:
            continue
        key = match_key(report.record.tag)  # Event, Date and Match
        hands = placed.setdefault(key, {}).setdefault(game, {})
        if hand in hands:
            problems.add(report, "match", f"hand {hand} of game {game} of {name!r} is given "
                         f"twice (line {hands[hand].record.span.line} too)", "Hand")
            continue
        hands[hand] = report
    matches = tuple(_match(key[-1], games, problems) for key, games in placed.items())
    return Grouping(matches, tuple(problems.found))


def _match(name: str, games: dict[int, dict[int, HandReport]],
           problems: _Problems) -> MatchGroup:
    first = games[min(games)][min(games[min(games)])]
    players = (first.record.tag("A"), first.record.tag("B"))
    group = MatchGroup(name, players, match=GinMatch(profile_of(first.record)))
    scored = True  # every game so far was scored (else the match cannot be followed)
    for expected, number in enumerate(sorted(games), 1):
        hands = games[number]
        opening = hands[min(hands)]
        for seat, player in zip(("A", "B"), players, strict=True):
            for report in hands.values():
                if report.record.tag(seat) != player:
                    problems.add(report, "match", f"[{seat}] is {player!r} in this match, not "
                                 f"{report.record.tag(seat)!r}", seat)
        if number != expected:
            problems.add(opening, "incomplete", f"game {expected} of {name!r} is missing "
                         f"before game {number}", "Game")
            scored = False
        game = _game(number, hands, problems)
        group.games.append(game)
        if scored and group.match.winner is not None:
            won = group.match.games_won
            problems.add(opening, "match", f"the match {name!r} is over ({won[0]}-{won[1]} "
                         f"in games): game {number} does not belong to it", "Game")
        elif scored and game.score is not None:
            group.match.add(game.score)
        else:
            scored = False
    return group


def _game(number: int, hands: dict[int, HandReport], problems: _Problems) -> GameGroup:
    ordered = [hands[n] for n in sorted(hands)]
    first = ordered[0]
    dealer = first.record.tag("Dealer")
    game = GinGame(Seat(dealer) if dealer in ("A", "B") else Seat.B, profile_of(first.record))
    group = GameGroup(number, ordered, game)
    for expected, (hand_number, report) in enumerate(sorted(hands.items()), 1):
        if hand_number != expected:
            problems.add(report, "incomplete", f"hand {expected} of game {number} is missing "
                         f"before hand {hand_number}", "Hand")
            group.checked = False
        if not group.checked:
            continue
        if game.over:
            problems.add(report, "after-game-end", f"game {number} ended at {game.totals[0]}-"
                         f"{game.totals[1]} before hand {hand_number}: start game "
                         f"{number + 1} for it", "Hand")
            continue
        if game.hands and report.record.tag("Dealer") != game.next_dealer.value:
            problems.add(report, "dealer", dealer_message(
                game.next_dealer, game.hands[-1], hand_number - 1, hand_number,
                Players.of(report.record.tag)),
                "Dealer")
        if report.result is None:
            group.checked = False
            continue
        game.add(report.result)
    if group.checked and game.over:
        group.score = game.score()
    return group
