"""Where Gin Rummy stores player and event names: its registry part ``names``
(:class:`gops_records.core.store.aliases.GameNames`), so an alias (``gops alias``) maps them
in every view (``gin_player_hands`` too: it reads ``gin_hands``), and ``gops players`` /
``gops events`` count them (by games, ``gin_games``)."""

from __future__ import annotations

from gops_records.core.dates import known_date
from gops_records.core.names import NameKind
from gops_records.core.store.aliases import GameNames

_P, _E = NameKind.PLAYER, NameKind.EVENT
_DATE = known_date("date")

NAMES = GameNames(
    columns=(
        ("gin_hands", (("event", _E), ("player_a", _P), ("player_b", _P))),
        ("gin_games", (("event", _E), ("player_a", _P), ("player_b", _P), ("winner", _P))),
    ),
    players=f"SELECT player_a AS name, game_id, {_DATE} AS date FROM gin_games "
            f"UNION ALL SELECT player_b, game_id, {_DATE} FROM gin_games",
    events=f"SELECT event AS name, game_id, {_DATE} AS date FROM gin_games",
)
