"""The forms a game starts with, in Chromium (issue 29), on a desktop and a
phone, in English and German: the new-game form says how many players a
game takes and puts each label above its field and each error under it; the
invitation preselects the browser's time zone (a small script), groups the
zones by region without it, and shows each colour as a swatch."""

from __future__ import annotations

import pytest

from games import engine
from games.board.colours import hex_of
from games.models import Seat
from games.services.links import seat_token
from games.services.setup import game_create

from .conftest import SCREENSHOTS

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LANGUAGES = {"en": "en-GB", "de": "de-DE"}
# Neither UTC (the list's first) nor the site's zone: only the browser knows it.
BROWSER_ZONE = "America/Sao_Paulo"


def _players() -> tuple[int, int]:
    rulesets = engine.RULESETS.values()
    return min(r.min_players for r in rulesets), max(r.max_players for r in rulesets)


def _context(chromium, live_server, size: str, language: str, script: bool = True):
    context = chromium.new_context(
        locale=LANGUAGES[language], timezone_id=BROWSER_ZONE, viewport=SIZES[size], java_script_enabled=script
    )
    context.set_default_timeout(30_000)
    return context


def _box(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box, f"{selector} is not shown"
    return box


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways: {width} px"


def _invitation() -> Seat:
    game = game_create(
        host_name="Quarvenik", host_email="host@example.com", other_emails=["guest@example.com", "third@example.com"],
        decision_hours=24, ruleset_name="classic",
    )
    return Seat.objects.get(game=game, email="guest@example.com")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_new_game_form_states_the_players_and_sets_labels_above_and_errors_under_fields(
    chromium, live_server, size, language
):
    context = _context(chromium, live_server, size, language)
    page = context.new_page()
    page.goto(f"{live_server.url}/new/")
    low, high = _players()
    said = page.locator("#players-allowed").inner_text()
    assert f"{low} " in said and f" {high} " in said, said
    for name in ("host_name", "host_email", "other_emails", "decision_hours"):
        label, field = _box(page, f"label[for=id_{name}]"), _box(page, f"#id_{name}")
        assert label["y"] + label["height"] <= field["y"] + 1, f"{name}: the label is not above its field"
        assert abs(label["x"] - field["x"]) < 4, f"{name}: the label does not start where its field does"
    _fits(page)
    page.screenshot(path=str(SCREENSHOTS / f"new-game-{size}-{language}.png"), full_page=True)

    page.fill("#id_host_name", "Quarvenik")
    page.fill("#id_host_email", "not an address")
    page.fill("#id_other_emails", "a@example.com")
    with page.expect_navigation():
        page.locator("form.game-form button[type=submit]").click()
    error, field = _box(page, "#id_host_email_error"), _box(page, "#id_host_email")
    assert 0 <= error["y"] - (field["y"] + field["height"]) < 24, "the error is not right under its field"
    assert page.locator("#id_host_email").get_attribute("aria-invalid") == "true"
    # Too few players is told beside the addresses, with the rulesets' numbers.
    page.fill("#id_host_email", "host@example.com")
    with page.expect_navigation():
        page.locator("form.game-form button[type=submit]").click()
    error, field = _box(page, "#id_other_emails_error"), _box(page, "#id_other_emails")
    assert 0 <= error["y"] - (field["y"] + field["height"]) < 24, "the error is not right under its field"
    too_few = page.locator("#id_other_emails_error").inner_text()
    assert str(low) in too_few and str(high) in too_few, too_few
    _fits(page)
    page.screenshot(path=str(SCREENSHOTS / f"new-game-errors-{size}-{language}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_invitation_preselects_the_browsers_time_zone_and_shows_colour_swatches(
    chromium, live_server, size, language
):
    seat = _invitation()
    context = _context(chromium, live_server, size, language)
    page = context.new_page()
    page.goto(f"{live_server.url}/s/{seat_token(seat)}/")
    assert page.locator("#id_time_zone").input_value() == BROWSER_ZONE
    swatches = page.locator("#field-colour label.choice")
    assert swatches.count() == 6
    for index in range(swatches.count()):
        choice = swatches.nth(index)
        colour = choice.locator("input").get_attribute("value")
        swatch = choice.locator(".swatch")
        shown = swatch.evaluate("element => getComputedStyle(element).backgroundColor")
        red, green, blue = (int(hex_of(colour)[i : i + 2], 16) for i in (1, 3, 5))
        assert shown == f"rgb({red}, {green}, {blue})", (colour, shown)
        box = swatch.bounding_box()
        assert box and box["width"] >= 20 and box["height"] >= 20
        assert choice.bounding_box()["height"] >= 44, "a colour is too small a target for a finger"
    _fits(page)
    page.locator("#field-colour").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"take-seat-{size}-{language}.png"), full_page=True)

    # Choosing a swatch's name chooses that colour, and the seat is taken.
    page.locator("#field-colour label.choice").nth(2).click()
    page.fill("#id_display_name", "Zolbathy")
    with page.expect_navigation():
        page.locator("form.game-form button[type=submit]").click()
    seat.refresh_from_db()
    assert seat.accepted_at and seat.time_zone == BROWSER_ZONE
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_script_the_time_zones_are_grouped_by_region_and_utc_stays_chosen(chromium, live_server, language):
    seat = _invitation()
    context = _context(chromium, live_server, "phone", language, script=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/s/{seat_token(seat)}/")
    select = page.locator("#id_time_zone")
    assert select.input_value() == "UTC"
    groups = select.locator("optgroup").evaluate_all("groups => groups.map(g => [g.label, g.children.length])")
    europe = "Europe" if language == "en" else "Europa"
    assert dict(groups)[europe] > 30
    assert sum(count for _label, count in groups) + 1 == select.locator("option").count()
    context.close()
