"""The dashboard in a real headless Chromium: `gops dashboard` on a free port, every page.

Needs Debian's /usr/bin/chromium and the playwright package (no downloaded browsers);
skipped with the reason when either is missing. The server is always stopped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from club_fixture import GAMES, build_club_db

from gops_records.importer import import_paths
from pipelines.screenshots import (
    CHROMIUM,
    dashboard_server,
    launch_chromium,
    open_page,
    wait_drawn,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

#: navigation label -> (path, title, charts on the page) on the club database.
PAGES = {
    "Session": ("/", "Session results", 1),
    "Players": ("/players", "Players", 5),
    "Scout": ("/scout", "Scout", 4),
    "Ties and pools": ("/ties", "Ties and pools", 7),
    "Head-to-head": ("/h2h", "Head-to-head", 1),
    "Game viewer": ("/game", "Game viewer", 2),
    "Data quality": ("/quality", "Data quality", 1),
}
SETTLE_MS = 300


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("browser")
    with dashboard_server(build_club_db(folder), log=folder / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def context(browser):
    """One browser context for the module, so the app's scripts load from its cache."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 2400})
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context):
    tab = context.new_page()
    try:
        yield tab
    finally:
        tab.close()


def visit(page, url: str) -> None:
    open_page(page, url, settle_ms=SETTLE_MS)


def wait_for_url(page, path: str, *parts: str) -> None:
    """Wait until the address is ``path`` with every query part in it, then for the page."""
    page.wait_for_function(
        "([path, parts]) => location.pathname === path"
        " && parts.every(p => location.search.includes(p))", arg=[path, list(parts)],
        timeout=20_000)
    wait_drawn(page, SETTLE_MS)


def metric(page, label: str) -> str:
    box = page.get_by_test_id("stMetric").filter(
        has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
    return box.get_by_test_id("stMetricValue").inner_text().strip()


def assert_no_exception(page) -> None:
    errors = page.get_by_test_id("stException")
    assert errors.count() == 0, errors.first.inner_text()


def check_page(page, label: str) -> None:
    path, title, charts = PAGES[label]
    assert_no_exception(page)
    assert page.locator("h1").first.inner_text().strip() == title, label
    found = page.get_by_test_id("stVegaLiteChart")
    assert found.count() == charts, label
    for i in range(charts):
        assert found.nth(i).locator("svg, canvas").count() > 0, f"chart {i} on {label} is empty"


def test_every_page_through_the_navigation(server, page):
    visit(page, server + "/?tie_rule=carry")
    for label, (path, _, _) in PAGES.items():
        page.get_by_test_id("stSidebarNav").get_by_text(label, exact=True).click()
        wait_for_url(page, path, "tie_rule=carry")  # the filter follows to every page
        check_page(page, label)


def test_a_shared_url_sets_the_filters(server, page):
    visit(page, server + "/?event=Tuesday+club")
    assert metric(page, "Games") == "3"
    assert "Tuesday club" in page.get_by_test_id("stSidebar").inner_text()


def test_clicking_a_game_row_opens_the_game_viewer(server, page):
    visit(page, server + "/?event=Tuesday+club")
    pools = page.get_by_test_id("stDataFrame").nth(2)  # standings, matches, biggest pools
    pools.scroll_into_view_if_needed()
    box = pools.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 + 17)  # the first row's selection box
    wait_for_url(page, "/game", "event=Tuesday+club", "game_id=")
    assert_no_exception(page)
    assert page.locator("h3").first.inner_text().startswith("Alice vs Bruno: Alice won")
    assert metric(page, "Result") == "9-6"


def test_choosing_an_event_in_the_sidebar_updates_page_and_url(server, page):
    visit(page, server + "/")
    assert metric(page, "Games") == str(GAMES)
    page.get_by_test_id("stSidebar").get_by_test_id("stMultiSelect").first.click()
    page.get_by_role("option", name="Friday cup").click()
    page.keyboard.press("Escape")
    wait_for_url(page, "/", "event=Friday+cup")
    assert metric(page, "Games") == "3"


SATURDAY = """\
[Event "Saturday open"] [Date "2026.03.07"] [A "Dora"] [B "Carla"] [Cards "3"]
1. 3♦ 3♣ 2♠  2. 2♦ A♣ 3♠  3. A♦ 2♣ A♠
4-2
"""


def test_an_import_while_the_dashboard_is_open(tmp_path: Path, page):
    db = build_club_db(tmp_path)
    with dashboard_server(db, log=tmp_path / "server.log") as url:
        visit(page, url + "/")
        assert metric(page, "Games") == str(GAMES)
        more = tmp_path / "saturday.gops"
        more.write_text(SATURDAY, encoding="utf-8")
        assert import_paths([more], db, lock_timeout=20).games_new == 1
        page.get_by_test_id("stSidebar").get_by_text("Finished games only").click()
        wait_for_url(page, "/", "finished=1")
        assert metric(page, "Games") == "6"  # the 5 finished club games and Saturday's


def test_the_scout_page_draws_the_predicted_bids(server, page):
    visit(page, server + "/scout?scout=Bruno")
    assert_no_exception(page)
    assert page.locator("h3").first.inner_text().startswith("Bruno is ")
    assert metric(page, "Games studied") == "4"  # the Tuesday match and the 3-player game
    heatmap = page.get_by_test_id("stVegaLiteChart").filter(
        has=page.locator("svg text", has_text="What the model expects Bruno to bid"))
    assert heatmap.count() == 1
    # one cell per prize and bid of the 5-card games
    assert heatmap.locator(".mark-rect.role-mark path").count() == 25
    page.get_by_test_id("stSelectbox").filter(has_text="Only their games against").click()
    page.get_by_role("option", name="Alice").click()
    wait_for_url(page, "/scout", "scout=Bruno", "vs=Alice")
    assert metric(page, "Games studied") == "4"
    assert page.get_by_test_id("stVegaLiteChart").count() == 4
