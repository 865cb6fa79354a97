"""Where Gops stores player and event names: its registry part ``names``
(:class:`gops_records.core.store.aliases.GameNames`), so an alias (``gops alias``) maps them
in every view, and ``gops players`` / ``gops events`` count them."""

from __future__ import annotations

from gops_records.core.dates import known_date
from gops_records.core.names import NameKind
from gops_records.core.store.aliases import GameNames

_P, _E = NameKind.PLAYER, NameKind.EVENT

NAMES = GameNames(
    columns=(
        ("games", (("event", _E), ("winner", _P), ("player_a", _P), ("player_b", _P),
                   ("player_c", _P), ("player_d", _P))),
        ("game_players", (("player", _P),)),
        ("player_bid_groups", (("player", _P), ("event", _E))),
        ("player_bid_clusters", (("player", _P), ("event", _E))),
    ),
    players=f"SELECT p.player AS name, p.game_id, {known_date('g.date')} AS date "
            "FROM game_players p JOIN games g USING (game_id)",
    events=f"SELECT event AS name, game_id, {known_date('date')} AS date FROM games",
)
