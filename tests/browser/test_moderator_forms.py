"""The moderators' game page in Chromium (issue 29), on a desktop and a phone,
in English and German: each action a box of its own holding its own reason,
a computer seat named in the moderator's language with its level and no
action, and nothing wider than the screen."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from games.models import Seat
from games.services.moderation import MODERATORS_GROUP
from games.services.setup import game_create, seat_accept

from .conftest import SCREENSHOTS

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
LANGUAGES = {"en": "en-GB", "de": "de-DE"}
PASSWORD = "a long secret 42"
STRONG = {"en": "Strong computer 1", "de": "Starker Computer 1"}


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_each_moderator_action_is_a_box_of_its_own_and_a_computer_seat_offers_none(
    chromium, live_server, size, language
):
    user = User.objects.create_user("mia", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    # Set up by a host of the other language: the computer's name follows the reader.
    game = game_create(
        host_name="Quarvenik", host_email="host@example.com", other_emails=["guest@example.com"],
        decision_hours=24, ruleset_name="classic", language="de" if language == "en" else "en", computers=["strong"],
    )
    for seat, colour in zip(Seat.objects.filter(game=game, computer="").order_by("position"), ("red", "yellow"),
                            strict=True):
        seat_accept(seat=seat, colour=colour, display_name=f"Person {seat.position}", time_zone="Europe/Berlin")
    context = chromium.new_context(locale=LANGUAGES[language], viewport=SIZES[size])
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/mod/login/?next=/mod/g/{game.public_id}/")
    page.fill("input[name=username]", "mia")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").last.click()
    assert f"/mod/g/{game.public_id}/" in page.url, page.url

    forms = page.locator("form.mod-action")
    assert forms.count() >= 7
    boxes = []
    for index in range(forms.count()):
        form = forms.nth(index)
        assert form.locator("input[name=reason]").count() == 1
        reason, box = form.locator("input[name=reason]").bounding_box(), form.bounding_box()
        assert reason and box and _overlap(reason, box)
        assert reason["x"] >= box["x"] and reason["x"] + reason["width"] <= box["x"] + box["width"] + 1
        boxes.append(box)
    for i, first in enumerate(boxes):
        for second in boxes[i + 1 :]:
            assert not _overlap(first, second), "two actions' boxes run together"

    computer = Seat.objects.get(game=game, computer="strong")
    section = page.locator(f"#seat-{computer.position}")
    heading = section.locator("h2").inner_text()
    assert STRONG[language] in heading and "<>" not in heading
    assert section.locator("form").count() == 0
    page.screenshot(path=str(SCREENSHOTS / f"moderator-game-{size}-{language}.png"), full_page=True)
    # The forms fit the screen; the players' table's width on a German phone
    # is issue 29's point 5, not this page's forms.
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"], box
    context.close()
