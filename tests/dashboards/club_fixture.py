"""A small hand-written club database for the dashboard tests (and how to build it).

Hand-checked facts (5-card games, so every number can be checked on paper):

- Tuesday club, 2026-03-03, match "Alice-Bruno", carry rule: Alice 9-6, Alice 8-7, draw 5-5
  (the last two rounds tie, so 5 points are left unclaimed). Match totals 22-18.
- Friday cup, 2026-03-06: Carla beats Alice 12-1 under the discard rule (2 unclaimed);
  a three-player game Carla 8, Alice 4, Bruno 3; an unfinished game Alice 5, Carla 4.
- One broken record with two problems (Alice plays her 3 twice, then a 7 in a 5-card
  game), which is quarantined.
"""

from __future__ import annotations

import random
from pathlib import Path

from gops_records.core.importer import import_paths
from gops_records.games.gops.bots import Personality
from gops_records.games.gops.notation import write_games
from gops_records.games.gops.rules import RuleProfile, TieRule
from gops_records.games.gops.simulate import Player, simulate_game

TUESDAY = """\
[Event "Tuesday club"] [Date "2026.03.03"] [Match "Alice-Bruno"] [Round "1"]
[A "Alice"] [B "Bruno"] [Cards "5"] [TieRule "carry"]
1. 3♦ 3♣ 2♠  2. 5♦ 4♣ 4♠ {tie: the 5 stays}  3. A♦ A♣ 5♠  4. 4♦ 5♣ 3♠  5. 2♦ 2♣ A♠
9-6

[Event "Tuesday club"] [Date "2026.03.03"] [Match "Alice-Bruno"] [Round "2"]
[A "Alice"] [B "Bruno"] [Cards "5"] [TieRule "carry"]
1. 5♦ 5♣ 4♠  2. 2♦ A♣ 2♠  3. 4♦ 3♣ 3♠  4. A♦ 2♣ 5♠  5. 3♦ 4♣ A♠
8-7

[Event "Tuesday club"] [Date "2026.03.03"] [Match "Alice-Bruno"] [Round "3"]
[A "Alice"] [B "Bruno"] [Cards "5"] [TieRule "carry"]
1. A♦ A♣ 2♠  2. 4♦ 2♣ 5♠  3. 5♦ 5♣ A♠  4. 3♦ 3♣ 3♠  5. 2♦ 4♣ 4♠ {nobody gets the 3 and the 2}
5-5
"""

FRIDAY = """\
[Event "Friday cup"] [Date "2026.03.06"] [A "Carla"] [B "Alice"] [Cards "5"]
[TieRule "discard"]
1. 2♦ 2♣ 2♠  2. 5♦ 5♣ 4♠  3. A♦ A♣ 5♠  4. 4♦ 3♣ A♠  5. 3♦ 4♣ 3♠
12-1

[Event "Friday cup"] [Date "2026.03.06"] [A "Carla"] [B "Alice"] [C "Bruno"] [Cards "5"]
[TieRule "carry"]
1. 5♦ 5♣ 4♠ 3♥  2. 4♦ A♣ 5♠ 4♥  3. 3♦ 4♣ 3♠ 5♥  4. 2♦ 3♣ 2♠ 2♥  5. A♦ 2♣ A♠ A♥
8-4-3

[Event "Friday cup"] [Date "2026.03.06"] [A "Alice"] [B "Carla"] [Cards "5"] [TieRule "carry"]
1. 5♦ 5♣ A♠  2. 4♦ A♣ 4♠
*

[Event "Friday cup"] [Date "2026.03.06"] [A "Alice"] [B "Bruno"] [Cards "5"]
1. 3♦ 3♣ 2♠  2. 5♦ 3♣ 4♠  3. 4♦ 7♣ 5♠
*
"""

GAMES = 6  # valid games in the fixture; plus 1 reject
PLAYERS = ("Alice", "Bruno", "Carla")


def write_records(folder: Path) -> Path:
    """The fixture records as two .gops files in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tuesday.gops").write_text(TUESDAY, encoding="utf-8")
    (folder / "friday.gops").write_text(FRIDAY, encoding="utf-8")
    return folder


def build_club_db(tmp: Path) -> Path:
    """Import the fixture records into a fresh database under ``tmp``; returns its path."""
    db = tmp / "club.duckdb"
    summary = import_paths([write_records(tmp / "records")], db)
    assert (summary.games_new, summary.games_rejected) == (GAMES, 1), summary.as_dict()
    return db


#: Simulated players for the Scout page: Pia always bids the prize, Ravi bids at random.
PIA, RAVI = Player("Pia", Personality.PRIZE), Player("Ravi", Personality.RANDOM)
SCOUT_GAMES = 30  # Pia against Ravi, 13 cards, discard rule


def simulated_records(games: int = SCOUT_GAMES, seed: int = 4) -> str:
    """Pia against Ravi (seats alternating), one evening, as .gops text."""
    rng = random.Random(seed)
    profile = RuleProfile(tie_rule=TieRule.DISCARD)
    records = [simulate_game(profile, [PIA, RAVI] if i % 2 == 0 else [RAVI, PIA], rng,
                             {"Event": "Bot night", "Date": "2026.04.01", "Round": str(i + 1)})
               for i in range(games)]
    return write_games(records)


def build_scout_db(tmp: Path) -> Path:
    """The club records plus :data:`SCOUT_GAMES` simulated games of Pia and Ravi."""
    folder = write_records(tmp / "records")
    (folder / "bots.gops").write_text(simulated_records(), encoding="utf-8")
    db = tmp / "scout.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_new == GAMES + SCOUT_GAMES, summary.as_dict()
    return db


#: Names, tags and a comment written to break out of Markdown, one evening after Friday.
EVIL_LINK = "http://evil.example"
HOSTILE_PLAYER = f"**x** [link]({EVIL_LINK})"
HOSTILE_EVENT = "Evil `code` night"
HOSTILE = f"""\
[Event "{HOSTILE_EVENT}"] [Date "2026.03.09"] [Match "**m** [m]({EVIL_LINK})"]
[A "{HOSTILE_PLAYER}"] [B "Bob :red[red] $x$"] [Cards "3"] [TieRule "carry"]
[Site "<b>bold</b> {EVIL_LINK}"]
1. 3♦ 3♣ 2♠ {{a **comment** [c]({EVIL_LINK})}}  2. 2♦ A♣ 3♠  3. A♦ 2♣ A♠
4-2
"""


def build_hostile_db(tmp: Path) -> Path:
    """The club records plus one game whose names and tags are hostile Markdown."""
    folder = write_records(tmp / "records")
    (folder / "hostile.gops").write_text(HOSTILE, encoding="utf-8")
    db = tmp / "hostile.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_new == GAMES + 1, summary.as_dict()
    return db
