"""The ratings on the pages in a real headless Chromium, on the bundled samples: the
rating chart on Players is drawn with its band and readable evening labels, and at
390 px the ratings tables show player, rating and change without scrolling sideways.

Needs Debian's /usr/bin/chromium and the playwright package; skipped when either is
missing. The server is always stopped.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from gops_records.pipelines.screenshots import CHROMIUM, dashboard_server, sample_db
from test_browser_pages import axis_labels, overlapping, tab, visible_columns, visit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

PHONE, DESKTOP = 390, 1400
PLAYER = "Emma Lindqvist"  # three evenings in the samples


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("ratings")
    with dashboard_server(sample_db(folder), log=folder / "server.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from gops_records.pipelines.screenshots import launch_chromium

    with sync_api.sync_playwright() as p:
        b = launch_chromium(p)
        try:
            yield b
        finally:
            b.close()


def _table_with(page, header: str) -> list[str]:
    count = page.get_by_test_id("stDataFrame").count()
    for i in range(count):
        shown = visible_columns(page, i)
        if header in shown:
            return shown
    raise AssertionError(f"no table shows a {header!r} column")


def test_the_rating_chart_is_drawn_with_readable_evenings(samples, browser):
    ctx, page = tab(browser, DESKTOP)
    try:
        visit(page, samples + "/players?" + urlencode({"profile": PLAYER}))
        title = f"{PLAYER}'s rating by evening"
        labels = axis_labels(page, title, "evening")
        assert len(labels) >= 2 and not overlapping(labels), labels
        band = page.evaluate("""(title) => [...document.querySelectorAll(
            '[data-testid=stVegaLiteChart] svg')].find(s => [...s.querySelectorAll(
            '.role-title-text')].some(t => t.textContent.startsWith(title)))
            .querySelectorAll('.mark-area path').length""", title)
        assert band == 1
    finally:
        ctx.close()


def test_a_phone_sees_who_gained_and_by_how_much(samples, browser):
    ctx, page = tab(browser, PHONE)
    try:
        visit(page, samples + "/")
        tonight = _table_with(page, "before")
        assert tonight[:3] == ["player", "change", "after"], tonight
        table = _table_with(page, "interval")
        assert table[:3] == ["player", "rating", "change"], table
        width = page.evaluate("innerWidth")
        right = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
            '[data-testid=stDataFrame]')].map(t => t.getBoundingClientRect().right))""")
        assert right <= width
    finally:
        ctx.close()
