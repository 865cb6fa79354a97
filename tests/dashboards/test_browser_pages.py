"""Issue 24's "Charts and pages" in a real headless Chromium, on the bundled samples
(17 Gops players, 7 Gin players): the documented short paths, what a 390 px phone shows
without scrolling sideways, drawn axis labels that do not run into each other, and one
colour per way a Gin hand ends.

Needs Debian's /usr/bin/chromium and the playwright package; skipped when either is
missing. The server is always stopped.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from gops_records.dashboards.gin.charts import ENDING_COLOURS
from gops_records.dashboards.gin.pages import PAGES as GIN_PAGES
from gops_records.dashboards.gops.pages import PAGES as GOPS_PAGES
from gops_records.dashboards.navigation import SHARED_PAGES
from gops_records.pipelines.screenshots import (
    CHROMIUM,
    dashboard_server,
    launch_chromium,
    liveliest,
    open_page,
    sample_db,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

PHONE, DESKTOP = 390, 1400
GIN_PLAYERS = 7  # in the samples' Gin records


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("pages")
    db = sample_db(folder)
    with dashboard_server(db, log=folder / "server.log") as url:
        yield url, liveliest(db)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        try:
            yield b
        finally:
            b.close()


def tab(browser, width: int):
    ctx = browser.new_context(viewport={"width": width, "height": 3000})
    return ctx, ctx.new_page()


def visit(page, url: str) -> None:
    open_page(page, url, settle_ms=300)
    errors = page.get_by_test_id("stException")
    assert errors.count() == 0, errors.first.inner_text()


#: Finds the svg of the chart whose title starts with ``title`` (titles may be cut with
#: an ellipsis on a phone, so a prefix).
CHART_JS = """(title) => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg')]
    .find(s => [...s.querySelectorAll('.role-title-text')]
                .some(t => t.textContent.startsWith(title)))"""


def axis_labels(page, title: str, axis: str) -> list[dict]:
    """The labels the axis titled ``axis`` ("": the untitled one) of the chart ``title``
    draws: text and box."""
    return page.evaluate(f"""([title, axis]) => {{
        const svg = ({CHART_JS})(title);
        const g = [...svg.querySelectorAll('.role-axis')]
            .find(a => (a.getAttribute('aria-label') || '')
                       .includes(axis ? `titled '${{axis}}'` : '-axis for'));
        return [...g.querySelectorAll('.role-axis-label text')]
            .filter(t => t.getAttribute('opacity') !== '0' && t.textContent)
            .map(t => {{ const r = t.getBoundingClientRect();
                         return {{text: t.textContent, x: r.x, y: r.y, right: r.right,
                                  bottom: r.bottom}}; }}); }}""", [title, axis])


def legend_right_edge(page, title: str) -> float:
    """Where the rightmost legend label of the chart ``title`` ends, in the page."""
    return page.evaluate(f"""(title) => Math.max(...[...({CHART_JS})(title)
        .querySelectorAll('.role-legend-label text')]
        .map(t => t.getBoundingClientRect().right))""", title)


def legend(page, title: str) -> dict[str, str]:
    """The legend entries of the chart ``title``: label -> its symbol's fill."""
    return page.evaluate(f"""(title) => {{
        const svg = ({CHART_JS})(title);
        const labels = svg.querySelectorAll('.role-legend-label text');
        const symbols = svg.querySelectorAll('.role-legend-symbol path');
        const out = {{}};  // each legend draws one symbol a label, in the same order
        labels.forEach((t, i) => {{ out[t.textContent] = symbols[i].getAttribute('fill'); }});
        return out; }}""", title)


#: The part of a label's line box its letters fill across the line (a 12 px label's line
#: box is 16 px; capitals and descenders take about 11 of them).
INK = 0.7


def ink(label: dict) -> tuple[float, float, float, float]:
    """A label's box with its short side (across the line, sloped or not) cut to INK."""
    x0, y0, x1, y1 = label["x"], label["y"], label["right"], label["bottom"]
    if x1 - x0 < y1 - y0:  # an upright label: the line runs up, across is x
        cut = (x1 - x0) * (1 - INK) / 2
        return x0 + cut, y0, x1 - cut, y1
    cut = (y1 - y0) * (1 - INK) / 2
    return x0, y0 + cut, x1, y1 - cut


def overlapping(labels: list[dict]) -> list[tuple[str, str]]:
    """Pairs of labels whose letters run into each other."""
    boxes = [(label["text"], ink(label)) for label in labels]
    return [(a, b) for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes)
            for b, (bx0, by0, bx1, by1) in boxes[i + 1:]
            if min(ax1, bx1) > max(ax0, bx0) and min(ay1, by1) > max(ay0, by0)]


def visible_columns(page, index: int) -> list[str]:
    """The column headers the index-th table draws in its visible part."""
    return page.evaluate("""(i) => [...document.querySelectorAll('[data-testid=stDataFrame]')[i]
        .querySelectorAll('th')].map(t => t.textContent)""", index)


def rgb(colour: str) -> tuple[int, ...]:
    if colour.startswith("#"):
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(int(float(v)) for v in re.findall(r"[\d.]+", colour)[:3])


def test_every_documented_short_path_opens_its_page(samples, browser):
    url, _ = samples
    ctx, page = tab(browser, DESKTOP)
    try:
        for spec in (*GOPS_PAGES.pages, *GIN_PAGES.pages, *SHARED_PAGES):
            visit(page, f"{url}/{spec.url_path}?tie_rule=carry")
            assert page.get_by_text("Page not found").count() == 0, spec.url_path
            nav = page.get_by_test_id("stSidebarNav")
            assert nav.get_by_text(spec.title, exact=True).count() == 1
            assert page.locator("h1").first.inner_text().strip(), spec.url_path
            if spec.default:  # /session forwards to /, the link's parameters kept
                assert page.evaluate("location.pathname") == "/"
                assert page.locator("h1").first.inner_text().strip() == "Session results"
                assert "tie_rule=carry" in page.evaluate("location.search")
            else:
                assert page.evaluate("location.pathname") == f"/{spec.url_path}"
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_knocks_and_gin_axes_are_whole_and_in_order(samples, browser, width):
    url, _ = samples
    ctx, page = tab(browser, width)
    try:
        visit(page, url + "/gin-knocks")
        names = axis_labels(page, "Who waits for gin", "player")
        assert len(names) == GIN_PLAYERS, [n["text"] for n in names]
        assert not overlapping(names)
        limits = [int(t["text"]) for t in axis_labels(page, "Deadwood kept at a knock",
                                                      "knock limit")]
        assert limits == sorted(limits) and limits[-1] == 10, limits
    finally:
        ctx.close()


def test_one_colour_per_ending_on_every_gin_chart(samples, browser):
    url, _ = samples
    ctx, page = tab(browser, DESKTOP)
    try:
        visit(page, url + "/gin-hands")
        charts = ("How hands end, by knock limit", "How each player's hands end",
                  "Deadwood caught", "Pile draws and how")
        drawn = {title: legend(page, title) for title in charts}
        gins = {title: rgb(entries["gin"]) for title, entries in drawn.items()
                if "gin" in entries}
        assert len(gins) == len(charts), drawn  # gin is in every one of them
        assert set(gins.values()) == {rgb(ENDING_COLOURS["gin"])}, gins
        for title, entries in drawn.items():
            for label, fill in entries.items():
                assert rgb(fill) == rgb(ENDING_COLOURS[label]), (title, label, fill)
    finally:
        ctx.close()


def test_how_hands_end_reads_whole_on_a_phone(samples, browser):
    url, _ = samples
    ctx, page = tab(browser, PHONE)
    try:
        visit(page, url + "/gin-hands")
        seats = axis_labels(page, "Does the seat", "")  # the seat chart's untitled axis
        assert [s["text"] for s in seats] == [
            "non-dealer", "took the first upcard", "non-dealer, both passed the upcard"]
        assert not overlapping(seats)
        entries = legend(page, "How each player's hands end")
        assert len(entries) >= 8  # every ending the samples hold, drawn on the screen
        assert legend_right_edge(page, "How each player's hands end") <= PHONE
    finally:
        ctx.close()


def test_a_phone_shows_the_key_columns_and_readable_head_to_head(samples, browser):
    url, paths = samples
    ctx, page = tab(browser, PHONE)
    try:
        visit(page, url + paths["game"])
        heading = page.locator("h3").first.inner_text()
        players = heading.split(":")[0].split(" vs ")
        shown = visible_columns(page, 0)  # the round table
        assert shown[:2] == ["round", "prize"] and "taken by" in shown, shown
        assert all(p in shown for p in players), (players, shown)
        assert set(players) <= set(legend(page, "Bids against"))  # who is which colour
        assert legend_right_edge(page, "Bids against") <= PHONE  # names not cut off
        caption = page.get_by_test_id("stMain").get_by_text(
            re.compile(r"^Game g[0-9a-f]{8} ")).first.inner_text()
        assert not re.search(r"\d{15,}", caption), caption  # no 20-digit id
        visit(page, url + "/?" + urlencode({"evening": "all"}))
        tables = page.get_by_test_id("stDataFrame").count()
        headers = [visible_columns(page, i) for i in range(tables)]
        with_winner = [h for h in headers if "winner" in h or "best-of winner" in h]
        assert len(with_winner) >= 3, headers  # pools, biggest wins, closest finishes
        for path, chart in (("/h2h", "Head-to-head"), ("/ties", "How often two players tie")):
            visit(page, url + path)
            opponents = axis_labels(page, chart, "opponent")
            assert len(opponents) >= 17 and not overlapping(opponents), (chart, opponents)
            assert all(o["right"] <= PHONE for o in opponents), chart
    finally:
        ctx.close()


def test_scout_habits_leave_room_for_their_dots_on_a_phone(samples, browser):
    url, paths = samples
    ctx, page = tab(browser, PHONE)
    try:
        visit(page, url + paths["scout"])
        player = parse_qs(urlsplit(paths["scout"]).query)["scout"][0]
        habits = axis_labels(page, f"{player}'s habits", "")  # its untitled y axis
        assert habits and not overlapping(habits)
        # the longest habit once took the whole width: now the plot keeps 150 px or more
        assert max(h["right"] for h in habits) <= PHONE - 150, habits
    finally:
        ctx.close()


def test_data_quality_shows_a_path_as_written(samples, browser):
    url, _ = samples
    ctx, page = tab(browser, DESKTOP)
    try:
        visit(page, url + "/quality")
        caption = page.get_by_test_id("stMain").get_by_text("The record exactly as written in")
        code = caption.first.locator("code").inner_text()
        assert "\\" not in code and re.fullmatch(r"[\w./-]+\.(gops|gin)", code), code
    finally:
        ctx.close()
