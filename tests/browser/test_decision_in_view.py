"""The decision and what it is about, in the first screen (issue 29): for
each decision kind, on a desktop (1280x900) and a phone (390x844), in
English and German, the decision's inputs and what they decide about (the
lot's cards, the faces of the team, the chairs to push with their spaces,
the displays) lie inside the first viewport, without scrolling. The seat's
settings and its whole history are one link away, and work."""

from __future__ import annotations

import random

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.models import ActionRecord, Game, Seat
from games.services.game_state import load_state
from tests.browser.conftest import SCREENSHOTS
from tests.factories import play_until, started_game, tokens

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
VIEWS = [("desktop", DESKTOP), ("phone", PHONE)]

# Per decision kind: what it is about, and its inputs (every match must show).
SHOWN = {
    "bid": ["#lot", "#lot .card", "#form-bid input[name=amount]", "#form-bid button", "#form-pass button"],
    "roll": ["#faces li", "#form-roll button"],
    "push": ["#form-push label.push-target", "#form-push input[name=target]", "#form-push button"],
    "remove": ["#form-remove fieldset.display", "#form-remove input[type=radio]", "#form-remove button"],
}


def _german(english: str) -> str:
    with translation.override("de"):
        return gettext(english)


def _at(kind: str) -> tuple[Game, int]:
    """A four-seat game played at random until a seat has ``kind`` to decide."""
    game = started_game(4)
    game = play_until(game, lambda state: engine.decision_kind(state) == kind, random.Random(7))
    state = load_state(game)
    assert engine.decision_kind(state) == kind, "the game ended before the decision came"
    return game, engine.to_move(state)


def _outside(page, selector: str, viewport: dict) -> list[str]:
    """The matches of ``selector`` not wholly inside the first viewport."""
    found = page.locator(selector)
    assert found.count(), f"nothing matches {selector}"
    problems = []
    for index in range(found.count()):
        box = found.nth(index).bounding_box()
        if box is None:
            problems.append(f"{selector}[{index}] is not shown")
        elif (
            box["x"] < 0
            or box["y"] < 0
            or box["x"] + box["width"] > viewport["width"] + 0.5
            or box["y"] + box["height"] > viewport["height"] + 0.5
        ):
            problems.append(f"{selector}[{index}] at {box}")
    return problems


@pytest.mark.parametrize("kind", ["bid", "roll", "push", "remove"])
def test_the_decision_and_what_it_is_about_are_in_the_first_screen(site, kind):
    game, position = _at(kind)
    link = f"{site.url}/s/{tokens(game)[position]}/"
    for language in ("en", "de"):
        Seat.objects.filter(game=game, position=position).update(language=language)
        for name, viewport in VIEWS:
            page = site.page(viewport)
            page.goto(link)
            assert page.locator("html").get_attribute("lang") == language
            heading = page.locator("#decide h2").inner_text()
            expected = {"bid": "Your bid", "roll": "Your turn to roll", "push": "The Devil: push a chair back?"}
            if kind in expected:
                assert heading == (expected[kind] if language == "en" else _german(expected[kind]))
            problems = [problem for selector in SHOWN[kind] for problem in _outside(page, selector, viewport)]
            page.screenshot(path=str(SCREENSHOTS / f"decision-{kind}-{name}-{language}.png"))
            assert not problems, f"{kind}, {name}, {language}: " + "; ".join(problems)
            if name == "desktop":
                board = page.locator(".seat-board svg.board-wide").bounding_box()
                assert board is not None and board["height"] <= viewport["height"] / 3 + 1, board
                decide = page.locator("#decide").bounding_box()
                # Side by side: the board beside the decision, not below it.
                assert decide is not None and board["x"] > decide["x"] + decide["width"] - 1
                # A short page: no settings, five lines of history (it was 7,936 px tall).
                height = page.evaluate("document.documentElement.scrollHeight")
                assert height < 2600, height
            page.close()
    site.checks.assert_clean()


def test_each_decision_box_says_what_it_is_about(site):
    """The words beside the inputs: the lot with the secret cards, the high
    bid and the cost of winning; each face and where it would carry the
    chair; each chair to push with its space and where it would land."""
    game, position = _at("bid")
    page = site.page(DESKTOP)
    page.goto(f"{site.url}/s/{tokens(game)[position]}/")
    lot = page.locator("#lot").inner_text()
    assert "Your secret cards in this lot:" in lot
    assert "Still in:" in lot and "Winning costs you your bid: at least" in lot
    page.close()

    game, position = _at("roll")
    page = site.page(PHONE)
    page.goto(f"{site.url}/s/{tokens(game)[position]}/")
    faces = page.locator("#faces li").all_inner_texts()
    assert len(faces) == 4, faces
    assert all(("forward" in face or "back" in face) for face in faces), faces
    with page.expect_navigation():
        page.locator("#form-roll button").click()
    said = page.locator(".messages").inner_text()
    rolled = [r for r in ActionRecord.objects.filter(game=game, actor="chance").order_by("-seq")[:1]]
    event = next(e for e in rolled[0].events if e["type"] == "roll")
    assert f"Done: you rolled {event['face']}: " in said, said
    assert "to space" in said or "shell pond" in said or "finish" in said, said
    page.screenshot(path=str(SCREENSHOTS / "decision-rolled-phone-en.png"))
    page.close()

    game, position = _at("push")
    page = site.page(PHONE)
    page.goto(f"{site.url}/s/{tokens(game)[position]}/")
    race = load_state(game).race
    targets = page.locator("#form-push label.push-target").all_inner_texts()
    racing_others = [s for s, status in enumerate(race.status) if status == "racing" and s != position]
    assert len(targets) == len(racing_others)
    for target, seat in zip(targets, racing_others, strict=True):
        now = race.positions[seat]
        assert ("START" if now == 0 else f"space {now}") in target.split("→")[0], target
        assert "space" in target.split("→")[1] or "START" in target.split("→")[1] or "shell pond" in target
    page.close()
    site.checks.assert_clean()


def test_the_settings_page_is_one_link_away_and_a_setting_changed_there_takes_effect(site):
    game = started_game(3)
    page = site.page(PHONE)
    page.goto(f"{site.url}/s/{tokens(game)[1]}/")
    # The seat page holds no settings form, only the link to them.
    for form in ("form-orders", "form-emails", "form-language", "form-absence", "form-help"):
        assert not page.locator(f"form#{form}").count(), form
    with page.expect_navigation():
        page.locator("nav.seat-nav a[href=settings]").click()
    assert page.url.endswith("/settings")
    for form in ("form-orders", "form-emails", "form-language", "form-absence", "form-help", "form-webhook-add"):
        assert page.locator(f"form#{form}").count() == 1, form
    assert page.get_by_role("link", name="API tokens for this seat").count() == 1
    site.screenshot(page, "settings-phone-en")

    page.locator("form#form-language select[name=language]").select_option("de")
    with page.expect_navigation():
        page.locator("form#form-language button").click()
    assert page.url.endswith("/settings"), "the form led away from the page it is on"
    assert _german("Your language is saved: your pages and emails are now in it.") in page.locator("body").inner_text()
    assert Seat.objects.get(game=game, position=1).language == "de"

    page.locator("form#form-emails input[value=digest]").check()
    with page.expect_navigation():
        page.locator("form#form-emails button").click()
    assert Seat.objects.get(game=game, position=1).email_mode == "digest"
    site.screenshot(page, "settings-phone-de")

    with page.expect_navigation():
        page.get_by_role("link", name=_german("Back to your seat")).click()
    assert page.url.endswith(f"/s/{tokens(game)[1]}/")
    assert page.locator("html").get_attribute("lang") == "de"
    site.checks.assert_clean()


def test_the_history_page_shows_the_whole_history(site):
    game = play_until(started_game(3), lambda state: state.phase == "race" and state.race.rolls > 6, random.Random(3))
    page = site.page(DESKTOP)
    page.goto(f"{site.url}/s/{tokens(game)[0]}/")
    shown_here = page.locator("section", has=page.get_by_role("heading", name="What happened")).locator("li").count()
    assert shown_here <= 5
    with page.expect_navigation():
        page.locator("nav.seat-nav a[href=history]").click()
    assert page.url.endswith("/history")
    entries = page.locator("ol.history li").all_inner_texts()
    told = ActionRecord.objects.filter(game=game).exclude(events=[]).count()
    assert len(entries) > shown_here + 10, (len(entries), told)
    assert "was drawn to start" in entries[0]
    site.screenshot(page, "history-desktop-en")
    site.checks.assert_clean()
