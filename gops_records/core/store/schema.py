"""The DuckDB schema: a contract with users' own SQL, documented in docs/schema.md.

Changes are made only by appending a migration to :data:`MIGRATIONS`; each applied
migration is recorded in ``schema_migrations``, so a database always says which
version of the schema it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import duckdb


@dataclass(frozen=True, slots=True)
class Migration:
    """One version of the schema: its SQL, then (if any) a step that fills new tables from
    the rows already stored, in the same transaction."""

    version: int
    name: str
    sql: str
    fill: Callable[[duckdb.DuckDBPyConnection], None] | None = None


_V1 = """
CREATE TABLE imports (
    import_id          INTEGER PRIMARY KEY,
    started_at         TIMESTAMP NOT NULL,
    finished_at        TIMESTAMP,
    sources            VARCHAR[] NOT NULL,
    games_seen         INTEGER NOT NULL,
    games_new          INTEGER NOT NULL,
    games_duplicate    INTEGER NOT NULL,
    games_rejected     INTEGER NOT NULL,
    rejects_new        INTEGER NOT NULL,
    rejects_duplicate  INTEGER NOT NULL,
    seconds            DOUBLE
);

CREATE TABLE games (
    game_id        VARCHAR NOT NULL,   -- stable content key: same game, same id, from any file
    import_id      INTEGER NOT NULL,
    source         VARCHAR NOT NULL,   -- file the game was first imported from
    source_game    INTEGER NOT NULL,   -- 1-based index of the game in that file
    source_line    INTEGER NOT NULL,   -- line of its first tag (or first round)
    event          VARCHAR,
    site           VARCHAR,
    date           DATE,               -- NULL when unknown or partly unknown
    date_text      VARCHAR,            -- the Date tag as written, e.g. '2026.11.??'
    round          VARCHAR,
    match          VARCHAR,
    tie_rule       VARCHAR NOT NULL,   -- 'carry' | 'discard'
    cards          TINYINT NOT NULL,   -- N, cards per suit
    prize_order    VARCHAR NOT NULL,   -- 'shuffled' | 'ascending' | 'descending'
    n_players      TINYINT NOT NULL,
    finished       BOOLEAN NOT NULL,
    rounds_played  TINYINT NOT NULL,
    unclaimed      SMALLINT,           -- NULL while unfinished
    result         VARCHAR,            -- e.g. '44-24'; NULL while unfinished
    winner         VARCHAR,            -- player name; NULL for a draw or unfinished
    tags           MAP(VARCHAR, VARCHAR) NOT NULL
);

CREATE TABLE game_players (
    game_id  VARCHAR NOT NULL,
    seat     VARCHAR NOT NULL,         -- 'A'..'D'
    player   VARCHAR NOT NULL,
    score    SMALLINT NOT NULL,
    outcome  VARCHAR                   -- 'win' | 'loss' | 'draw'; NULL while unfinished
);

CREATE TABLE rounds (
    game_id      VARCHAR NOT NULL,
    round_no     TINYINT NOT NULL,
    prize        TINYINT NOT NULL,
    pool_cards   TINYINT[] NOT NULL,   -- prize cards on offer, carried ones first
    pool_value   SMALLINT NOT NULL,
    carried_in   SMALLINT NOT NULL,    -- value carried in from earlier ties
    tie          BOOLEAN NOT NULL,
    winner_seat  VARCHAR,              -- NULL on a tie
    comment      VARCHAR
);

CREATE TABLE bids (
    game_id   VARCHAR NOT NULL,
    round_no  TINYINT NOT NULL,
    seat      VARCHAR NOT NULL,
    player    VARCHAR NOT NULL,
    bid       TINYINT NOT NULL,
    won       BOOLEAN NOT NULL
);

CREATE TABLE rejects (
    reject_id    VARCHAR NOT NULL,     -- content key of the raw text: one copy per record
    import_id    INTEGER NOT NULL,
    source       VARCHAR NOT NULL,
    source_game  INTEGER,              -- NULL when the whole file was unreadable
    source_line  INTEGER,
    raw_text     VARCHAR NOT NULL,     -- the record exactly as written
    errors       STRUCT(code VARCHAR, message VARCHAR, line INTEGER, "column" INTEGER,
                        round INTEGER)[] NOT NULL
);
"""

# Version 2: a game's id is a 64-bit number (the same 64 bits as version 1's 16 hex
# digits), bids live in their round's row (bid_a..bid_d) with ``bids`` a view giving
# the version 1 columns, and each game carries a summary of its ties and pools. A
# million games then store 13M rounds instead of 13M rounds plus 26M bids, and the
# dashboard's per-game questions read games instead of rounds.
_V2_TABLES = """
CREATE TABLE games_v2 (
    game_id        UBIGINT NOT NULL,   -- stable content key: same game, same id, from any file
    import_id      INTEGER NOT NULL,
    source         VARCHAR NOT NULL,   -- file the game was first imported from
    source_game    INTEGER NOT NULL,   -- 1-based index of the game in that file
    source_line    INTEGER NOT NULL,   -- line of its first tag (or first round)
    event          VARCHAR,
    site           VARCHAR,
    date           DATE,               -- NULL when unknown or partly unknown
    date_text      VARCHAR,            -- the Date tag as written, e.g. '2026.11.??'
    round          VARCHAR,
    match          VARCHAR,
    tie_rule       VARCHAR NOT NULL,   -- 'carry' | 'discard'
    cards          TINYINT NOT NULL,   -- N, cards per suit
    prize_order    VARCHAR NOT NULL,   -- 'shuffled' | 'ascending' | 'descending'
    n_players      TINYINT NOT NULL,
    finished       BOOLEAN NOT NULL,
    rounds_played  TINYINT NOT NULL,
    unclaimed      SMALLINT,           -- NULL while unfinished
    result         VARCHAR,            -- e.g. '44-24'; NULL while unfinished
    winner         VARCHAR,            -- player name; NULL for a draw or unfinished
    tags           STRUCT(key VARCHAR, value VARCHAR)[] NOT NULL,  -- every tag, in file order
    ties           TINYINT NOT NULL,   -- tied rounds
    tie_mask       SMALLINT NOT NULL,  -- bit r-1 set when round r tied
    carried        SMALLINT NOT NULL,  -- prize value carried into a later round (carry rule)
    max_pool       SMALLINT NOT NULL   -- largest pool_value of its rounds (0 with no rounds)
);

CREATE TABLE game_players_v2 (
    game_id  UBIGINT NOT NULL,
    seat     VARCHAR NOT NULL,         -- 'A'..'D'
    player   VARCHAR NOT NULL,
    score    SMALLINT NOT NULL,
    outcome  VARCHAR                   -- 'win' | 'loss' | 'draw'; NULL while unfinished
);

CREATE TABLE rounds_v2 (
    game_id      UBIGINT NOT NULL,
    round_no     TINYINT NOT NULL,
    prize        TINYINT NOT NULL,
    pool_cards   TINYINT[] NOT NULL,   -- prize cards on offer, carried ones first
    pool_value   SMALLINT NOT NULL,
    carried_in   SMALLINT NOT NULL,    -- value carried in from earlier ties
    tie          BOOLEAN NOT NULL,
    winner_seat  VARCHAR,              -- NULL on a tie
    comment      VARCHAR,
    bid_a        TINYINT NOT NULL,     -- the bids by seat
    bid_b        TINYINT NOT NULL,
    bid_c        TINYINT,              -- NULL when the game has fewer seats
    bid_d        TINYINT
);
"""

_V2_COPY = """
INSERT INTO rounds_v2
SELECT ('0x' || r.game_id)::UBIGINT, r.round_no, r.prize, r.pool_cards, r.pool_value,
       r.carried_in, r.tie, r.winner_seat, r.comment, b.bid_a, b.bid_b, b.bid_c, b.bid_d
FROM rounds r JOIN (
    SELECT game_id, round_no,
           any_value(bid) FILTER (seat = 'A') AS bid_a, any_value(bid) FILTER (seat = 'B') AS bid_b,
           any_value(bid) FILTER (seat = 'C') AS bid_c, any_value(bid) FILTER (seat = 'D') AS bid_d
    FROM bids GROUP BY game_id, round_no
) b USING (game_id, round_no);

INSERT INTO game_players_v2
SELECT ('0x' || game_id)::UBIGINT, seat, player, score, outcome FROM game_players;

INSERT INTO games_v2 BY NAME
SELECT ('0x' || g.game_id)::UBIGINT AS game_id, g.import_id, g.source, g.source_game,
       g.source_line, g.event, g.site, g.date, g.date_text, g.round, g.match, g.tie_rule,
       g.cards, g.prize_order, g.n_players, g.finished, g.rounds_played, g.unclaimed,
       g.result, g.winner, map_entries(g.tags) AS tags, coalesce(s.ties, 0) AS ties,
       coalesce(s.tie_mask, 0) AS tie_mask, coalesce(s.carried, 0) AS carried,
       coalesce(s.max_pool, 0) AS max_pool
FROM games g LEFT JOIN (
    SELECT r.game_id, count(*) FILTER (r.tie) AS ties,
           coalesce(bit_or(1::INTEGER << (r.round_no::INTEGER - 1)) FILTER (r.tie), 0) AS tie_mask,
           coalesce(sum(r.prize) FILTER (r.tie AND r.round_no < x.cards
                                         AND x.tie_rule = 'carry'), 0) AS carried,
           max(r.pool_value) AS max_pool
    FROM rounds r JOIN games x USING (game_id) GROUP BY r.game_id
) s USING (game_id);

DROP TABLE bids;
DROP TABLE rounds;
DROP TABLE game_players;
DROP TABLE games;
ALTER TABLE games_v2 RENAME TO games;
ALTER TABLE game_players_v2 RENAME TO game_players;
ALTER TABLE rounds_v2 RENAME TO rounds;
"""

#: ``tag(tags, 'Round')``: a tag's value from games.tags (NULL when the game has no such tag).
TAG_MACRO = """
CREATE MACRO tag(tags, name) AS list_filter(tags, lambda t: t.key = name)[1].value;
"""

#: The bids of every round, one row per seat: what version 1 stored as a table.
BIDS_VIEW = """
CREATE VIEW bids AS
SELECT r.game_id, r.round_no, p.seat, p.player,
       CASE p.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                   WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid,
       coalesce(r.winner_seat = p.seat, false) AS won
FROM rounds r JOIN game_players p USING (game_id);
"""

#: Files read in full, by content: a re-import of the same bytes skips reading them.
_V3_SOURCE_FILES = """
CREATE TABLE source_files (
    sha256          VARCHAR NOT NULL,     -- of the file's bytes
    reader          VARCHAR NOT NULL,     -- the gops (version and code), file kind, encoding
    bytes           BIGINT NOT NULL,
    import_id       INTEGER NOT NULL,     -- the import that read it last
    source          VARCHAR NOT NULL,     -- the file's name then
    games_valid     INTEGER NOT NULL,     -- valid games in it (a repeat counted again)
    games_rejected  INTEGER NOT NULL,     -- records rejected (a repeat counted again)
    game_ids        UBIGINT[] NOT NULL,   -- its valid games, distinct, sorted
    reject_ids      VARCHAR[] NOT NULL,   -- its rejects, distinct, sorted
    notes           VARCHAR[] NOT NULL    -- what the import said about it
);
"""

#: ``source_files`` as version 3 had it, over the rows of version 5.
SOURCE_FILES_VIEW = """
CREATE VIEW source_files AS
SELECT r.sha256, r.reader, r.bytes, r.import_id, r.source, r.games_valid, r.games_rejected,
       coalesce((SELECT list(g.game_id ORDER BY g.game_id) FROM source_file_games g
                 WHERE g.sha256 = r.sha256 AND g.reader = r.reader), []) AS game_ids,
       coalesce((SELECT list(j.reject_id ORDER BY j.reject_id) FROM source_file_rejects j
                 WHERE j.sha256 = r.sha256 AND j.reader = r.reader), []) AS reject_ids,
       r.notes
FROM source_file_reads r;
"""

#: Rounds stored lean: ``rounds`` becomes a view that derives what follows from the rest
#: (pool_value, tie, winner_seat, and pool_cards when the pool is the prize alone).
_V4_ROUND_ROWS = """
CREATE TABLE round_rows (
    game_id       UBIGINT NOT NULL,
    round_no      TINYINT NOT NULL,
    prize         TINYINT NOT NULL,
    carried_in    SMALLINT NOT NULL,
    winner        TINYINT,              -- seat 0..3 (A..D) taking the pool; NULL on a tie
    pool_carried  TINYINT[],            -- the pool's cards when it holds carried ones, else NULL
    comment       VARCHAR,
    bid_a         TINYINT NOT NULL,
    bid_b         TINYINT NOT NULL,
    bid_c         TINYINT,
    bid_d         TINYINT
);

INSERT INTO round_rows
SELECT game_id, round_no, prize, carried_in,
       CASE winner_seat WHEN 'A' THEN 0 WHEN 'B' THEN 1 WHEN 'C' THEN 2 WHEN 'D' THEN 3 END,
       CASE WHEN len(pool_cards) > 1 THEN pool_cards END,
       comment, bid_a, bid_b, bid_c, bid_d
FROM rounds;

DROP VIEW bids;
DROP TABLE rounds;

CREATE VIEW rounds AS
SELECT game_id, round_no, prize,
       coalesce(pool_carried, [prize]) AS pool_cards,
       (carried_in + prize)::SMALLINT AS pool_value,
       carried_in,
       winner IS NULL AS tie,
       CASE winner WHEN 0 THEN 'A' WHEN 1 THEN 'B' WHEN 2 THEN 'C' WHEN 3 THEN 'D' END
           AS winner_seat,
       comment, bid_a, bid_b, bid_c, bid_d
FROM round_rows;

CREATE VIEW bids AS
SELECT r.game_id, r.round_no, p.seat, p.player,
       CASE p.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                   WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid,
       coalesce(r.winner = ascii(p.seat) - 65, false) AS won
FROM round_rows r JOIN game_players p USING (game_id);
"""

#: What each file read yielded, as rows: one row per file in ``source_file_reads``, one
#: per valid game and per reject in ``source_file_games`` / ``source_file_rejects``, so no
#: single value grows with the file (a list of 3 million ids in one row made DuckDB ask for
#: tens of GB). ``source_files`` becomes a view with the version 3 columns.
_V5_SOURCE_FILE_ROWS = """
CREATE TABLE source_file_reads (
    sha256          VARCHAR NOT NULL,
    reader          VARCHAR NOT NULL,
    bytes           BIGINT NOT NULL,
    import_id       INTEGER NOT NULL,
    source          VARCHAR NOT NULL,
    games_valid     INTEGER NOT NULL,
    games_rejected  INTEGER NOT NULL,
    notes           VARCHAR[] NOT NULL
);
CREATE TABLE source_file_games (
    sha256   VARCHAR NOT NULL,
    reader   VARCHAR NOT NULL,
    game_id  UBIGINT NOT NULL
);
CREATE TABLE source_file_rejects (
    sha256     VARCHAR NOT NULL,
    reader     VARCHAR NOT NULL,
    reject_id  VARCHAR NOT NULL
);

INSERT INTO source_file_reads
SELECT sha256, reader, bytes, import_id, source, games_valid, games_rejected, notes
FROM source_files;
INSERT INTO source_file_games
SELECT sha256, reader, unnest(game_ids) FROM source_files;
INSERT INTO source_file_rejects
SELECT sha256, reader, unnest(reject_ids) FROM source_files;
DROP TABLE source_files;
""" + SOURCE_FILES_VIEW

#: Quarantined records found fixed: ``gops rejects --recheck`` writes one row per reject
#: it finds resolved (see docs/schema.md for how "fixed" is recognised). A reject with no
#: row is open. The rejects themselves are never changed: they stay the history.
_V6_REJECT_RESOLUTIONS = """
CREATE TABLE reject_resolutions (
    reject_id    VARCHAR NOT NULL,    -- the reject (rejects.reject_id); one row at most
    resolved_at  TIMESTAMP NOT NULL,  -- when a re-check first found it resolved
    how          VARCHAR NOT NULL,    -- 'fixed' | 'same-game' | 'removed'
    game_id      UBIGINT,             -- the stored game that is the record fixed
    note         VARCHAR NOT NULL     -- what the re-check found, in words
);
"""

#: The two variants of the Dutch rules (docs/notation.md): a game says how many cards a
#: bid has and whether its prizes lie in an open row. The rounds of those games are stored
#: in ``variant_round_rows``, which has the columns of ``round_rows`` and a bid's cards, the
#: prizes revealed, the prize taken and the prize a tie set aside; ``rounds`` is the union
#: of the two. Classic games keep every column's meaning and cost nothing more to store
#: (a null column in ``round_rows`` would cost every import time and WAL space).
_V7_VARIANTS = """
ALTER TABLE games ADD COLUMN bid_cards TINYINT DEFAULT 1;
ALTER TABLE games ALTER COLUMN bid_cards SET NOT NULL;
ALTER TABLE games ADD COLUMN open_prizes TINYINT;

CREATE TABLE variant_round_rows (
    game_id       UBIGINT NOT NULL,
    round_no      TINYINT NOT NULL,
    prize         TINYINT NOT NULL,     -- open prizes: the prize taken, 0 for none
    carried_in    SMALLINT NOT NULL,
    winner        TINYINT,
    pool_carried  TINYINT[],            -- open prizes: the row on offer after the top-up
    comment       VARCHAR,
    bid_a         TINYINT NOT NULL,     -- the bids' strengths: the sums of their cards
    bid_b         TINYINT NOT NULL,
    bid_c         TINYINT,
    bid_d         TINYINT,
    cards_a       TINYINT[] NOT NULL,   -- the cards of each bid
    cards_b       TINYINT[] NOT NULL,
    cards_c       TINYINT[],
    cards_d       TINYINT[],
    revealed      TINYINT[],            -- open prizes: what the top-up revealed
    taken         TINYINT,              -- open prizes: the prize taken; NULL on a tie
    discarded     TINYINT               -- open prizes: the prize a tie set aside
);

DROP VIEW bids;
DROP VIEW rounds;

CREATE VIEW rounds AS
SELECT game_id, round_no, prize,
       coalesce(pool_carried, [prize]) AS pool_cards,
       (carried_in + prize)::SMALLINT AS pool_value,
       carried_in,
       winner IS NULL AS tie,
       CASE winner WHEN 0 THEN 'A' WHEN 1 THEN 'B' WHEN 2 THEN 'C' WHEN 3 THEN 'D' END
           AS winner_seat,
       comment, bid_a, bid_b, bid_c, bid_d, cards_a, cards_b, cards_c, cards_d,
       revealed, taken, discarded
FROM (
    SELECT *, [bid_a] AS cards_a, [bid_b] AS cards_b,
           CASE WHEN bid_c IS NOT NULL THEN [bid_c] END AS cards_c,
           CASE WHEN bid_d IS NOT NULL THEN [bid_d] END AS cards_d,
           NULL::TINYINT[] AS revealed, NULL::TINYINT AS taken, NULL::TINYINT AS discarded
    FROM round_rows
    UNION ALL
    SELECT * FROM variant_round_rows
);

CREATE VIEW bids AS
SELECT r.game_id, r.round_no, p.seat, p.player,
       CASE p.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                   WHEN 'C' THEN r.bid_c ELSE r.bid_d END AS bid,
       coalesce(r.winner_seat = p.seat, false) AS won,
       CASE p.seat WHEN 'A' THEN r.cards_a WHEN 'B' THEN r.cards_b
                   WHEN 'C' THEN r.cards_c ELSE r.cards_d END AS cards_played,
       (CASE p.seat WHEN 'A' THEN r.bid_a WHEN 'B' THEN r.bid_b
                    WHEN 'C' THEN r.bid_c ELSE r.bid_d END)::SMALLINT AS strength
FROM rounds r JOIN game_players p USING (game_id);
"""

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


#: Each player's bids grouped by their hand facts, kept by the loader import by import
#: (gops_records.games.gops.analytics.bid_groups): the Players page reads a player's groups instead
#: of
#: computing them from their bids (docs/schema.md). Sums over games: an import adds its
#: games' rows, then merges each touched player's rows into one a group.
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


#: Version 10: each player's scouting report, kept when first asked for, until the player's
#: games change (gops_records/games/gops/scouting/kept_store.py owns the rows; the store only
#: creates
#: the table). Migrating computes none.
_V10_SCOUT_REPORTS = """
CREATE TABLE scout_reports (
    player       VARCHAR NOT NULL,   -- one row a player: the report against anyone
    import_id    INTEGER NOT NULL,   -- the latest import of the player's games it studied
    version      VARCHAR NOT NULL,   -- the gops that computed it, and the record's layout
    seed         INTEGER NOT NULL,   -- the seed of the folds and the simulated games
    simulations  INTEGER NOT NULL,   -- games simulated for each reply
    games        INTEGER NOT NULL,   -- games studied
    seconds      DOUBLE NOT NULL,    -- how long it took to compute
    report       JSON NOT NULL       -- the report (gops_records/games/gops/scouting/kept.py)
);
"""


#: Version 11: each game's players in seat order, beside the game, for the player filter.
_V11_SEAT_PLAYERS = """
ALTER TABLE games ADD COLUMN player_a VARCHAR;
ALTER TABLE games ADD COLUMN player_b VARCHAR;
ALTER TABLE games ADD COLUMN player_c VARCHAR;
ALTER TABLE games ADD COLUMN player_d VARCHAR;
UPDATE games SET player_a = s.a, player_b = s.b, player_c = s.c, player_d = s.d
FROM (SELECT game_id, any_value(player) FILTER (seat = 'A') AS a,
             any_value(player) FILTER (seat = 'B') AS b,
             any_value(player) FILTER (seat = 'C') AS c,
             any_value(player) FILTER (seat = 'D') AS d
      FROM game_players GROUP BY game_id) s
WHERE games.game_id = s.game_id;
"""


#: Version 12: each classic game's carried pools, beside the game, for the pool figures.
_V12_CARRIED_POOLS = """
ALTER TABLE games ADD COLUMN carried_pools
    STRUCT(round_no TINYINT, prize TINYINT, pool_value SMALLINT, pool_cards TINYINT)[];
UPDATE games SET carried_pools = [] WHERE bid_cards = 1 AND open_prizes IS NULL;
UPDATE games SET carried_pools = c.pools
FROM (SELECT game_id, list(struct_pack(round_no := round_no, prize := prize,
                                       pool_value := (carried_in + prize)::SMALLINT,
                                       pool_cards := len(pool_carried)::TINYINT)
                           ORDER BY round_no) AS pools
      FROM round_rows WHERE carried_in > 0 GROUP BY game_id) c
WHERE games.game_id = c.game_id;
"""


#: Version 13: where each file of an import was, and its bytes' SHA-256, beside ``sources``
#: (same order), so ``gops rejects --recheck`` reads the file that was imported, wherever
#: the command runs. Imports made before keep NULL: their paths were never recorded.
#: (IF NOT EXISTS: a file whose recorded version was set back, as tests of the earlier
#: steps do, keeps the columns and their values.)
_V13_SOURCE_PATHS = """
ALTER TABLE imports ADD COLUMN IF NOT EXISTS source_paths VARCHAR[];
ALTER TABLE imports ADD COLUMN IF NOT EXISTS source_sha256 VARCHAR[];
"""

#: The mark of a gops database: a table of one row that gops writes when it makes a
#: database and adds, by migration, to one an older gops made. A DuckDB file with tables but
#: without the mark belongs to another application and is refused (docs/schema.md).
MARK_TABLE = "gops_database"
MARK_APPLICATION = "gops-records"
_V14_MARK = f"""
CREATE TABLE IF NOT EXISTS {MARK_TABLE} (
    application  VARCHAR NOT NULL   -- always '{MARK_APPLICATION}'
);
INSERT INTO {MARK_TABLE} SELECT '{MARK_APPLICATION}'
    WHERE NOT EXISTS (SELECT 1 FROM {MARK_TABLE} WHERE application = '{MARK_APPLICATION}');
"""


def _fill_bid_groups(con: duckdb.DuckDBPyConnection) -> None:
    from gops_records.games.gops.analytics import (
        bid_groups,  # it reads the schema's tables: import late
    )

    bid_groups.fill(con)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema: imports, games, game_players, rounds, bids, rejects", _V1),
    Migration(2, "numeric game_id, bids in their round (bids is a view), per-game tie and "
                 "pool summary", _V2_TABLES + _V2_COPY + BIDS_VIEW + TAG_MACRO),
    Migration(3, "source_files: files read, by content, so a re-import skips them",
              _V3_SOURCE_FILES),
    Migration(4, "rounds stored lean in round_rows; rounds is a view with the same columns",
              _V4_ROUND_ROWS),
    Migration(5, "what each file read yielded stored as rows (source_file_reads, "
                 "source_file_games, source_file_rejects); source_files is a view",
              _V5_SOURCE_FILE_ROWS),
    Migration(6, "reject_resolutions: quarantined records found fixed by gops rejects "
                 "--recheck", _V6_REJECT_RESOLUTIONS),
    Migration(7, "the variants: games.bid_cards and open_prizes; their rounds in "
                 "variant_round_rows (a bid's cards, the prizes revealed, taken and set "
                 "aside); rounds is the union; bids.cards_played and strength", _V7_VARIANTS),
    Migration(8, "Gin Rummy: gin_hands, gin_turns, gin_melds, gin_games and the "
                 "gin_player_hands view", _V8_GIN),
    Migration(9, "player_bid_groups and player_bid_clusters: each player's bids grouped by "
                 "their hand facts, kept import by import", _V9_BID_GROUPS, _fill_bid_groups),
    Migration(10, "scout_reports: each player's scouting report, computed at import",
              _V10_SCOUT_REPORTS),
    Migration(11, "games.player_a to player_d: each game's players in seat order, as in "
                  "game_players", _V11_SEAT_PLAYERS),
    Migration(12, "games.carried_pools: the rounds of a classic game with a carried pool",
              _V12_CARRIED_POOLS),
    Migration(13, "imports.source_paths and source_sha256: each file's absolute path and "
                  "SHA-256, for gops rejects --recheck", _V13_SOURCE_PATHS),
    Migration(14, "gops_database: the mark that tells a gops database from another "
                  "application's DuckDB file", _V14_MARK),
)
#: The version that adds the mark: a database without it is a gops database only when it
#: is older (and has gops's tables: store/db.py).
MARK_VERSION = next(m.version for m in MIGRATIONS if m.sql is _V14_MARK)

#: Tables a user may query (``rounds`` and ``bids`` are views); the order is the load order.
TABLES = ("imports", "games", "game_players", "rounds", "bids", "rejects", "source_files",
          "round_rows", "source_file_reads", "source_file_games", "source_file_rejects",
          "reject_resolutions", "variant_round_rows", "gin_hands", "gin_turns", "gin_melds",
          "gin_games", "gin_player_hands", "player_bid_groups", "player_bid_clusters",
          "scout_reports")
