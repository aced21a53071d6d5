"""Mail scanners open every link: GET and HEAD never change anything, and
pages opened by a secret link are neither cached nor leaked as a referrer
(docs/architecture.md#links-in-email)."""

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from games.services.links import seat_token, unsubscribe_token
from tests.factories import started_game, tokens
from tests.web.integrity_helpers import POINTS, game_at_roll, inviting_game, snapshot

pytestmark = pytest.mark.django_db


def urls_of(game: Game) -> list[tuple[str, set[int]]]:
    """Every URL a scanner could find for this game, with the statuses GET may answer."""
    urls = []
    for seat in Seat.objects.filter(game=game).select_related("game"):
        token = seat_token(seat)
        urls += [
            (f"/s/{token}/", {200}),
            (f"/s/{token}/state.json", {200}),
            (f"/s/{token}/version", {200}),
            (f"/s/{token}/accept", {405}),
            (f"/s/{token}/act", {405}),
            # A turn email's decision link: its page has a button, and opening it decides nothing.
            (f"/s/{token}/confirm?version={game.decision_version}&action=pass", {200, 400, 409}),
            (f"/s/{token}/arrange", {405}),
            (f"/s/{token}/orders", {405}),
            (f"/s/{token}/emails", {405}),
            # The one-click unsubscribe link: GET only shows its button.
            (f"/u/{unsubscribe_token(seat)}/", {200}),
            # A seat link is no unsubscribe link.
            (f"/u/{token}/", {404}),
        ]
    urls += [
        (f"/g/{game.public_id}/", {200}),
        (f"/g/{game.public_id}/state.json", {200}),
        (f"/g/{game.public_id}/version", {200}),
        (f"/g/{game.public_id}/verify", {200}),
        ("/", {200}),
        ("/new/", {200}),
        ("/link/", {200}),
        ("/link/sent/", {200}),
    ]
    return urls


def is_read_only(sql: str) -> bool:
    words = sql.lstrip().split(None, 1)
    first = words[0].upper() if words else ""
    return first in ("SELECT", "SAVEPOINT", "RELEASE")


@pytest.mark.parametrize("point", list(POINTS))
def test_get_and_head_of_every_link_change_nothing_and_send_nothing(point, django_capture_on_commit_callbacks):
    game = POINTS[point]()
    before = snapshot()
    outbox = len(mail.outbox)
    for url, statuses in urls_of(game):
        for method in ("get", "head"):
            scanner = Client()  # a scanner has no cookies
            with (
                django_capture_on_commit_callbacks(execute=True) as callbacks,
                CaptureQueriesContext(connection) as queries,
            ):
                response = getattr(scanner, method)(url)
            assert response.status_code in statuses, (method, url, response.status_code)
            writes = [q["sql"] for q in queries.captured_queries if not is_read_only(q["sql"])]
            assert writes == [], (method, url)
            assert callbacks == [], (method, url)
    assert len(mail.outbox) == outbox
    assert snapshot() == before


@pytest.mark.parametrize("path", ["/s/{token}/", "/s/{token}/state.json"])
def test_head_answers_like_get_without_a_body(path):
    game = started_game(3)
    url = path.format(token=tokens(game)[0])
    get, head = Client().get(url), Client().head(url)
    assert get.status_code == head.status_code == 200
    assert head.content == b""
    assert head["Content-Type"] == get["Content-Type"]


def assert_private(response):
    assert response["Cache-Control"] == "no-store"
    # same-origin: another site never gets the link, while the browser still
    # names our origin on our own forms (no-referrer made Chromium send
    # "Origin: null", and the CSRF check refused every form).
    assert response["Referrer-Policy"] == "same-origin"
    assert 'name="referrer" content="no-referrer"' not in response.content.decode()


@pytest.mark.parametrize("accepted", [0, 2])
def test_an_invitation_page_is_not_cached_and_sends_no_referrer_to_other_sites(client, accepted):
    game = inviting_game(3, accepted=accepted)
    for token in tokens(game).values():
        assert_private(client.get(f"/s/{token}/"))
        assert_private(client.head(f"/s/{token}/"))


def test_a_running_game_page_its_json_and_its_unsubscribe_page_are_not_cached_and_send_no_referrer(client):
    game = game_at_roll()
    for seat in Seat.objects.filter(game=game).select_related("game"):
        token = seat_token(seat)
        for url in (f"/s/{token}/", f"/s/{token}/state.json", f"/u/{unsubscribe_token(seat)}/"):
            assert_private(client.get(url))
            assert_private(client.head(url))


def test_the_answers_to_posts_through_a_link_are_not_cached_and_send_no_referrer(client):
    game = inviting_game(3, accepted=1)
    token = tokens(game)
    # A form with errors is re-rendered with the link in its action.
    rejected = client.post(f"/s/{token[1]}/accept", {"colour": "mauve", "display_name": "", "time_zone": "Mars"})
    assert rejected.status_code == 400
    assert_private(rejected)
    # Taking a seat twice: the "already decided" page.
    assert_private(client.post(f"/s/{token[0]}/accept", {"colour": "green", "display_name": "A", "time_zone": "UTC"}))
    game = started_game(3)
    token = tokens(game)
    for url in (f"/s/{token[0]}/act", f"/s/{token[0]}/arrange"):
        response = client.post(url, {"version": "0", "action": "pass"})
        assert response.status_code in (302, 409)
        assert_private(response)


def test_the_page_for_a_link_that_opens_no_seat_is_not_cached_and_sends_no_referrer(client):
    forged = "A" * 32
    responses = [
        client.get(f"/s/{forged}/"),
        client.head(f"/s/{forged}/"),
        client.post(f"/s/{forged}/act", {"version": "1", "action": "pass"}),
        client.get(f"/u/{forged}/"),
    ]
    for response in responses:
        assert response.status_code == 404
        assert_private(response)


def test_the_spectator_page_carries_no_seat_link():
    game = game_at_roll()
    page = Client().get(f"/g/{game.public_id}/").content.decode()
    for token in tokens(game).values():
        assert token not in page
