"""The shapes of the Gops store frames: polars schemas of the Gops tables the import loads.

The frames themselves are built column by column from the replay
(:mod:`gops_records.games.gops.replay.frames`); these schemas are what the DuckDB tables
(docs/schema.md) take. The shared ``rejects`` shape is the store's
(:mod:`gops_records.core.store.frames`).
"""

from __future__ import annotations

import polars as pl

from gops_records.core.store.frames import TAGS_DTYPE

GAMES_SCHEMA = {
    "game_id": pl.UInt64, "source": pl.String, "source_game": pl.Int32,
    "source_line": pl.Int32, "event": pl.String, "site": pl.String, "date_text": pl.String,
    "round": pl.String, "match": pl.String, "tie_rule": pl.String, "cards": pl.Int8,
    "prize_order": pl.String, "n_players": pl.Int8, "finished": pl.Boolean,
    "rounds_played": pl.Int8, "unclaimed": pl.Int16, "result": pl.String,
    "winner": pl.String, "tags": TAGS_DTYPE, "ties": pl.Int8, "tie_mask": pl.Int16,
    "carried": pl.Int16, "max_pool": pl.Int16, "bid_cards": pl.Int8, "open_prizes": pl.Int8,
}
PLAYERS_SCHEMA = {"game_id": pl.UInt64, "seat": pl.String, "player": pl.String,
                  "score": pl.Int16, "outcome": pl.String}
#: What is stored of a round (table ``round_rows``; the ``rounds`` view derives the rest):
#: the winning seat as 0..3 (null on a tie), the pool's cards only when it holds carried
#: ones (null when it is the prize alone).
ROUND_ROWS_SCHEMA = {"game_id": pl.UInt64, "round_no": pl.Int8, "prize": pl.Int8,
                     "carried_in": pl.Int16, "winner": pl.Int8,
                     "pool_carried": pl.List(pl.Int8), "comment": pl.String,
                     "bid_a": pl.Int8, "bid_b": pl.Int8, "bid_c": pl.Int8, "bid_d": pl.Int8}
#: The rounds of games of the variants (table ``variant_round_rows``): those of
#: ``round_rows``, each bid's cards, and for open prizes the row (``pool_carried``), what
#: was revealed, taken and set aside.
VARIANT_ROUND_ROWS_SCHEMA = {**ROUND_ROWS_SCHEMA,
                             "cards_a": pl.List(pl.Int8), "cards_b": pl.List(pl.Int8),
                             "cards_c": pl.List(pl.Int8), "cards_d": pl.List(pl.Int8),
                             "revealed": pl.List(pl.Int8), "taken": pl.Int8,
                             "discarded": pl.Int8}
#: Every bidder's take (table ``round_takes``): the rounds of games read with
#: ``[OpenTakes "each"]``, each seat's prize taken in seat order (null: none).
ROUND_TAKES_SCHEMA = {"game_id": pl.UInt64, "round_no": pl.Int8, "takes": pl.List(pl.Int8)}
#: The variant_round_rows columns holding each seat's cards.
CARDS_COLUMNS = ("cards_a", "cards_b", "cards_c", "cards_d")
#: The rounds columns holding the bids of seats A..D.
BID_COLUMNS = ("bid_a", "bid_b", "bid_c", "bid_d")
#: The type of ``games.carried_pools``.
CARRIED_POOLS = pl.List(pl.Struct({"round_no": pl.Int8, "prize": pl.Int8,
                                   "pool_value": pl.Int16, "pool_cards": pl.Int8}))
