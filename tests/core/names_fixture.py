"""A small database whose names are typed as people type them: ``Thursday club`` beside the
samples' ``Thursday Club``, ``Márta`` beside ``Marta``, ``Joost`` (tests of names and aliases)."""

from __future__ import annotations

from pathlib import Path

from gops_records.core.importer import import_paths

#: One 3-player game of the samples (Thursday Club, 2026-01-15, round 1).
_MOVES = """1. 9♦ 2♣ 10♠ 4♥
2. 5♦ 3♣ 6♠ 5♥
3. 4♦ 5♣ 5♠ 2♥
4. J♦ K♣ Q♠ 9♥
5. 2♦ 6♣ 3♠ A♥
6. 6♦ 7♣ 7♠ 6♥
7. 7♦ 8♣ 8♠ 7♥
8. K♦ Q♣ A♠ Q♥
9. 10♦ J♣ J♠ 10♥
10. 8♦ 4♣ 9♠ 8♥
11. A♦ 9♣ 2♠ 3♥
12. Q♦ 10♣ K♠ K♥
13. 3♦ A♣ 4♠ J♥
14-22-3
"""

#: (event, date, round, players): the games of the file, in order.
GAMES = (
    ("Thursday Club", "2026.01.15", "1", ("Karin Vos", "Marta", "Joost")),
    ("Thursday Club", "2026.01.15", "2", ("Marta", "Joost", "Karin Vos")),
    ("Thursday club", "2026.01.22", "1", ("Márta", "Joost", "Karin Vos")),
)


def record(event: str, day: str, rnd: str, players: tuple[str, ...]) -> str:
    seats = "".join(f'[{s} "{p}"]\n' for s, p in zip("ABC", players, strict=True))
    return (f'[Event "{event}"]\n[Date "{day}"]\n[Round "{rnd}"]\n{seats}'
            f'[TieRule "discard"]\n[Result "14-22-3"]\n\n{_MOVES}')


def names_db(tmp_path: Path) -> Path:
    """A database of :data:`GAMES` (imported from one ``.gops`` file in ``tmp_path``)."""
    src = tmp_path / "typed.gops"
    src.write_text("\n".join(record(*g) for g in GAMES), encoding="utf-8")
    db = tmp_path / "names.duckdb"
    import_paths([src], db=db)
    return db
