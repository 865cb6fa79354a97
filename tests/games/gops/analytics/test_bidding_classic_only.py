"""The hand-aware bidding measures read classic games only, whatever the caller's filter.

They follow one card a bid and one prize a round (a hand loses one card a round, the prize
is the card shown), so a game of bids of several cards or of open prizes would count wrong
hand sizes and prizes. The dashboard narrows its filter itself (``Filters.only(CLASSIC)``);
called directly, :mod:`gops_records.games.gops.analytics.bidding` must do the same.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest
from polars.testing import assert_frame_equal

from gops_records.core.importer import import_paths
from gops_records.games.gops.analytics import (
    ALL_GAMES,
    Filters,
    bid_habits,
    bid_heatmap,
    bid_minus_prize,
    carry_effect,
    player_bidding,
    relative_bids,
)

#: Ann plays a game of bids of two cards and one of open prizes (docs/notation.md's
#: worked examples, with Ann in Alice's seat).
VARIANTS = """\
[Event "Club"] [Date "2026.01.22"] [A "Ann"] [B "Bob"] [TieRule "carry"] [Cards "7"]
[BidCards "2"]
1. 5♦ 7♣+A♣ 6♠+2♠ 2. 2♦ 3♣+2♣ 7♠+A♠ 3. 4♦ 6♣+5♣ 5♠+4♠
4-7

[Event "Club"] [Date "2026.01.22"] [A "Ann"] [B "Bob"] [TieRule "discard"] [Cards "5"]
[OpenPrizes "3"]
1. (4♦ A♦ 5♦) 3♣ 2♠ 5♦ 2. (2♦) 4♣ 4♠ - 3. (3♦) 5♣ A♠ 4♦ 4. () A♣ 3♠ 3♦
5. () 2♣ 5♠ A♦
9-4
"""

FUNCTIONS = (bid_heatmap, bid_minus_prize, relative_bids, bid_habits, carry_effect)


def _database(folder: Path, *texts: str) -> Path:
    folder.mkdir()
    for n, text in enumerate(texts):
        (folder / f"part{n}.gops").write_text(text, encoding="utf-8")
    db = folder / "club.duckdb"
    summary = import_paths([folder], db)
    assert summary.games_rejected == 0, summary.as_dict()
    return db


@pytest.fixture(scope="module")
def cons(tmp_path_factory: pytest.TempPathFactory, club_db: Path):
    """(the club's classic games, the same games plus Ann's two variant games)."""
    root = tmp_path_factory.mktemp("classic-only")
    club = (club_db.parent / "club.gops").read_text(encoding="utf-8")
    classic = duckdb.connect(str(_database(root / "classic", club)), read_only=True)
    mixed = duckdb.connect(str(_database(root / "mixed", club, VARIANTS)), read_only=True)
    assert mixed.execute("SELECT count(*) FROM games WHERE bid_cards > 1 "
                         "OR open_prizes IS NOT NULL").fetchall() == [(2,)]
    yield classic, mixed
    classic.close()
    mixed.close()


@pytest.mark.parametrize(("f", "bids"), [
    (ALL_GAMES, 19), (Filters(events=("Club",)), 12),
    (Filters(date_from=dt.date(2026, 1, 10)), 11)])
def test_variant_games_do_not_change_the_figures(cons, f, bids):
    classic, mixed = cons
    want = player_bidding(classic, f, "Ann")
    got = player_bidding(mixed, f, "Ann")
    assert list(got) == list(want)
    for name, frame in want.items():
        assert_frame_equal(got[name], frame, check_exact=False)
    for fn in FUNCTIONS:
        assert_frame_equal(fn(mixed, f, "Ann"), want[fn.__name__], check_exact=False)
    # Ann's classic bids: 4 in each of G1-G4, 3 in G6 (Club: G1-G3; from Jan 10: G3, G4, G6)
    assert want["bid_heatmap"]["count"].sum() == bids


def test_a_variant_filter_reads_no_bids(cons):
    _, mixed = cons
    for variant in ("bid-cards-2", "open-prizes-3"):
        frames = player_bidding(mixed, Filters(variant=variant), "Ann")
        assert frames["bid_heatmap"].is_empty()
        assert frames["bid_minus_prize"].is_empty()
        assert frames["bid_habits"]["n"].sum() == 0
        assert frames["carry_effect"]["n"].sum() == 0
    classic = player_bidding(mixed, Filters(variant="classic"), "Ann")
    assert classic["bid_heatmap"]["count"].sum() == 19
