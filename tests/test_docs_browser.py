"""The built reference in a real browser: headless Chromium loads a rule page and the card table
without console errors, sorts the card table, and the search finds "Wu-Feng".

Skipped when Chromium, its driver or selenium is absent (CI installs them: .ci/run).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import tempfile
import threading

import pytest

pytest.importorskip("sphinx")
webdriver = pytest.importorskip("selenium.webdriver")

from docs_build import built_html, documented_games  # noqa: E402

CHROMIUM = os.environ.get("GHOSTRULES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = os.environ.get("GHOSTRULES_CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = [
    pytest.mark.skipif(not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)),
                       reason="headless Chromium and chromedriver are not installed"),
    pytest.mark.skipif("ghost-stories" not in documented_games(), reason="Ghost Stories is not documented here"),
]


@pytest.fixture(scope="module")
def site():
    """The built HTML, served on a free port of 127.0.0.1 for the duration of the tests."""
    root = built_html()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    os.environ.setdefault("SE_AVOID_STATS", "true")
    profile = tempfile.mkdtemp(prefix="ghostrules-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", "--window-size=1280,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _severe(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _wait(driver, condition, timeout=30):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.2).until(condition)


def test_rule_page_renders_without_console_errors(site, browser):
    browser.get(f"{site}/reference/ghost-stories/rules/exorcism.html#GS-EXO-3")
    _wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    anchor = browser.find_element("id", "GS-EXO-3")
    assert anchor is not None
    text = browser.find_element("css selector", "article").text
    assert "GS-EXO-3" in text and "Formal part" in text
    assert _severe(browser) == []


def test_card_table_sorts_without_console_errors(site, browser):
    browser.get(f"{site}/reference/ghost-stories/cards.html")
    _wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
    table = browser.find_element("css selector", "table.sortable")
    rows = table.find_elements("css selector", "tbody tr")
    assert len(rows) == 65
    headers = [th.text.strip() for th in table.find_elements("css selector", "thead th")]
    column = next(i for i, h in enumerate(headers) if h.lower().startswith("resistance"))
    header = table.find_elements("css selector", "thead th")[column]

    def resistances() -> list[float]:
        cells = browser.execute_script(
            "return Array.from(arguments[0].tBodies[0].rows).map(r => r.cells[arguments[1]].textContent.trim())",
            table, column)
        return [float(c.split()[0]) for c in cells]

    header.click()
    assert header.get_attribute("aria-sort") == "ascending"
    assert resistances() == sorted(resistances())
    header.click()
    assert resistances() == sorted(resistances(), reverse=True)
    assert _severe(browser) == []


def test_search_finds_wu_feng(site, browser):
    browser.get(f"{site}/search.html?q=Wu-Feng")
    results = _wait(browser, lambda d: d.find_elements("css selector", "#search-results ul.search li a"), timeout=60)
    titles = " ".join(r.text for r in results)
    assert results, "no search results"
    assert any("incarnation" in r.text.lower() for r in results), titles
    assert _severe(browser) == []
