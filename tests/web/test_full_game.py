"""A whole 4-player game through the web, from the new-game form to the final
standings, following only links found in emails and forms found on pages."""

import random
import re

import pytest
from django.core import mail

from games.models import Game
from tests.mail.helpers import addresses
from tests.web.pages import forms_of, path_of, seat_links

pytestmark = pytest.mark.django_db(transaction=True)

EMAILS = ["host@example.com", "b@example.com", "c@example.com", "d@example.com"]


def create_game(client):
    response = client.post(
        "/new/",
        {
            "host_name": "Hostess",
            "host_email": EMAILS[0],
            "other_emails": "\n".join(EMAILS[1:]),
            "decision_hours": "24",
            "ruleset": "classic",
        },
    )
    assert response.status_code == 302
    links = {}
    for message in mail.outbox:
        (link,) = set(seat_links(message.body))
        links[addresses(message)[0]] = path_of(link)
    assert sorted(links) == sorted(EMAILS)
    return links


def accept_all(client, links):
    for index, email in enumerate(EMAILS):
        page = client.get(links[email])
        assert page.status_code == 200
        (form,) = [f for f in forms_of(page) if f.action.endswith("/accept")]
        colour = form.radios()["colour"][0]
        data = form.values() | {"colour": colour, "display_name": f"Player {index}", "time_zone": "Europe/Berlin"}
        response = client.post(form.action, data)
        assert response.status_code == 302, response.content.decode()[:2000]


def decide(client, path, rng):
    """Open a seat page and answer its decision form; False if it had none."""
    page = client.get(path)
    assert page.status_code == 200
    forms = [f for f in forms_of(page) if f.action.endswith("/act")]
    if not forms:
        return False
    kinds = {tuple(b[1] for b in f.buttons) for f in forms}
    bid_form = next((f for f in forms if f.values().get("action") == "bid"), None)
    if bid_form is not None:
        if rng.random() < 0.3:
            low = next(int(re.search(r'min="(\d+)"', page.content.decode()).group(1)) for _ in [0])
            response = client.post(bid_form.action, bid_form.values() | {"amount": str(low)})
        else:
            pass_form = next(f for f in forms if ("action", "pass") in [(b[0], b[1]) for b in f.buttons])
            response = client.post(pass_form.action, pass_form.values() | {"action": "pass"})
    else:
        (form,) = forms
        data = form.values()
        for name, values in form.radios().items():
            data[name] = rng.choice(values)
        for button in form.buttons:
            if button[0]:
                data[button[0]] = button[1]
        response = client.post(form.action, data)
    assert response.status_code in (302, 409), (kinds, response.content.decode()[:2000])
    return True


@pytest.mark.heavy
def test_a_four_player_game_plays_from_the_new_game_form_to_the_final_standings(client):
    rng = random.Random(4)
    links = create_game(client)
    accept_all(client, links)
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING
    for handled in range(5000):
        turn_mails = [m for m in mail.outbox if "Decide here:" in m.body]
        if handled >= len(turn_mails):
            break
        message = turn_mails[handled]
        (link,) = set(seat_links(message.body))
        decide(client, path_of(link), rng)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    final = client.get(links[EMAILS[0]]).content.decode()
    assert "Final standings" in final
    over_mails = [m for m in mail.outbox if "is over" in m.subject]
    assert sorted(addresses(m)[0] for m in over_mails) == sorted(EMAILS)
    assert game.seed in over_mails[0].body
