"""The browser suite drives Debian's chromium-headless-shell (conftest.py):
Chromium's own build of its old headless mode, which Playwright also runs
for headless tests unless told otherwise, at about a tenth of the CPU a page
that the full browser spends in headless mode. Players run the full
browser. This test holds that the two show the site alike: the same pages
of one game, drawn by both at a desktop's and a phone's size, are the same
pixels, and the full browser's form takes a decision."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from games import engine
from games.models import Game
from games.services.game_state import load_state
from tests.browser.conftest import CHROMIUM_ARGS, FULL_CHROMIUM, SCREENSHOTS, warm_context
from tests.factories import play_until, started_game, tokens

pytestmark = pytest.mark.django_db(transaction=True)

# The one difference found: the two place the glyphs of the monospace font
# (DejaVu Sans Mono at 13 px in both) a little differently, a pixel or two
# over a line and a pixel a table row. Both draw the code samples in the
# page's own font for the comparison (set through the DOM: the site's
# Content-Security-Policy refuses a style sheet added inline), so that every other pixel is compared.
SAME_GLYPHS = "document.querySelectorAll('code, pre, kbd, samp').forEach(e => { e.style.fontFamily = 'inherit'; })"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _drawn(context, url: str, viewport: dict) -> Image.Image:
    page = context.new_page()
    page.set_viewport_size(viewport)
    page.goto(url)
    # A font or an image still loading would differ by timing, not by browser.
    page.wait_for_load_state("networkidle")
    page.evaluate(SAME_GLYPHS)
    picture = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
    page.close()
    return picture


def test_the_full_browser_draws_the_sites_pages_as_the_headless_shell_does_and_takes_a_decision(site, chromium):
    if not FULL_CHROMIUM.exists():
        pytest.fail(f"no full Chromium at {FULL_CHROMIUM}: `make chromium` installs it beside the headless shell")
    game = play_until(started_game(4), lambda state: engine.decision_kind(state) == "bid", random.Random(5))
    position = engine.to_move(load_state(game))
    seat_link = f"{site.url}/s/{tokens(game)[position]}/"
    full = chromium.browser_type.launch(executable_path=str(FULL_CHROMIUM), args=CHROMIUM_ARGS)
    try:
        full_context = warm_context(full, locale="en-GB", timezone_id="Europe/Berlin")
        differences = []
        for path in ("/", "/rules/", seat_link.removeprefix(site.url)):
            for name, viewport in VIEWPORTS.items():
                shell_picture = _drawn(site.context, site.url + path, viewport)
                full_picture = _drawn(full_context, site.url + path, viewport)
                box = None
                if shell_picture.size == full_picture.size:
                    box = ImageChops.difference(shell_picture, full_picture).getbbox()
                if shell_picture.size != full_picture.size or box is not None:
                    stem = f"shell-against-full-{name}-{len(differences)}"
                    shell_picture.save(SCREENSHOTS / f"{stem}-shell.png")
                    full_picture.save(SCREENSHOTS / f"{stem}-full.png")
                    differences.append(f"{path} ({name}): {shell_picture.size} against {full_picture.size}, {box}")
        assert not differences, "the shell and the full browser drew differently:\n" + "\n".join(differences)

        page = full_context.new_page()
        site.checks.watch(page)
        page.goto(seat_link)
        version = Game.objects.get(pk=game.pk).version
        with page.expect_navigation():
            page.locator("#form-pass button").click()
        assert Game.objects.get(pk=game.pk).version > version, "the full browser's pass was not taken"
        assert "Done" in page.locator(".messages").inner_text()
        full_context.close()
    finally:
        full.close()
    site.checks.assert_clean()
