"""Untrusted text escaping, the one cached-read factory of dashboards/data.py (through the
Gops reads of dashboards/gops/data.py), and the printable evening page."""

from __future__ import annotations

import html

import polars as pl
import pytest
from club_fixture import EVIL_LINK, HOSTILE_PLAYER
from gops_records.dashboards import printable
from gops_records.dashboards.gops import data
from gops_records.dashboards.text import WORD_JOINER, escape_md
from markdown_it import MarkdownIt

from gops_records.games.gops.analytics import Filters

HOSTILE = [HOSTILE_PLAYER, "Evil `code` night", "1` [x](http://evil.example) `",
           "<b>bold</b> <script>alert(1)</script>", "# heading", "- item", "a\n\n# b",
           "_it_ ~~s~~ | t |", "Bob :red[red] $x$ :material/home:", "\\*x\\*", "![i](x.png)",
           "www.evil.example and me@evil.example"]


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_renders_as_itself(text):
    rendered = MarkdownIt("commonmark").enable("strikethrough").enable("table").render(
        f"Player {escape_md(text)} won")
    for tag in ("<a ", "<strong", "<em", "<code", "<h1", "<li", "<img", "<script", "<s>",
                "<b>", "<table"):
        assert tag not in rendered, (text, rendered)
    # what shows is the text itself (line breaks become spaces)
    shown = html.unescape(rendered.removeprefix("<p>").removesuffix("</p>\n"))
    assert shown.replace(WORD_JOINER, "") == f"Player {' '.join(text.splitlines())} won"
    # no address is left whole for a linkifier to find
    for address in ("http://", "www.e", "@evil", "evil.example"):
        assert address not in shown, address


def test_escape_md_of_nothing_and_of_plain_names():
    assert escape_md(None) == ""
    assert escape_md("Anna de Vries") == "Anna de Vries"
    assert escape_md(42) == "42"


def test_each_read_has_its_own_cache(club_db):
    """Reads made by the factory share one code path: their caches must still be apart."""
    view = data.view_of(club_db)
    assert data.events(view) == ["Friday cup", "Tuesday club"]
    assert data.matches(view) == ["Alice-Bruno"]
    assert data.players(view) == ["Alice", "Bruno", "Carla"]
    assert data.events.__name__ == "events" and "list_events" in data.events.__doc__


def test_filtered_and_unfiltered_reads(club_db):
    friday = data.view_of(club_db, Filters(events=("Friday cup",)))
    assert data.overview(friday)["games"] == 3
    assert data.overview(friday.unfiltered)["games"] == 6
    # a read the filters do not apply to is cached once for every filter
    assert data.events(friday) == data.events(friday.unfiltered)
    assert data.games(friday, 2)["event"].to_list() == ["Friday cup", "Friday cup"]
    assert data.game_detail(friday, "no-such-game") is None
    assert data.opponents(friday, "Bruno") == ["Alice", "Carla"]


def test_explain_empty_escapes_the_filters(club_db):
    view = data.view_of(club_db, Filters(events=(HOSTILE_PLAYER,)))
    text = data.explain_empty(view)
    assert text.startswith(data.NO_MATCH)
    assert HOSTILE_PLAYER not in text and escape_md(HOSTILE_PLAYER) in text


def test_the_printable_page_is_self_contained_and_escaped():
    standings = pl.DataFrame({
        "player": [HOSTILE_PLAYER, "<b>Bob</b>"], "games": [2, 2], "wins": [2, 0],
        "draws": [0, 0], "losses": [0, 2], "points_for": [20, 5], "points_against": [9, 16],
        "point_diff": [11, -11], "win_rate": [1.0, 0.0], "ci_low": [0.34, 0.0],
        "ci_high": [1.0, 0.66]})
    matches = pl.DataFrame({"event": ["e"], "date": [None], "match": ["m1"],
                            "player": ["<b>Bob</b>"], "games": [2], "total_points": [5],
                            "game_wins": [0], "cumulative_rank": [2], "best_of_winner": [None],
                            "cumulative_winner": [None], "match_games": [2]})
    page = printable.session_page("2026-03-06 · <i>Friday</i>", "x won", standings, matches,
                                  game="Gops")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert "<h1>Gops results: 2026-03-06 · &lt;i&gt;Friday&lt;/i&gt;</h1>" in page
    assert "<b>Bob</b>" not in page and "&lt;b&gt;Bob&lt;/b&gt;" in page
    assert "<i>Friday</i>" not in page
    assert f'href="{EVIL_LINK}"' not in page and "<script" not in page
    assert "http" not in page.replace(EVIL_LINK, "")  # nothing fetched
    assert ">+11<" in page and ">-11<" in page and ">100%<" in page and ">34%–100%<" in page
    assert "None" not in page and "nan" not in page  # blanks, not None
