"""Accessibility in Chromium, on every page of a whole game in English and in
German (tests/browser/tour.py): axe-core, injected into each page, finds no
serious or critical violation; every text has at least 4.5:1 against its
background by computed colours in the light and in the dark scheme (axe
assumes a white page, so the dark one is measured here); a seat's colour is
named in text wherever its chip stands; the board has a text alternative."""

from __future__ import annotations

import pytest

from tests.browser.audit import DESKTOP, axe_missing, axe_required, axe_serious, low_contrast, overflow
from tests.browser.tour import walk

pytestmark = pytest.mark.django_db(transaction=True)

# Every chip is named in words, for screen readers and for colour-blind eyes.
_UNNAMED_CHIPS = """() => [...document.querySelectorAll('.chip')]
  .filter(chip => !chip.textContent.trim())
  .map(chip => chip.parentElement.innerText.trim().slice(0, 60))"""
# The boards on the page, and how many of them have no text alternative.
_BOARD = """() => {
  const boards = [...document.querySelectorAll('svg.board')];
  const named = svg => svg.getAttribute('role') === 'img' &&
      ((svg.getAttribute('aria-label') || '').trim() || (svg.querySelector('title') || {}).textContent);
  return [boards.length, boards.filter(svg => !named(svg)).length];
}"""


# A few pages as the dark scheme shows them, to look at.
DARK_SCREENSHOTS = {"home", "seat-push", "spectator-game-over", "moderator-game-bid"}


@pytest.fixture
def axe():
    reason = axe_missing()
    if reason and axe_required():
        pytest.fail(f"VERSAILLES_REQUIRE_BROWSER=1 but {reason}")
    if reason:
        pytest.skip(reason)


@pytest.fixture
def webhook_on_loopback(settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True


def test_every_page_passes_axe_and_reads_at_4_5_to_1_in_both_schemes(axe, site, chromium, webhook_on_loopback):
    def check(page, stop, language):
        found = [] if stop.email else axe_serious(page)
        found += overflow(page)  # nor at desktop width
        found += [f"light scheme: {problem}" for problem in low_contrast(page, "light")]
        found += [f"dark scheme: {problem}" for problem in low_contrast(page, "dark")]
        found += [f"a chip without its colour's name, in {text!r}" for text in page.evaluate(_UNNAMED_CHIPS)]
        boards, unnamed = page.evaluate(_BOARD)
        if unnamed:
            found.append("the board has no text alternative (role=img with a title or aria-label)")
        if not boards and stop.name.startswith(("seat-", "spectator-")):
            found.append("no board on a game's page")
        if stop.name in DARK_SCREENSHOTS:
            page.emulate_media(color_scheme="dark")
            site.screenshot(page, f"dark-{language}-{stop.name}")
            page.emulate_media(color_scheme="light")
        return found

    problems = walk(site, chromium, check, DESKTOP)
    site.checks.assert_clean()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
