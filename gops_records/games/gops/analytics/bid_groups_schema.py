"""The tables of each player's kept bid groups (:mod:`.bid_groups` fills them), declared
for the store as the registry part ``schema.bid_groups`` of the Gops plug-in.

A module of its own that imports nothing heavy: every open of a database reads the schema
parts, and ``gops scout`` or ``gops upgrade`` need not load numpy and polars for it. The
step that fills the tables from stored games is named by reference and loaded only when a
migration runs it.
"""

from __future__ import annotations

from gops_records.core.store.migrations import Migration

GROUPS, CLUSTERS = "player_bid_groups", "player_bid_clusters"

_V9_BID_GROUPS = """
CREATE TABLE player_bid_groups (
    import_id      INTEGER NOT NULL,  -- the import that added (or last merged) the row
    player         VARCHAR NOT NULL,
    event          VARCHAR,           -- the games' event (games.event)
    prize          INTEGER NOT NULL,
    bid            INTEGER NOT NULL,
    phase          INTEGER NOT NULL,  -- 1-3: the third of the game, ceil(3 * round / cards)
    forced         BOOLEAN NOT NULL,  -- the last card in hand
    has_prize      BOOLEAN NOT NULL,  -- the bidder still held the prize's card
    has_prize1     BOOLEAN NOT NULL,  -- ... and the card one above it
    highest        BOOLEAN NOT NULL,  -- the bid was the highest card in hand
    lowest         BOOLEAN NOT NULL,  -- ... the lowest
    carried        BOOLEAN NOT NULL,  -- a carried pool was on offer
    prize_rel_rank INTEGER,           -- 1-5: the prize's rank among those to come (NULL forced)
    bid_rel_rank   INTEGER,           -- 1-5: the bid's rank in the hand (NULL forced)
    n              BIGINT NOT NULL,   -- bids
    pool_sum       BIGINT NOT NULL,   -- their pools' values, summed
    uniform_sum    BIGINT NOT NULL    -- sum of 360360 / hand size (uniform play's chance)
);

CREATE TABLE player_bid_clusters (
    import_id      INTEGER NOT NULL,
    player         VARCHAR NOT NULL,
    event          VARCHAR,
    part           INTEGER NOT NULL,  -- 0 the whole game, 1-3 its thirds, 10 single prizes,
                                      -- 11 carried pools
    k_exact_prize BIGINT NOT NULL,              -- unforced bids following the habit
    n_exact_prize BIGINT NOT NULL,              -- unforced bids where it was possible
    kk_exact_prize BIGINT NOT NULL,             -- per-game k * k, summed
    nn_exact_prize BIGINT NOT NULL,             -- per-game n * n, summed
    kn_exact_prize BIGINT NOT NULL,             -- per-game k * n, summed
    games_exact_prize BIGINT NOT NULL,          -- games with n > 0
    k_prize_plus_one BIGINT NOT NULL,
    n_prize_plus_one BIGINT NOT NULL,
    kk_prize_plus_one BIGINT NOT NULL,
    nn_prize_plus_one BIGINT NOT NULL,
    kn_prize_plus_one BIGINT NOT NULL,
    games_prize_plus_one BIGINT NOT NULL,
    k_highest_remaining BIGINT NOT NULL,
    n_highest_remaining BIGINT NOT NULL,
    kk_highest_remaining BIGINT NOT NULL,
    nn_highest_remaining BIGINT NOT NULL,
    kn_highest_remaining BIGINT NOT NULL,
    games_highest_remaining BIGINT NOT NULL,
    k_lowest_remaining BIGINT NOT NULL,
    n_lowest_remaining BIGINT NOT NULL,
    kk_lowest_remaining BIGINT NOT NULL,
    nn_lowest_remaining BIGINT NOT NULL,
    kn_lowest_remaining BIGINT NOT NULL,
    games_lowest_remaining BIGINT NOT NULL
);
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(9, "player_bid_groups and player_bid_clusters: each player's bids grouped by "
                 "their hand facts, kept import by import", _V9_BID_GROUPS,
              fill="gops_records.games.gops.analytics.bid_groups:fill",
              tables=(GROUPS, CLUSTERS)),
)
