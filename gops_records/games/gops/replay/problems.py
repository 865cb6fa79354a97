"""Problems found by the replay, kept as arrays until a message is wanted.

The checks in :mod:`.engine` find problems for all games of a chunk at once and add
them here as batches: a code, the game, the byte offset of the token at fault (which
sorts them and gives their line and column), the round, and the numbers the message
needs. Messages are written only for the games that are reported, at most
:data:`MAX_PER_GAME` a game (then one line says how many more there are), so a
hostile record with a million mistakes costs a count, not a million strings.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gops_records.core.problems import Problem

#: Problems written out per game; the rest are counted in one last problem.
MAX_PER_GAME = 50

#: Every code the validator reports (docs/notation.md has an example of each).
CODES = (
    "syntax", "tag-value", "unknown-card", "wrong-suit", "card-not-in-hand",
    "prize-repeated", "prize-order", "too-many-rounds", "incomplete", "result-mismatch",
    "result-unchecked", "bid-count", "round-number", "bid-card-repeated", "reveal-count",
    "prize-not-in-row", "take-mismatch", "more-problems",
)

Render = Callable[[int], str]


@dataclass
class _Batch:
    code: str
    game: np.ndarray
    offset: np.ndarray
    round: np.ndarray
    render: Render
    reader: bool
    token: np.ndarray | None


@dataclass
class Problems:
    """The problems of a chunk, batch by batch."""

    batches: list[_Batch] = field(default_factory=list)
    #: What the messages read (it has ``line_offset``: the lines before the chunk).
    context: Any = None

    def add(self, code: str, game: np.ndarray, offset: np.ndarray, round_no: np.ndarray | int,
            render: Render, *, reader: bool = False, token: np.ndarray | None = None) -> None:
        """Problems of one kind: ``render(i)`` writes the i-th one's message. ``reader``
        marks problems of the text itself (syntax, a tag given twice, a wrong round
        number), which a record read from the text keeps on itself; ``token`` gives the
        tokens at fault, whose text the problem quotes."""
        game = np.asarray(game, np.int64)
        if not len(game):
            return
        rounds = np.broadcast_to(np.asarray(round_no, np.int64), game.shape)
        self.batches.append(_Batch(code, game, np.asarray(offset, np.int64), rounds, render,
                                   reader, None if token is None else np.asarray(token)))

    def per_game(self, n_games: int) -> np.ndarray:
        """How many problems each game has."""
        if not self.batches:
            return np.zeros(n_games, np.int64)
        return np.bincount(np.concatenate([b.game for b in self.batches]), minlength=n_games)

    def of_games(self, games: np.ndarray,
                 place: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                 reader_only: bool = False, text: Callable[[int], str] | None = None,
                 line_offset: int = 0) -> dict[int, list[Problem]]:
        """The problems of ``games``, each game's in file order and capped, as
        :class:`Problem` values; ``place`` turns byte offsets into lines and columns and
        ``text`` a token into the text a problem quotes; messages that name a line add
        ``line_offset``."""
        if self.context is not None:
            self.context.line_offset = line_offset
        if not len(games):
            return {}
        wanted = np.zeros(int(games.max()) + 1 if len(games) else 0, bool)
        wanted[games] = True
        rows: list[tuple[int, int, int, int]] = []  # game, offset, batch, index
        for b, batch in enumerate(self.batches):
            if reader_only and not batch.reader:
                continue
            sel = np.flatnonzero(wanted[np.minimum(batch.game, len(wanted) - 1)]
                                 & (batch.game < len(wanted)))
            rows.extend(zip(batch.game[sel].tolist(), batch.offset[sel].tolist(),
                            [b] * len(sel), sel.tolist(), strict=True))
        rows.sort()
        lines, columns = place(np.array([row[1] for row in rows], np.int64))
        out: dict[int, list[Problem]] = {int(g): [] for g in games}
        extra: dict[int, int] = {}
        for k, (game, _, b, i) in enumerate(rows):
            found = out[game]
            if len(found) >= MAX_PER_GAME:
                extra[game] = extra.get(game, 0) + 1
                continue
            batch = self.batches[b]
            line, column = int(lines[k]), int(columns[k])
            round_no = int(batch.round[i])
            quoted = text(int(batch.token[i])) if text and batch.token is not None else ""
            found.append(Problem(batch.code, batch.render(i), line, column,
                                 round_no if round_no > 0 else None, quoted))
        for game, more in extra.items():
            last = out[game][-1]
            out[game].append(Problem("more-problems", f"{more:,} more problems in this game "
                                     "are not listed (the first {MAX_PER_GAME} are)"
                                     .replace("{MAX_PER_GAME}", str(MAX_PER_GAME)),
                                     last.line, last.column, None))
        return out
