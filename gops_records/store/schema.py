"""The DuckDB schema: a contract with users' own SQL, documented in docs/schema.md.

Changes are made only by appending a migration to :data:`MIGRATIONS`; each applied
migration is recorded in ``schema_migrations``, so a database always says which
version of the schema it holds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


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

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema: imports, games, game_players, rounds, bids, rejects", _V1),
)

#: Tables a user may query; the order is the load order.
TABLES = ("imports", "games", "game_players", "rounds", "bids", "rejects")
