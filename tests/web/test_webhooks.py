"""Chat webhooks on the seat's settings page (one link from the seat page): added and removed by their owner (the
table's by the host only), refused addresses changing nothing, the cached
page showing each change, and what the deliveries say (and never say)."""

from __future__ import annotations

import json
import random
import re
import textwrap
import time

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import translation

from games import engine
from games.mail.titles import decision_request
from games.models import Game, Webhook, WebhookDelivery
from games.services.game_state import load_state
from games.services.seat_settings import emails_stop, language_set
from games.services.webhooks import SEAT_LIMIT, webhook_add, webhook_remove
from tests.factories import next_turn_of, play_until, seat_at, started_game, tokens
from tests.web.test_secrets import Log, assert_not_shown, codes, markers, secret_cards  # noqa: F401 - a fixture
from tests.webhook_receiver import documented_signature

PUBLIC = "https://1.1.1.1/api/webhooks/123/s3cr3t-path"


def page(client: Client, token: str) -> str:
    """The seat's settings page, where its webhooks are listed and added."""
    response = client.get(f"/s/{token}/settings")
    assert response.status_code == 200
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def add(client: Client, token: str, **data) -> str:
    """Post the seat page's webhook form; the page it leads to."""
    response = client.post(f"/s/{token}/webhooks/add", data, follow=True)
    assert response.status_code == 200
    return response.content.decode()


# ---- adding and removing ------------------------------------------------------


@pytest.mark.django_db
def test_a_player_adds_a_webhook_for_their_seat_sees_its_secret_and_removes_it_from_the_settings_page():
    game = started_game(3)
    token = tokens(game)[1]
    client = Client()
    assert "Chat webhooks" in page(client, token)

    shown = add(client, token, kind="json", url=PUBLIC)
    hook = Webhook.objects.get()
    assert (hook.seat, hook.scope, hook.kind, hook.url) == (seat_at(game, 1), "seat", "json", PUBLIC)
    assert len(hook.secret) == 64
    # Its own page: the secret, the address and how to check a signature.
    assert "Your webhook is added" in shown
    assert hook.secret in shown and PUBLIC in shown and "X-Versailles-Signature" in shown
    seat_page = page(client, token)
    assert "1.1.1.1" in seat_page
    # The settings page (whose fragments are cached for other views) holds neither.
    assert hook.secret not in seat_page and "s3cr3t-path" not in seat_page

    response = client.post(f"/s/{token}/webhooks/{hook.pk}/remove", follow=True)
    assert "The webhook is removed" in response.content.decode()
    hook.refresh_from_db()
    assert hook.removed_at is not None and hook.secret == "" and "s3cr3t-path" not in hook.url
    assert "1.1.1.1" not in page(client, token)
    assert client.get(f"/s/{token}/webhooks/{hook.pk}/", follow=True).redirect_chain[-1][0].endswith("#webhooks")


@pytest.mark.django_db
def test_the_host_adds_a_webhook_for_the_whole_table_and_another_player_cannot():
    game = started_game(3)
    links = tokens(game)
    client = Client()
    assert "For the whole table" in page(client, links[0])
    assert "For the whole table" not in page(client, links[1])

    refused = add(client, links[1], kind="discord", url=PUBLIC, table="on")
    assert "Only the game&#x27;s host can add a webhook for the whole table." in refused
    assert not Webhook.objects.exists()

    add(client, links[0], kind="discord", url=PUBLIC, table="on")
    hook = Webhook.objects.get()
    assert (hook.seat, hook.scope) == (seat_at(game, 0), "table")
    # Only the host may remove it; another player's POST changes nothing.
    client.post(f"/s/{links[1]}/webhooks/{hook.pk}/remove")
    hook.refresh_from_db()
    assert hook.removed_at is None
    client.post(f"/s/{links[0]}/webhooks/{hook.pk}/remove")
    hook.refresh_from_db()
    assert hook.removed_at is not None


@pytest.mark.django_db
def test_a_table_webhook_never_carries_a_seat_link_even_when_asked():
    game = started_game(3)
    shown = add(Client(), tokens(game)[0], kind="json", url=PUBLIC, table="on", include_link="on")
    assert "never carries a seat link" in shown
    assert not Webhook.objects.exists()


PRIVATE = "is a private, local or reserved address"


@pytest.mark.parametrize(
    "url, reason",
    [
        ("http://127.0.0.1:8000/hook", "must use https://"),  # plain http (and the loopback)
        ("https://127.0.0.1/hook", PRIVATE),
        ("https://localhost/hook", PRIVATE),  # a name that resolves to the loopback
        ("https://10.1.2.3/hook", PRIVATE),
        ("https://192.168.0.10/hook", PRIVATE),
        ("https://172.16.0.1/hook", PRIVATE),
        ("https://100.64.0.1/hook", PRIVATE),  # shared address space
        ("https://169.254.169.254/latest/meta-data", PRIVATE),  # link-local: cloud metadata
        ("https://[::1]/hook", PRIVATE),
        ("https://[fe80::1]/hook", PRIVATE),
        ("https://[::ffff:127.0.0.1]/hook", PRIVATE),
        ("https://[2002:7f00:1::]/hook", PRIVATE),  # 6to4 of 127.0.0.1
        ("https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", PRIVATE),  # Teredo
        ("https://[64:ff9b::a00:1]/hook", PRIVATE),  # NAT64 of 10.0.0.1
        ("https://[64:ff9b:1::7f00:1]/hook", PRIVATE),  # local-use NAT64
        ("https://[::7f00:1]/hook", PRIVATE),  # IPv4-compatible
        ("https://[2606:4700::5efe:7f00:1]/hook", PRIVATE),  # ISATAP under a public prefix
        ("https://0.0.0.0/hook", PRIVATE),  # unspecified
        ("https://224.0.0.1/hook", PRIVATE),  # multicast
        ("https://240.0.0.1/hook", PRIVATE),  # reserved
        ("http://1.1.1.1/hook", "must use https://"),
        ("ftp://1.1.1.1/hook", "starts with https://"),
        ("file:///etc/passwd", "starts with https://"),
        ("javascript:alert(1)", "starts with https://"),
        ("https://user:password@1.1.1.1/hook", "user name or password"),
        ("https:///nohost", "names no host"),
        ("not an address", "without spaces"),
        ("https://no-such-host.invalid/hook", "could not be found"),
    ],
)
@pytest.mark.django_db
def test_an_address_a_webhook_may_not_go_to_is_refused_with_a_reason_and_nothing_is_saved(url, reason, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    game = started_game(3)
    token = tokens(game)[0]
    version = seat_at(game, 0).webhooks_version
    shown = add(Client(), token, kind="json", url=url)
    assert "Nothing was saved" in shown and reason in shown.replace("&#x27;", "'")
    assert not Webhook.objects.exists()
    assert seat_at(game, 0).webhooks_version == version


def test_a_public_ipv6_address_is_not_taken_for_one_that_carries_an_ipv4_address(settings):
    from games.services.webhook_http import url_check

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    assert url_check("https://[2606:4700:4700::1111]/hook").host == "2606:4700:4700::1111"


@pytest.mark.django_db
def test_an_eleventh_webhook_tried_within_the_hour_is_refused_before_any_look_up(monkeypatch, settings):
    """Each try makes the server look up the name the player gave; ten an
    hour are counted, refused ones too, and the eleventh is not looked up."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    game = started_game(3)
    token = tokens(game)[0]
    client = Client()
    asked = _resolver(monkeypatch, [["10.0.0.7"]])
    for n in range(10):
        assert PRIVATE in add(client, token, kind="json", url=f"https://try{n}.example.com/hook")
    shown = add(client, token, kind="json", url="https://try10.example.com/hook")
    assert "too many webhooks were tried in the last hour" in shown
    assert len(asked) == 10
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_the_loopback_is_allowed_only_with_the_setting_on(settings):
    game = started_game(3)
    seat = seat_at(game, 0)
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    assert webhook_add(seat=seat, kind="json", url="http://127.0.0.1:9/hook").pk


@pytest.mark.django_db
def test_a_seat_has_at_most_three_webhooks_and_a_fourth_changes_nothing():
    game = started_game(3)
    token = tokens(game)[2]
    client = Client()
    for n in range(SEAT_LIMIT):
        add(client, token, kind="slack", url=f"{PUBLIC}/{n}")
    shown = add(client, token, kind="slack", url=f"{PUBLIC}/one-too-many")
    assert "Your seat has 3 webhooks already" in shown
    assert Webhook.objects.count() == SEAT_LIMIT
    # A removed one makes room again.
    webhook_remove(seat=seat_at(game, 2), webhook_id=Webhook.objects.first().pk)
    add(client, token, kind="slack", url=f"{PUBLIC}/again")
    assert Webhook.objects.filter(removed_at=None).count() == SEAT_LIMIT


@pytest.mark.django_db
def test_a_form_sent_without_a_kind_or_an_address_says_so_and_changes_nothing():
    game = started_game(3)
    shown = add(Client(), tokens(game)[0], url="")
    assert "Nothing was saved." in shown and "Kind:" in shown and "Webhook address:" in shown
    assert not Webhook.objects.exists()


@pytest.mark.django_db
def test_a_webhook_added_or_removed_shows_on_the_next_view_of_the_settings_page():
    game = started_game(3)
    links = tokens(game)
    client = Client()
    before = page(client, links[0])
    assert page(client, links[0]) == before  # from the cache now
    hook = webhook_add(seat=seat_at(game, 0), kind="discord", url=PUBLIC)
    added = page(client, links[0])
    assert "1.1.1.1" in added and f"webhooks/{hook.pk}/remove" in added
    webhook_remove(seat=seat_at(game, 0), webhook_id=hook.pk)
    removed = page(client, links[0])
    assert "1.1.1.1" not in removed
    # A new webhook where the old one was: a page of its own, not the first one's.
    again = webhook_add(seat=seat_at(game, 0), kind="discord", url=PUBLIC)
    assert f"webhooks/{again.pk}/remove" in page(client, links[0])
    # Everything the pages' cache was given (tests/recording_cache.py).
    stored = list(caches["pages"].written.values())
    assert stored
    for text in stored:
        assert again.secret not in str(text) and "s3cr3t-path" not in str(text)


@pytest.mark.django_db
def test_a_seat_handed_to_another_player_no_longer_shows_or_sends_to_the_earlier_players_webhook():
    from django.contrib.auth.models import Group, User

    from games.services import moderation

    game = started_game(3)
    hook = webhook_add(seat=seat_at(game, 1), kind="json", url=PUBLIC, include_link=True)
    user = User.objects.create_user("mod", email="mod@example.org", password="x" * 20, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=moderation.MODERATORS_GROUP)[0])
    moderation.seat_replace(moderator=user, seat=seat_at(game, 1), new_email="new@example.com", reason="left")
    new_token = tokens(game)[1]
    assert "1.1.1.1" not in page(Client(), new_token)
    next_turn_of(game, 1)
    assert not WebhookDelivery.objects.filter(webhook=hook).exists()


# ---- what deliveries say ------------------------------------------------------


def _hook(seat, receiver, path, **fields):
    hook = webhook_add(seat=seat, url=receiver.url(path), **fields)
    if hook.kind == "json":  # Discord and Slack take no signature
        receiver.secrets[path] = hook.secret
    return hook


@pytest.mark.django_db(transaction=True)
def test_a_seat_webhook_says_it_is_your_turn_with_the_decision_the_deadline_and_the_link_only_if_asked(
    receiver, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    game = started_game(3)
    links = tokens(game)
    with_link = _hook(seat_at(game, 1), receiver, "/with-link", kind="json", include_link=True)
    without = _hook(seat_at(game, 2), receiver, "/without", kind="json")
    language_set(seat=seat_at(game, 2), language="de")
    # A turn each that comes after the webhooks were added (the game may have started at seat 1's).
    next_turn_of(game, 1)
    play_until(game, lambda s: engine.to_move(s) == 2)
    game.refresh_from_db()

    turns = [a for a in receiver.arrivals if a.json["event"] == "turn"]
    assert turns and all(a.verified for a in receiver.arrivals)
    mine = [a.json for a in turns if a.path == "/with-link"]
    assert mine, "seat 1's turn was not told"
    for body in mine:
        assert body["turn"]["yours"] is True and body["turn"]["colour"] == "yellow"
        assert body["turn"]["decision"] in ("bid", "roll", "push", "remove")
        assert body["turn"]["deadline"].endswith("+00:00")
        assert body["link"].endswith(f"/s/{links[1]}/") and links[1] in body["text"]
        assert "your turn" in body["text"] and body["turn"]["deadline"][:16] + "Z" in body["text"]
        assert "(Europe/Berlin;" in body["text"]
    theirs = [a for a in turns if a.path == "/without"]
    assert theirs, "seat 2's turn was not told"
    for arrival in theirs:
        assert "link" not in arrival.json
        for token in links.values():
            assert token not in arrival.body.decode()
    # In the seat's own language: the decision as German seat pages name it.
    state = load_state(game)
    with translation.override("de"):
        german = decision_request(engine.observe(state, 2))
    with translation.override("en"):
        english = decision_request(engine.observe(state, 2))
    assert german != english
    assert german in theirs[-1].json["text"]
    # Only each seat's own turns.
    assert {a.json["turn"]["colour"] for a in turns if a.path == "/with-link"} == {"yellow"}
    assert {d.status for d in WebhookDelivery.objects.filter(webhook__in=[with_link, without])} == {"sent"}
    # Sent: the outbox keeps no body (it held a link) and no facts.
    assert not WebhookDelivery.objects.exclude(body="").exists()


@pytest.mark.heavy
@pytest.mark.django_db(transaction=True)
def test_a_table_webhook_tells_every_race_and_the_end_and_no_delivery_holds_a_link_or_a_hidden_card(
    receiver, settings, markers  # noqa: F811 - the fixture
):
    """A whole game with the marker ruleset (every card's code is its own):
    every delivery the receiver got is searched for every seat's link and
    for the cards the table may not know at the version it was written."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    game = started_game(4, ruleset=markers.name)
    for position in range(4):
        emails_stop(seat=seat_at(game, position))  # a lighter game: no emails to write
    links = tokens(game)
    table = _hook(seat_at(game, 0), receiver, "/table", kind="json", table=True)
    discord = _hook(seat_at(game, 0), receiver, "/discord", kind="discord", table=True)
    seat_hook = _hook(seat_at(game, 3), receiver, "/seat3", kind="slack", include_link=True)
    game = play_until(game, lambda s: False, random.Random(7))
    assert game.status == Game.Status.OVER

    assert all(a.verified for a in receiver.bodies("/table")), "a signature does not verify"
    # Every event once: the receiver handled every delivery, and no id twice.
    assert max(receiver.seen.values()) == 1
    deliveries = WebhookDelivery.objects.filter(game=game)
    assert set(receiver.seen) == set(deliveries.values_list("public_id", flat=True))
    assert set(deliveries.values_list("status", flat=True)) == {"sent"}
    told = [a.json for a in receiver.bodies("/table")]
    assert sorted(b["race"]["number"] for b in told if b["event"] == "race") == [1, 2, 3, 4, 5, 6]
    assert [b["event"] for b in told][-1] == "over" and [b["event"] for b in told].count("over") == 1
    assert len([b for b in told if b["event"] == "turn"]) > 20
    for arrival in receiver.bodies("/table"):
        assert arrival.json["game"]["id"] == game.public_id and arrival.json["id"] == arrival.delivery
    for arrival in receiver.bodies("/discord"):
        assert set(arrival.json) == {"content", "allowed_mentions"} and len(arrival.json["content"]) <= 2000

    # No link of any seat, and no card the table may not know then.
    versions = dict(deliveries.values_list("public_id", "version"))
    secret_at: dict[int, set[str]] = {}
    log = Log(game)
    log.advance(
        game, lambda version, state: secret_at.__setitem__(version, codes(secret_cards(state, log.public, None)))
    )
    for arrival in receiver.bodies("/table") + receiver.bodies("/discord"):
        text = arrival.body.decode()
        for token in links.values():
            assert token not in text
        assert "/s/" not in text
        assert_not_shown(text, secret_at[versions[arrival.delivery]], f"table delivery {arrival.delivery}")
    # The seat's own webhook, link asked for: its own link only.
    for arrival in receiver.bodies("/seat3"):
        text = arrival.body.decode()
        assert links[3] in text
        assert not [token for position, token in links.items() if position != 3 and token in text]
        assert_not_shown(text, secret_at[versions[arrival.delivery]], f"seat delivery {arrival.delivery}")
    assert {a.headers["X-Versailles-Event"] for a in receiver.bodies("/seat3")} == {"turn", "race", "over"}
    assert {d.webhook_id for d in deliveries} == {table.pk, discord.pk, seat_hook.pk}


def _recipes(client: Client, token: str, hook_id: int) -> list:
    """The ``verified`` function as the README and the webhook's page write
    it, each run from its own text."""
    import html as html_module
    import pathlib

    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = readme.split("def verified(", 1)[0].rsplit("```python", 1)[1] + "def verified("
    block += readme.split("def verified(", 1)[1].split("```", 1)[0]
    shown = client.get(f"/s/{token}/webhooks/{hook_id}/").content.decode()
    on_page = html_module.unescape(shown.split('<pre tabindex="0">', 1)[1].split("</pre>", 1)[0])
    found = []
    for text in (textwrap.dedent(block), on_page):
        space: dict = {}
        exec(compile(text, "recipe", "exec"), space)
        found.append(space["verified"])
    return found


@pytest.mark.django_db
def test_the_documented_recipe_takes_headers_in_any_case_and_refuses_one_missing_or_odd():
    game = started_game(3)
    token = tokens(game)[0]
    hook = webhook_add(seat=seat_at(game, 0), kind="json", url=PUBLIC)
    from games.services.webhook_text import signature

    body = b'{"event":"turn"}'
    now = str(int(time.time()))
    signed = signature(hook.secret, int(now), body)
    for verified in _recipes(Client(), token, hook.pk):
        assert verified(hook.secret, {"X-Versailles-Timestamp": now, "X-Versailles-Signature": signed}, body)
        assert verified(hook.secret, {"x-versailles-timestamp": now, "x-versailles-signature": signed}, body)
        assert not verified(hook.secret, {"x-versailles-timestamp": now}, body)
        assert not verified(hook.secret, {"x-versailles-signature": signed}, body)
        assert not verified(hook.secret, {"x-versailles-timestamp": "²", "x-versailles-signature": signed}, body)
        assert not verified(hook.secret, {"x-versailles-timestamp": now, "x-versailles-signature": "sha256=é"}, body)
        assert not verified(hook.secret, {"x-versailles-timestamp": now, "x-versailles-signature": signed}, b"{}")


def test_the_documented_recipe_refuses_a_body_changed_after_signing():
    secret, timestamp, body = "k" * 64, "1767225600", b'{"event":"turn"}'
    good = documented_signature(secret, timestamp, body)
    from games.services.webhook_text import signature

    assert signature(secret, int(timestamp), body) == good
    assert documented_signature(secret, timestamp, body.replace(b"turn", b"over")) != good
    assert documented_signature(secret, str(int(timestamp) + 1), body) != good
    assert json.loads(body)["event"] == "turn"



@pytest.mark.django_db(transaction=True)
def test_the_moderators_game_page_lists_each_webhooks_deliveries_without_the_address_path(receiver, settings):
    from django.contrib.auth.models import Group, User

    from games.services.moderation import MODERATORS_GROUP

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/table-secret-path"] = 500
    game = started_game(3)
    table = _hook(seat_at(game, 0), receiver, "/table-secret-path", kind="json", table=True)
    mine = _hook(seat_at(game, 1), receiver, "/seat-secret-path", kind="json")
    next_turn_of(game, 1)
    user = User.objects.create_user("mod", email="mod@example.org", password="x" * 20, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    client = Client()
    client.force_login(user)
    html = client.get(f"/mod/g/{game.public_id}/").content.decode()
    assert "The whole table's deliveries" in html and "Webhook deliveries" in html
    # The table's queue: its oldest unfinished delivery failed and waits.
    failed = WebhookDelivery.objects.filter(webhook=table, status="pending").order_by("version").first()
    sent = WebhookDelivery.objects.filter(webhook=mine).first()
    assert failed.status == "pending" and failed.last_error.startswith("HTTP 500")
    assert sent.status == "sent"
    assert failed.public_id in html and sent.public_id in html
    assert "HTTP 500" in html and "failing since" in html
    assert "127.0.0.1" in html
    assert "secret-path" not in html and table.secret not in html and mine.secret not in html


@pytest.mark.django_db
def test_a_decision_in_a_game_with_webhooks_costs_two_statements_more_at_any_length_of_game():
    """Reading the game's webhooks and writing their deliveries, in one
    statement each; a game without any reads nothing more (test_statements)."""
    from tests.web.test_statements import decision_post_statements, deep_game

    def hooked(game: Game) -> Game:
        webhook_add(seat=seat_at(game, 0), kind="json", url=PUBLIC, table=True)
        webhook_add(seat=seat_at(game, 1), kind="discord", url=PUBLIC)
        game.refresh_from_db()
        return game

    first = decision_post_statements(hooked(started_game(4)))
    deep = decision_post_statements(hooked(deep_game()))
    assert len(first) == len(deep), (first, deep)
    assert len(deep) <= 8, deep
    assert sum('"games_webhook' in sql for sql in deep) == 2, deep
    assert WebhookDelivery.objects.filter(event="turn").count() >= 2


# ---- the request itself -------------------------------------------------------


def _resolver(monkeypatch, answers: list[list[str]]) -> list[str]:
    """The system resolver, answering each look-up of a name with the next of
    ``answers`` (a DNS server that rebinds); the names looked up."""
    import socket

    real = socket.getaddrinfo
    asked: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host in ("127.0.0.1", "::1") or host[:1].isdigit():
            return real(host, port, *args, **kwargs)
        asked.append(host)
        addresses = answers[min(len(asked), len(answers)) - 1]
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (a, port)) for a in addresses]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


def test_a_name_with_any_private_address_among_its_addresses_is_refused(monkeypatch, settings):
    from games.services.webhook_http import AddressRefused, url_check

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    _resolver(monkeypatch, [["1.1.1.1", "10.0.0.7"]])
    with pytest.raises(AddressRefused, match="private, local or reserved"):
        url_check("https://hooks.example.com/x")
    _resolver(monkeypatch, [["1.1.1.1", "8.8.8.8"]])
    assert url_check("https://hooks.example.com/x").host == "hooks.example.com"


def test_the_name_is_resolved_once_and_the_request_goes_to_that_address_under_the_name(monkeypatch, settings, receiver):
    """The second answer (a rebinding DNS server's) would send the request
    elsewhere; the request goes where the checked answer said, with the
    name in its Host header."""
    from games.services.webhook_http import post

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    asked = _resolver(monkeypatch, [["127.0.0.1"], ["127.0.0.9"]])
    port = receiver.server.server_address[1]
    answer = post(f"http://hooks.example.com:{port}/named", b"{}", {"Content-Type": "application/json"})
    assert answer.status == 200
    assert asked == ["hooks.example.com"]
    (arrival,) = receiver.arrivals
    assert arrival.headers["Host"] == f"hooks.example.com:{port}"


def test_the_answer_is_read_only_so_far_and_no_redirect_is_followed(settings):
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from games.services.webhook_http import RESPONSE_MAX, post

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    requests = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            requests.append(self.path)
            self.rfile.read(int(self.headers["Content-Length"]))
            if self.path == "/moved":
                self.send_response(301)
                self.send_header("Location", "/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Length", str(10 * RESPONSE_MAX))
            self.end_headers()
            self.wfile.write(b"x" * (10 * RESPONSE_MAX))

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        assert len(post(f"{base}/big", b"{}", {}).body) == RESPONSE_MAX
        assert post(f"{base}/moved", b"{}", {}).status == 301
        assert requests == ["/big", "/moved"]
    finally:
        server.shutdown()
        server.server_close()
