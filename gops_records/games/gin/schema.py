"""The Gin Rummy tables: hands, turns, melds, games and the per-player view of hands.

Gin Rummy's part of the store's schema (docs/schema.md, docs/gin.md), declared to the
store as the registry part ``"schema"`` of the Gin plug-in
(:mod:`gops_records.core.store.migrations`). The shared tables (``imports``, ``rejects``,
the source files) are the store's.
"""

from __future__ import annotations

from gops_records.core.store.migrations import Migration

#: Gin Rummy (issue 14, docs/gin.md): hands from full ``.gin`` records and from ``.ginsheet``
#: score sheets, their turns and melds, and the games they make, beside the Gops tables; the
#: ``imports``, ``rejects`` and ``source_files`` tables are shared. A hand's place (match,
#: game, hand) holds one row: a full record replaces a sheet line for the same place.
_V8_GIN = """
CREATE TABLE gin_hands (
    hand_id          UBIGINT NOT NULL,    -- content key of the hand's record
    import_id        INTEGER NOT NULL,
    source           VARCHAR NOT NULL,    -- file it was first imported from
    source_record    INTEGER NOT NULL,    -- 1-based: the hand (.gin) or the sheet (.ginsheet)
    source_line      INTEGER NOT NULL,    -- line of its first tag (full) or of its sheet line
    recorded         VARCHAR NOT NULL,    -- 'full' | 'sheet'
    game_id          UBIGINT,             -- its game (gin_games); NULL without a Match tag
    event            VARCHAR,
    site             VARCHAR,
    date             DATE,
    date_text        VARCHAR,
    match            VARCHAR,
    game_no          SMALLINT,
    hand_no          SMALLINT,
    player_a         VARCHAR,
    player_b         VARCHAR,
    dealer           VARCHAR NOT NULL,    -- 'A' | 'B'
    upcard           VARCHAR,             -- e.g. '7♦'; NULL on a sheet (it gives the rank)
    upcard_rank      TINYINT NOT NULL,    -- 1 (ace) .. 13 (king)
    knock_limit      TINYINT,             -- NULL on an ace upcard: no knock
    runs             VARCHAR NOT NULL,    -- 'circular' | 'ace-high' | 'ace-low'
    finished         BOOLEAN NOT NULL,
    outcome          VARCHAR,             -- 'knock' | 'gin' | 'big_gin' | 'undercut' | 'draw'
    out_seat         VARCHAR,             -- who went out; NULL for a draw
    winner_seat      VARCHAR,             -- who scored; NULL for a draw
    points           SMALLINT,            -- the hand's points, to winner_seat
    out_deadwood     SMALLINT,            -- deadwood of the player who went out
    opponent_deadwood_before SMALLINT,    -- the opponent's, before layoffs (NULL on a sheet)
    opponent_deadwood SMALLINT,           -- the opponent's, after layoffs (what counts)
    turns            SMALLINT,            -- turns played (NULL on a sheet)
    stock_left       TINYINT,             -- cards left in the stock (NULL on a sheet)
    pile_draws       SMALLINT,            -- draws from the pile, the first upcard included
    upcard_taken     VARCHAR,             -- seat that took the first upcard; NULL if both passed
    raw_text         VARCHAR NOT NULL,    -- the hand's record (canonical) or its sheet line
    tags             STRUCT(key VARCHAR, value VARCHAR)[] NOT NULL
);

CREATE TABLE gin_turns (
    hand_id         UBIGINT NOT NULL,
    turn_no         SMALLINT NOT NULL,    -- 1, 2, ... in play order
    seat            VARCHAR NOT NULL,
    draw            VARCHAR NOT NULL,     -- 'pass' | 'stock' | 'pile'
    taken           VARCHAR,              -- the card drawn; NULL for a pass
    discard         VARCHAR,              -- NULL for a pass and for big gin
    out             VARCHAR,              -- 'knock' | 'gin' | 'big_gin' when the turn goes out
    deadwood_after  SMALLINT NOT NULL,    -- least deadwood of the cards held after the turn
    stock_left      TINYINT NOT NULL,     -- after the turn
    comment         VARCHAR
);

CREATE TABLE gin_melds (
    hand_id   UBIGINT NOT NULL,
    seat      VARCHAR NOT NULL,           -- who melded it
    meld_no   TINYINT NOT NULL,           -- 1, 2, ... per seat, as written
    kind      VARCHAR NOT NULL,           -- 'run' | 'set'
    cards     VARCHAR[] NOT NULL,         -- as melded (a run from its low end)
    wraps     BOOLEAN NOT NULL,           -- a circular run through K-A
    laid_off  VARCHAR[] NOT NULL          -- the opponent's cards laid off onto it
);

CREATE TABLE gin_games (
    game_id       UBIGINT NOT NULL,       -- key of the game: event, date, match, game, players
    import_id     INTEGER NOT NULL,
    source        VARCHAR NOT NULL,
    source_line   INTEGER NOT NULL,       -- line of its first hand's (or sheet's) first tag
    recorded      VARCHAR NOT NULL,       -- 'full' | 'sheet': what it was scored from
    event         VARCHAR,
    site          VARCHAR,
    date          DATE,
    date_text     VARCHAR,
    match         VARCHAR NOT NULL,
    game_no       SMALLINT NOT NULL,
    player_a      VARCHAR,
    player_b      VARCHAR,
    first_dealer  VARCHAR NOT NULL,
    hands         SMALLINT NOT NULL,      -- hands played, drawn ones included
    hands_won_a   SMALLINT NOT NULL,      -- undercuts included
    hands_won_b   SMALLINT NOT NULL,
    draws         SMALLINT NOT NULL,
    total_a       SMALLINT NOT NULL,      -- hand points
    total_b       SMALLINT NOT NULL,
    finished      BOOLEAN NOT NULL,       -- someone reached 100
    winner_seat   VARCHAR,
    winner        VARCHAR,                -- the winner's name
    game_score    SMALLINT,               -- the winner's game points
    blitz         BOOLEAN,
    reversed      BOOLEAN,                -- the formula was negative: the other player won
    tags          STRUCT(key VARCHAR, value VARCHAR)[] NOT NULL
);

CREATE VIEW gin_player_hands AS
SELECT h.hand_id, h.game_id, h.recorded, h.event, h.date, h.match, h.game_no, h.hand_no,
       s.seat,
       CASE s.seat WHEN 'A' THEN h.player_a ELSE h.player_b END AS player,
       CASE s.seat WHEN 'A' THEN h.player_b ELSE h.player_a END AS opponent,
       h.dealer = s.seat AS dealt,
       h.knock_limit, h.runs, h.finished, h.outcome,
       coalesce(h.out_seat = s.seat, false) AS went_out,
       coalesce(h.winner_seat = s.seat, false) AS won,
       CASE WHEN h.finished THEN
           CASE WHEN h.winner_seat = s.seat THEN h.points ELSE 0 END END::SMALLINT AS points,
       CASE WHEN h.out_seat = s.seat THEN h.out_deadwood
            WHEN h.out_seat IS NOT NULL THEN h.opponent_deadwood END::SMALLINT AS deadwood,
       h.turns,
       coalesce(h.upcard_taken = s.seat, false) AS took_upcard
FROM gin_hands h CROSS JOIN (VALUES ('A'), ('B')) AS s(seat);
"""


#: Gin Rummy's steps of the schema, by version (the registry part ``"schema"``).
MIGRATIONS: tuple[Migration, ...] = (
    Migration(8, "Gin Rummy: gin_hands, gin_turns, gin_melds, gin_games and the "
                 "gin_player_hands view", _V8_GIN,
              tables=("gin_hands", "gin_turns", "gin_melds", "gin_games", "gin_player_hands")),
)
