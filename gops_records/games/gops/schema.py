"""The Gops tables: games, their players and rounds, the bids, the variants' rounds.

Gops's part of the store's schema (docs/schema.md), declared to the store as the registry
part ``"schema"`` of the Gops plug-in (:mod:`gops_records.core.store.migrations` says how
the parts of every owner make one schema). The derived tables are declared by their
features: ``player_bid_groups`` by :mod:`gops_records.games.gops.analytics.bid_groups`,
``scout_reports`` by :mod:`gops_records.games.gops.scouting.kept_store`.

Version 1 made these tables and the shared ones (``imports``, ``rejects``: the store's)
at once; Gops declares its part of it and the version's name, as ``schema_migrations``
has recorded it since.
"""

from __future__ import annotations

from gops_records.core.store.migrations import Migration

#: Version 1, Gops's part: the games, their players, rounds and bids.
_V1 = """
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

#: Version 16: every bidder's take (``[OpenTakes "each"]``), one row per round of such a
#: game: each seat's prize taken in seat order, NULL for a seat that took nothing. A table
#: of its own, so other games cost nothing and rounds keep their columns.
_V16_ROUND_TAKES = """
CREATE TABLE IF NOT EXISTS round_takes (
    game_id   UBIGINT NOT NULL,
    round_no  TINYINT NOT NULL,
    takes     TINYINT[] NOT NULL
);
"""

#: Gops's steps of the schema, by version (the registry part ``"schema"``).
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema: imports, games, game_players, rounds, bids, rejects", _V1,
              tables=("games", "game_players", "rounds", "bids")),
    Migration(2, "numeric game_id, bids in their round (bids is a view), per-game tie and "
                 "pool summary", _V2_TABLES + _V2_COPY + BIDS_VIEW + TAG_MACRO),
    Migration(4, "rounds stored lean in round_rows; rounds is a view with the same columns",
              _V4_ROUND_ROWS, tables=("round_rows",)),
    Migration(7, "the variants: games.bid_cards and open_prizes; their rounds in "
                 "variant_round_rows (a bid's cards, the prizes revealed, taken and set "
                 "aside); rounds is the union; bids.cards_played and strength", _V7_VARIANTS,
              tables=("variant_round_rows",)),
    Migration(11, "games.player_a to player_d: each game's players in seat order, as in "
                  "game_players", _V11_SEAT_PLAYERS),
    Migration(12, "games.carried_pools: the rounds of a classic game with a carried pool",
              _V12_CARRIED_POOLS),
    Migration(16, "round_takes: every bidder's take in games read with OpenTakes each",
              _V16_ROUND_TAKES, tables=("round_takes",)),
)
