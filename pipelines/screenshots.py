"""Screenshots of the dashboard's main pages for the README, in docs/screenshots/*.png.

Starts `gops dashboard` on a free port, drives Debian's Chromium with Playwright, saves
one PNG per page, and always stops the server. Without ``--db`` it first imports the
bundled samples (gops_records/samples/) into a temporary database. The browser test reuses
:func:`dashboard_server`, :func:`launch_chromium`, :func:`open_page` and :func:`wait_drawn`.

Usage::

    python -m gops_records.pipelines.screenshots [--db PATH] [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
READY = '[data-testid="stApp"][data-test-script-state="notRunning"]'
SKELETON = '[data-testid="stSkeleton"]'
ROOT = Path(__file__).resolve().parents[1]
#: name -> path (and query) of the pages shown in the README.
PAGES = {
    "session": "/",
    "players": "/players",
    "scout": "/scout",
    "ties": "/ties",
    "h2h": "/h2h",
    "game": "/game",
    "quality": "/quality",
    "gin-standings": "/gin-standings",
    "gin-hands": "/gin-hands",
    "gin-knocks": "/gin-knocks",
}
WIDTH = 1400
#: Shots at phone width on the dark theme: name -> (page in PAGES, path if it has none).
PHONE = {"session-phone-dark": ("session", "/"), "game-phone-dark": ("game", "/game"),
         "h2h-phone-dark": ("h2h", "/h2h"), "gin-knocks-phone-dark": ("gin-knocks", "/gin-knocks")}
PHONE_WIDTH = 390


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def dashboard_server(db: Path, port: int | None = None, timeout: float = 60.0,
                     log: Path | None = None) -> Iterator[str]:
    """`gops dashboard --db db` on 127.0.0.1:port until the block ends; yields its URL.

    The server runs in its own process group, which is stopped on exit whatever happens.
    """
    port = port or free_port()
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gops_records", "dashboard", "--db", str(db),
         "--port", str(port)], stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        if log:
            out.close()


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float) -> None:
    """Poll /_stcore/health until it answers ``ok``; raise if the server dies or stalls."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the dashboard server exited with status {proc.returncode}")
        with contextlib.suppress(OSError), \
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
            if r.read().strip() == b"ok":
                return
        time.sleep(0.25)
    raise TimeoutError(f"the dashboard at {url} did not become healthy in {timeout:.0f} s")


def launch_chromium(playwright):
    """Headless Debian Chromium (Playwright cannot download its own browsers here)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)


def open_page(page, url: str, settle_ms: int = 1500) -> None:
    """Go to ``url`` and wait until the script has run and the charts have drawn."""
    page.goto(url)
    wait_drawn(page, settle_ms)


def wait_drawn(page, settle_ms: int = 1500) -> None:
    """Wait until the app's script is idle, every element has replaced its loading
    placeholder (Streamlit draws big elements a moment after the script ends) and every
    chart holds an svg or a canvas."""
    page.wait_for_selector(READY, timeout=30_000)
    page.wait_for_function(f"!document.querySelector('{SKELETON}')", timeout=30_000)
    charts = page.get_by_test_id("stVegaLiteChart")
    for i in range(charts.count()):
        charts.nth(i).locator("svg, canvas").first.wait_for(timeout=15_000)
    page.wait_for_timeout(settle_ms)
    page.wait_for_selector(READY, timeout=30_000)
    page.wait_for_function(f"!document.querySelector('{SKELETON}')", timeout=30_000)


def liveliest(db: Path) -> dict[str, str]:
    """Paths showing the game with the largest pool (ties make it lively), and the
    standings leader on the Players and Scout pages. The Session page shows what it opens
    on: the latest evening."""
    from urllib.parse import urlencode

    from gops_records.core.store.db import reading
    from gops_records.games.gops.analytics import Filters, largest_pools, standings

    with reading(db) as con:
        top = largest_pools(con, Filters(), 1)
        leader = standings(con, Filters())["player"].head(1).to_list()
    if top.is_empty():
        return {}
    paths = {"game": "/game?" + urlencode({"game_id": top["game_id"][0]})}
    if leader:
        paths["players"] = "/players?" + urlencode({"profile": leader[0]})
        paths["scout"] = "/scout?" + urlencode({"scout": leader[0]})
    return paths


def shoot(url: str, out: Path, pages: dict[str, str] = PAGES) -> list[Path]:
    """One full-height PNG per page; Streamlit scrolls inside the app, so the viewport is
    grown to the content's height first. The :data:`PHONE` shots are taken 390 px wide on
    the dark theme."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    shots = [(name, path, WIDTH, "light") for name, path in pages.items()]
    shots += [(name, pages.get(page, path), PHONE_WIDTH, "dark")
              for name, (page, path) in PHONE.items()]
    with sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            for name, path, width, scheme in shots:
                context = browser.new_context(viewport={"width": width, "height": 1000},
                                              color_scheme=scheme)
                page = context.new_page()
                open_page(page, url + path)
                height = page.evaluate(
                    "() => document.querySelector('[data-testid=\"stMainBlockContainer\"]')"
                    ".scrollHeight")
                page.set_viewport_size({"width": width, "height": min(int(height) + 80, 6000)})
                page.wait_for_timeout(800)
                target = out / f"{name}.png"
                page.screenshot(path=str(target))
                saved.append(target)
                context.close()
        finally:
            browser.close()
    return saved


def sample_db(folder: Path) -> Path:
    """The bundled samples imported into a fresh database under ``folder``."""
    from gops_records.core.samples import bundled_folder, import_samples

    db = folder / "samples.duckdb"
    import_samples(bundled_folder(), db)  # sources as `gops demo` stores them: samples/...
    return db


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="database to show (default: the samples)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"screenshots: {CHROMIUM} is missing; install it with apt-get install chromium",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or sample_db(Path(tmp))
        pages = {**PAGES, **liveliest(db)}
        with dashboard_server(db) as url:
            for path in shoot(url, args.out, pages):
                print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
