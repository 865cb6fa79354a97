"""The dashboard in a real headless Chromium: `gops dashboard` on a free port, every page.

Needs Debian's /usr/bin/chromium and the playwright package (no downloaded browsers);
skipped with the reason when either is missing. The server is always stopped.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from urllib.parse import quote_plus, urlsplit

import pytest
from club_fixture import (
    EVIL_LINK,
    GAMES,
    HOSTILE_PLAYER,
    build_club_db,
    build_hostile_db,
)
from gops_records.dashboards.text import WORD_JOINER
from gops_records.pipelines.screenshots import (
    CHROMIUM,
    dashboard_server,
    launch_chromium,
    open_page,
    sample_db,
    wait_drawn,
)

from gops_records.core.importer import import_paths

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

#: navigation label -> (path, title, charts on the page) on the club database.
PAGES = {
    "Session": ("/", "Session results", 1),
    "Players": ("/players", "Players", 7),  # 2 of them: rating history, calibration
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
    pools = page.get_by_test_id("stDataFrame").filter(  # the biggest pools
        has=page.locator("th", has_text="pool value"))
    pools.scroll_into_view_if_needed()
    box = pools.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 + 17)  # the first row's selection box
    wait_for_url(page, "/game", "event=Tuesday+club", "game_id=")
    assert_no_exception(page)
    assert page.locator("h3").first.inner_text().startswith("Alice vs Bruno: Alice won")
    assert metric(page, "Result") == "9-6"


def test_choosing_an_event_in_the_sidebar_updates_page_and_url(server, page):
    visit(page, server + "/?evening=all")
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
        visit(page, url + "/?evening=all")
        assert metric(page, "Games") == str(GAMES)
        more = tmp_path / "saturday.gops"
        more.write_text(SATURDAY, encoding="utf-8")
        assert import_paths([more], db, lock_timeout=20).games_new == 1
        page.get_by_test_id("stSidebar").get_by_text("Finished games only").click()
        wait_for_url(page, "/", "finished=1", "evening=all")
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


# -- layout, theme, downloads, offline, untrusted text -----------------------------------

@pytest.fixture(scope="module")
def samples_server(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bundled samples: 17 players, 5 evenings."""
    folder = tmp_path_factory.mktemp("samples")
    with dashboard_server(sample_db(folder), log=folder / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("hostile")
    with dashboard_server(build_hostile_db(folder), log=folder / "server.log") as url:
        yield url


def new_tab(browser, width: int, scheme: str = "light", height: int = 2400):
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              color_scheme=scheme, accept_downloads=True)
    return ctx, ctx.new_page()


def grid_sizes(page, index: int) -> dict:
    """The index-th table's scroll and client sizes, and its right edge."""
    return page.evaluate("""(i) => {
        const d = document.querySelectorAll('[data-testid=stDataFrame]')[i];
        const s = d.querySelector('.dvn-scroller');
        return {sw: s.scrollWidth, cw: s.clientWidth, sh: s.scrollHeight, ch: s.clientHeight,
                right: d.getBoundingClientRect().right, view: window.innerWidth}; }""", index)


@pytest.mark.parametrize("width", [390, 1400])
@pytest.mark.parametrize("query", ["/?evening=all", "/"], ids=["all-evenings", "latest"])
def test_standings_fit_the_page(samples_server, browser, width, query):
    ctx, page = new_tab(browser, width)
    try:
        visit(page, samples_server + query)
        assert_no_exception(page)
        page.get_by_role("heading", name="Standings").wait_for()
        size = grid_sizes(page, 0)  # the standings: the page's first table
        assert size["sw"] <= size["cw"] + 1, f"columns cut off at {width} px: {size}"
        assert size["sh"] <= size["ch"] + 1, f"rows hidden behind a scroll bar: {size}"
        assert size["right"] <= size["view"], size
        if query == "/?evening=all":  # 17 players, each a row of the table
            assert size["ch"] >= 18 * 35
    finally:
        ctx.close()


def rgb(colour: str) -> tuple[float, float, float]:
    if colour.startswith("#"):
        hexes = colour[1:]
        if len(hexes) == 3:
            hexes = "".join(c * 2 for c in hexes)
        return tuple(int(hexes[i:i + 2], 16) for i in (0, 2, 4))
    return tuple(float(x) for x in re.findall(r"[\d.]+", colour)[:3])


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours."""
    def lum(c: str) -> float:
        parts = [v / 255 for v in rgb(c)]
        lin = [p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("path", ["/?evening=all", "/players", "/ties", "/h2h", "/game"])
def test_chart_text_and_marks_read_on_the_theme(server, browser, scheme, path):
    ctx, page = new_tab(browser, 1400, scheme)
    try:
        visit(page, server + path)
        background = page.evaluate("getComputedStyle(document.querySelector("
                                   "'[data-testid=stApp]')).backgroundColor")
        dark = sum(rgb(background)) < 3 * 128
        assert dark == (scheme == "dark"), background
        found = page.evaluate("""() => {
            const out = {text: [], lines: []};
            for (const c of document.querySelectorAll('[data-testid=stVegaLiteChart] svg')) {
                for (const t of c.querySelectorAll('text')) {
                    // text on heatmap cells is drawn against the cell, not the page
                    if (t.closest('.role-mark') || !t.textContent.trim()) continue;
                    out.text.push([t.textContent, t.getAttribute('fill')]);
                }
                const rules = '.mark-rule.role-mark line, .mark-rule.role-mark path';
                for (const l of c.querySelectorAll(rules)) out.lines.push(l.getAttribute('stroke'));
            }
            return out; }""")
        assert found["text"], path
        for text, fill in found["text"]:
            assert fill and contrast(fill, background) >= 3, (text, fill, background)
        for stroke in found["lines"]:  # interval bars and zero lines
            assert stroke and contrast(stroke, background) >= 2.5, (stroke, background)
    finally:
        ctx.close()


def download(page, label: str, nth: int = 0) -> tuple[str, bytes]:
    button = page.get_by_test_id("stDownloadButton").filter(has_text=label).nth(nth)
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=30_000) as event:
        button.click()
    return event.value.suggested_filename, Path(event.value.path()).read_bytes()


def test_tables_charts_and_the_evening_download(server, browser):
    ctx, page = new_tab(browser, 1400)
    try:
        visit(page, server + "/")  # the latest evening: Friday cup
        name, data = download(page, "CSV")
        assert name == "standings.csv"
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
        assert [r["player"] for r in rows] == ["Carla", "Bruno", "Alice"]
        assert (rows[0]["wins"], rows[0]["points_for"], rows[0]["point_diff"]) == ("2", "20", "15")
        name, data = download(page, "PNG")
        assert name == "standings.png" and data[:8] == b"\x89PNG\r\n\x1a\n"
        name, data = download(page, "SVG")
        assert name == "standings.svg" and b"Wins, draws and losses" in data
        name, data = download(page, "Printable results (HTML)")
        assert name == "gops-2026-03-06-friday-cup.html"
        text = data.decode("utf-8")
        assert "Carla won 2 of 2 games (20 points, +15)" in text
        assert "<script" not in text and "http" not in text
        visit(page, server + "/ties")
        name, data = download(page, "CSV")  # ties per pair of players
        assert name == "ties-per-pair.csv" and data.decode("utf-8-sig").startswith("player,")
    finally:
        ctx.close()


def test_nothing_is_fetched_from_the_internet(server, browser):
    ctx, page = new_tab(browser, 1400)
    hosts: set[str] = set()
    page.on("request", lambda r: hosts.add(urlsplit(r.url).netloc or urlsplit(r.url).scheme))
    try:
        for path, _, _ in PAGES.values():
            visit(page, server + path)
        icons = page.evaluate("[...document.querySelectorAll('link[rel~=icon]')]"
                              ".map(l => l.href)")
        assert icons and all(h.startswith("data:") for h in icons), icons
        assert hosts <= {urlsplit(server).netloc, "data", "blob"}, hosts
    finally:
        ctx.close()


def seen(locator) -> str:
    """The text a reader sees (the invisible word joiners that break addresses dropped)."""
    return locator.inner_text().replace(WORD_JOINER, "")


def assert_no_evil_link(page) -> None:
    links = page.locator(f'a[href*="{urlsplit(EVIL_LINK).netloc}"]')
    assert links.count() == 0, links.first.evaluate("a => a.outerHTML")
    assert page.locator("[data-testid=stMain] strong", has_text="x").count() == 0


def test_hostile_names_show_as_text(hostile_server, page):
    visit(page, hostile_server + "/players?profile=" + quote_plus(HOSTILE_PLAYER))
    assert_no_exception(page)
    main = page.get_by_test_id("stMain")
    assert f"{HOSTILE_PLAYER}'s games" in seen(main)
    assert_no_evil_link(page)
    for path in ("/", "/h2h", "/ties", "/game"):
        visit(page, hostile_server + path)
        assert_no_exception(page)
        assert_no_evil_link(page)
    assert HOSTILE_PLAYER in seen(main)  # the game viewer's heading, as written


def test_a_crafted_game_id_stays_in_its_sentence(server, page):
    crafted = f"1` [x]({EVIL_LINK}) `"
    visit(page, server + "/game?game_id=" + quote_plus(crafted))
    assert_no_exception(page)
    warning = page.get_by_test_id("stAlert").first
    assert f"There is no game with id {crafted} in this database" in seen(warning)
    assert warning.locator("a, code").count() == 0
