"""What a page costs Chromium, as the browser tests drive it: a new page in a
context with no other page open, the same with a blank page kept open in the
context, the same with the blank page kept in another context, and one
navigation.

    .venv/bin/python bench/chromium_pages.py [--pages 4] [--runs 2]
    CHROMIUM=/usr/bin/chromium .venv/bin/python bench/chromium_pages.py

Launches Debian's Chromium as the suite does, its headless shell with the
suite's flags (tests/browser/conftest.py; CHROMIUM=/usr/bin/chromium for the
full browser), through Playwright, and serves a page of 50 bytes from a thread of this
process. Chromium's CPU is read from /proc for every Chromium process alive
(their own and their ended children's): the processes that end while a page
closes would be missed by this process's own count of its children, as the
renderers outlive their browser process (bench/suite_cpu.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from bench._common import proc_cpu  # noqa: E402

# Each page is left open this long before it closes: a test reads and clicks
# on a page for at least that long, and Chromium's work after a load is counted.
DWELL = 1.5


class _Page(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>a page</title><p>a page</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Chromium closes a kept-alive connection when its page closes.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def chromium_cpu() -> float:
    """CPU seconds of every Chromium process alive, with its ended children's."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"chromium" in command.split(b"\0")[0]:
            total += proc_cpu(pid) or 0.0
    return total


def pages_cost(browser, url: str, pages: int, keeper: str) -> float:
    """Chromium's CPU per page: open one, load ``url``, wait, close it, ``pages``
    times in one context; ``keeper`` "none", "same" (a blank page open in the
    same context meanwhile) or "other" (in another context)."""
    context = browser.new_context()
    kept = None
    if keeper != "none":
        kept = (context if keeper == "same" else browser.new_context()).new_page()
        time.sleep(2)
    before = chromium_cpu()
    for _ in range(pages):
        page = context.new_page()
        page.goto(url)
        time.sleep(DWELL)
        page.close()
    time.sleep(1)
    cost = (chromium_cpu() - before) / pages
    if kept is not None:
        kept.context.close()
    context.close()
    return cost


def navigation_cost(browser, url: str, loads: int) -> float:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    time.sleep(2)
    before = chromium_cpu()
    for _ in range(loads):
        page.goto(url)
    time.sleep(1)
    cost = (chromium_cpu() - before) / loads
    context.close()
    return cost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=4, help="pages per figure (default 4)")
    parser.add_argument("--runs", type=int, default=2, help="times each figure is taken (default 2)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    # The suite's browser: the headless shell, or CHROMIUM=/usr/bin/chromium for the full one.
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    server = _Server(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    figures: dict[str, list[float]] = {"none": [], "same": [], "other": [], "navigation": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        time.sleep(3)  # the launch's own work after it returns
        for _ in range(args.runs):
            for keeper in ("none", "same", "other"):
                figures[keeper].append(pages_cost(browser, url, args.pages, keeper))
            figures["navigation"].append(navigation_cost(browser, url, 5 * args.pages))
        browser.close()
    server.shutdown()

    print(f"Chromium's CPU, seconds; {args.runs} runs of {args.pages} pages (navigations: {5 * args.pages}) each\n")
    labels = {
        "none": "a new page, no other page open in its context",
        "same": "a new page, a blank page open in its context",
        "other": "a new page, a blank page open in another context",
        "navigation": "a navigation of an open page",
    }
    for name, label in labels.items():
        print(f"{label:<52}" + "  ".join(f"{value:.2f}" for value in figures[name]))


if __name__ == "__main__":
    main()
