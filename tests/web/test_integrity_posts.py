"""POSTs that must change nothing: repeated and stale forms, bad links, a link
acting for another seat, illegal actions; and "send me my link again"."""

import re

import pytest
from django.core import mail
from django.test import Client

from games import engine
from games.models import Game, Seat
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.links import link_issue
from tests.factories import play_steps, seat_at, started_game, tokens
from tests.mail.helpers import addresses
from tests.web.integrity_helpers import (
    counts,
    game_at_push,
    game_at_push_with_a_chair_out_of_the_race,
    game_at_removal,
    game_at_roll,
    game_row,
    inviting_game,
    mover_position,
    snapshot,
)
from tests.web.pages import forms_of, path_of, seat_links

pytestmark = pytest.mark.django_db


def act_forms(client, token):
    page = client.get(f"/s/{token}/")
    assert page.status_code == 200
    return [f for f in forms_of(page) if f.action.endswith("/act")]


def filled(form, choose_first=True) -> dict:
    """What a browser sends for this form: its fields, the first choice of every
    radio group, and the value of its (single named) button."""
    data = form.values()
    for name, values in form.radios().items():
        data[name] = values[0] if choose_first else values[-1]
    for name, value, _ in form.buttons:
        if name:
            data[name] = value
    return data


def a_decision_form(client, game):
    """The mover's token and a complete, legal form for the decision at hand."""
    token = tokens(game)[mover_position(game)]
    forms = act_forms(client, token)
    assert forms
    # The pass button at a bid, the only form otherwise.
    form = next((f for f in forms if any(b[1] == "pass" for b in f.buttons)), forms[0])
    return token, form, filled(form)


def assert_unchanged(game, row, before_counts):
    assert game_row(game) == row
    assert counts(game) == before_counts


def assert_already_decided(response):
    assert response.status_code == 409
    assert "Already decided" in response.content.decode()


# --- The double click and the back button -------------------------------------------------


@pytest.mark.parametrize(
    "make", [started_game, game_at_roll, game_at_push, game_at_removal], ids=["bid", "roll", "push", "remove"]
)
def test_posting_the_same_decision_form_twice_decides_once_and_then_says_already_decided(client, make):
    game = make()
    token, form, data = a_decision_form(client, game)
    first = client.post(form.action, data)
    assert first.status_code == 302
    game.refresh_from_db()
    row, before = game_row(game), counts(game)
    second = client.post(form.action, data)
    assert_already_decided(second)
    assert_unchanged(game, row, before)


def test_posting_a_form_rendered_for_an_earlier_decision_says_already_decided_and_changes_nothing(client):
    game = started_game(3)
    token, old_form, old_data = a_decision_form(client, game)
    play_steps(game, 3)  # the decision moved on without this page
    row, before = game_row(game), counts(game)
    for other in tokens(game).values():
        # Whoever's link the old form is posted through, it is stale.
        response = client.post(f"/s/{other}/act", old_data)
        assert_already_decided(response)
        assert_unchanged(game, row, before)


def test_a_bid_form_from_before_the_last_bid_is_stale_even_when_its_amount_is_still_legal(client):
    game = started_game(3)
    mover = mover_position(game)
    token = tokens(game)[mover]
    bid_form = next(f for f in act_forms(client, token) if f.values().get("action") == "bid")
    # The mover decides in another tab; the decision comes round again later.
    decision_submit(seat=seat_at(game, mover), text="bid 1", seen_version=game.decision_version)
    game.refresh_from_db()
    while mover_position(game) != mover:
        play_steps(game, 1, choose=lambda state, rng: engine.Bid(state.auction.high_bid + 1))
    row, before = game_row(game), counts(game)
    response = client.post(bid_form.action, bid_form.values() | {"amount": str(load_state(game).auction.high_bid + 1)})
    assert_already_decided(response)
    assert_unchanged(game, row, before)


def test_taking_a_seat_twice_says_already_decided_and_changes_nothing(client):
    game = inviting_game(3)
    token = tokens(game)[1]
    data = {"colour": "green", "display_name": "Bea", "time_zone": "Europe/Paris"}
    assert client.post(f"/s/{token}/accept", data).status_code == 302
    before = snapshot()
    assert_already_decided(client.post(f"/s/{token}/accept", data))
    assert_already_decided(client.post(f"/s/{token}/accept", data | {"colour": "blue"}))
    assert snapshot() == before


def test_an_arrangement_does_not_make_the_movers_open_form_stale(client):
    game = game_at_roll()
    mover = mover_position(game)
    other = (mover + 1) % 3
    token, form, data = a_decision_form(client, game)
    codes = [card["code"] for card in engine.observe(load_state(game), other)["players"][other]["display"]]
    arranged = client.post(
        f"/s/{tokens(game)[other]}/arrange",
        {f"slot_{i}": code for i, code in enumerate(reversed(codes), start=1)},
    )
    assert arranged.status_code == 302
    game.refresh_from_db()
    arranged_at = game.version
    assert client.post(form.action, data).status_code == 302
    roll = game.actions.filter(seq__gt=arranged_at).order_by("seq").first()
    assert (roll.seat, roll.action) == (mover, "roll")


# --- Links that open no seat ---------------------------------------------------------------


def bad_tokens(good: str) -> dict[str, str]:
    flipped = ("B" if good[5] != "B" else "C")
    return {
        "forged": "x" * len(good),
        "mistyped": good[:5] + flipped + good[6:],
        "truncated": good[:-3],
        "cut to one character": good[:1],
        "overlong by one": good + "A",
        "far too long": good * 5,
        "with unicode": good[:-1] + "é",
        "percent-encoded bytes": "%ff%fe%00",
    }


BAD = list(bad_tokens("A" * 32))


@pytest.mark.parametrize("kind", BAD + ["revoked"])
def test_a_bad_link_opens_the_clear_no_seat_page_for_get_and_post(client, kind):
    game = started_game(3)
    seat = seat_at(game, mover_position(game))
    good = tokens(game)[seat.position]
    if kind == "revoked":
        link_issue(seat)
        seat.save()
        token = good
        assert client.get(f"/s/{tokens(game)[seat.position]}/").status_code == 200
    else:
        token = bad_tokens(good)[kind]
    before = snapshot()
    legal = {"version": str(game.decision_version), "action": "pass"}
    responses = [
        client.get(f"/s/{token}/"),
        client.get(f"/s/{token}/state.json"),
        client.post(f"/s/{token}/act", legal),
        client.post(f"/s/{token}/accept", {"colour": "blue", "display_name": "X", "time_zone": "UTC"}),
        client.post(f"/s/{token}/arrange", {}),
    ]
    for response in responses:
        assert response.status_code == 404
        if response["Content-Type"].startswith("text/html"):
            assert "This link opens no seat" in response.content.decode()
    assert snapshot() == before


def test_a_revoked_link_opens_nothing_while_the_new_one_opens_the_seat(client):
    game = started_game(3)
    seat = seat_at(game, 1)
    old = tokens(game)[1]
    link_issue(seat)
    seat.save()
    new = tokens(game)[1]
    assert new != old
    assert client.get(f"/s/{old}/").status_code == 404
    page = client.get(f"/s/{new}/")
    assert page.status_code == 200
    assert page.context["seat"].pk == seat.pk


# --- A link acts only for its own seat -----------------------------------------------------


def page_messages(client, response) -> str:
    """The messages shown on the page the POST redirects to."""
    assert response.status_code == 302, response.status_code
    page = client.get(response["Location"]).content.decode()
    found = re.search(r'<ul class="messages">(.*?)</ul>', page, re.S)
    return found.group(1) if found else ""


@pytest.mark.parametrize(
    "make", [started_game, game_at_roll, game_at_push, game_at_removal], ids=["bid", "roll", "push", "remove"]
)
def test_a_decision_through_another_seats_link_is_refused_and_changes_nothing(client, make):
    game = make()
    token, form, data = a_decision_form(client, game)
    mover = mover_position(game)
    mover_seat = seat_at(game, mover)
    row, before = game_row(game), counts(game)
    naming_the_mover = {
        "seat": str(mover_seat.pk),
        "seat_id": str(mover_seat.pk),
        "position": str(mover),
        "colour": mover_seat.colour,
        "player": str(mover),
        "token": token,
    }
    for position, other in tokens(game).items():
        if position == mover:
            continue
        for extra in ({}, naming_the_mover):
            response = client.post(f"/s/{other}/act", data | extra)
            assert "It is not your turn" in page_messages(client, response)
            assert_unchanged(game, row, before)


def test_fields_naming_another_seat_do_not_change_who_acts(client):
    """Through the mover's own link, extra fields naming another seat are
    ignored: the decision is the mover's."""
    game = started_game(3)
    token, form, data = a_decision_form(client, game)
    mover = mover_position(game)
    other = seat_at(game, (mover + 1) % 3)
    response = client.post(
        form.action, data | {"seat": str(other.pk), "position": str(other.position), "colour": other.colour}
    )
    assert response.status_code == 302
    last = game.actions.filter(actor="player").order_by("-seq").first()
    assert last.seat == mover


def test_an_arrangement_through_a_link_reorders_only_that_seats_team(client):
    game = game_at_roll()
    state = load_state(game)
    displays = {p: engine.observe(state, p)["players"][p]["display"] for p in range(3)}
    target = 1
    codes = [card["code"] for card in displays[target]]
    reordered = list(reversed(codes))
    extra = {"seat": str(seat_at(game, 0).pk), "position": "0", "colour": seat_at(game, 0).colour}
    response = client.post(
        f"/s/{tokens(game)[target]}/arrange",
        {f"slot_{i}": code for i, code in enumerate(reordered, start=1)} | extra,
    )
    assert response.status_code == 302
    game.refresh_from_db()
    after = load_state(game)
    for position in range(3):
        now = [c["code"] for c in engine.observe(after, position)["players"][position]["display"]]
        expected = reordered if position == target else [c["code"] for c in displays[position]]
        assert now == expected


def finished(game: Game) -> Game:
    """A game marked over. The services look only at the status, and a real
    finished game costs many seconds to play (the reads test plays one)."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    game.refresh_from_db()
    return game


# --- Illegal actions that look valid -------------------------------------------------------


def refused(client, game, token, data, message):
    row, before = game_row(game), counts(game)
    response = client.post(f"/s/{token}/act", data)
    page = page_messages(client, response)
    assert message in page, page
    assert_unchanged(game, row, before)


def test_a_bid_above_your_gold_gets_a_clear_message_and_changes_nothing(client):
    game = started_game(3)
    mover = mover_position(game)
    gold = load_state(game).gold[mover]
    token = tokens(game)[mover]
    (bid_form,) = [f for f in act_forms(client, token) if f.values().get("action") == "bid"]
    refused(client, game, token, bid_form.values() | {"amount": str(gold + 1)}, f"you have only {gold} gold")
    refused(client, game, token, bid_form.values() | {"amount": "1000000"}, f"you have only {gold} gold")


def test_a_bid_not_above_the_high_bid_is_refused_with_a_message(client):
    game = started_game(3)
    first = mover_position(game)
    decision_submit(seat=seat_at(game, first), text="bid 3", seen_version=game.decision_version)
    game.refresh_from_db()
    mover = mover_position(game)
    assert mover != first
    token = tokens(game)[mover]
    version = str(game.decision_version)
    for amount in ("3", "2", "0"):
        refused(
            client, game, token, {"version": version, "action": "bid", "amount": amount}, "a bid must be at least 4"
        )


def test_a_bid_without_an_amount_is_refused_with_a_message(client):
    game = started_game(3)
    token = tokens(game)[mover_position(game)]
    refused(client, game, token, {"version": str(game.decision_version), "action": "bid"}, "Say how much you bid")


def test_a_negative_or_huge_bid_is_refused_as_a_malformed_form(client):
    game = started_game(3)
    token = tokens(game)[mover_position(game)]
    for amount in ("-1", "10000001", "9" * 5000, "1.5", "ten"):
        refused(
            client, game, token, {"version": str(game.decision_version), "action": "bid", "amount": amount},
            "That form was not filled in correctly",
        )


def test_an_action_of_the_wrong_kind_is_refused_with_a_message(client):
    game = started_game(3)
    token = tokens(game)[mover_position(game)]
    version = str(game.decision_version)
    for action in ("roll", "push"):
        refused(client, game, token, {"version": version, "action": action, "target": "none"}, "Nothing was changed")
    refused(client, game, token, {"version": version, "action": "arrange"}, "That form was not filled in correctly")


def test_pushing_a_chair_that_finished_or_fell_in_the_pond_is_refused_with_a_message(client):
    game = game_at_push_with_a_chair_out_of_the_race()
    state = load_state(game)
    mover = mover_position(game)
    finished = next(
        c for p, (c, s) in enumerate(zip(state.colours, state.race.status, strict=True)) if s != "racing" and p != mover
    )
    token = tokens(game)[mover]
    version = str(game.decision_version)
    refused(
        client,
        game,
        token,
        {"version": version, "action": "push", "target": finished},
        "only a chair still racing can be pushed",
    )
    refused(client, game, token, {"version": version, "action": "push", "target": state.colours[mover]}, "not your own")
    for target in ("", "black", "nobody", "RED"):
        refused(
            client, game, token, {"version": version, "action": "push", "target": target}, "Choose a chair to push back"
        )


def test_a_removal_naming_slot_9_or_leaving_out_a_display_is_refused_with_a_message(client):
    game = game_at_removal()
    state = load_state(game)
    token = tokens(game)[mover_position(game)]
    base = {"version": str(game.decision_version), "action": "remove"}
    slots = {f"slot_{c}": "1" for c in state.colours}
    size = state.ruleset.display_size
    refused(client, game, token, base | slots | {f"slot_{state.colours[0]}": "9"}, f"slots are numbered 1 to {size}")
    refused(client, game, token, base | {f"slot_{c}": "1" for c in state.colours[1:]}, "one card from every display")
    for bad in ("0", "-1", "100", "x"):
        refused(
            client,
            game,
            token,
            base | slots | {f"slot_{state.colours[1]}": bad},
            "That form was not filled in correctly",
        )


def test_an_arrangement_that_is_not_a_reordering_of_your_team_is_refused(client):
    game = game_at_roll()
    position = 1
    codes = [c["code"] for c in engine.observe(load_state(game), position)["players"][position]["display"]]
    token = tokens(game)[position]
    row, before = game_row(game), counts(game)
    same_card_everywhere = {f"slot_{i}": codes[0] for i in range(1, len(codes) + 1)}
    if len(set(codes)) > 1:
        response = client.post(f"/s/{token}/arrange", same_card_everywhere)
        assert "Nothing was changed" in page_messages(client, response)
    for data in ({}, {"slot_1": "nonsense"}, {f"slot_{i}": code for i, code in enumerate(codes[:-1], start=1)}):
        response = client.post(f"/s/{token}/arrange", data)
        assert "Nothing was changed" in page_messages(client, response)
    assert_unchanged(game, row, before)


def test_nothing_can_be_decided_once_the_game_is_over(client):
    game = finished(game_at_roll())
    row, before = game_row(game), counts(game)
    for token in tokens(game).values():
        for action in ("pass", "roll"):
            response = client.post(f"/s/{token}/act", {"version": str(game.decision_version), "action": action})
            assert "not running" in page_messages(client, response)
        codes = [c["code"] for c in engine.observe(load_state(game), 0)["players"][0]["display"]]
        response = client.post(f"/s/{token}/arrange", {f"slot_{i}": c for i, c in enumerate(codes, start=1)})
        assert response.status_code == 302
    assert_unchanged(game, row, before)


def test_nothing_can_be_decided_before_the_game_starts(client):
    game = inviting_game(3, accepted=1)
    before = snapshot()
    for token in tokens(game).values():
        response = client.post(f"/s/{token}/act", {"version": "0", "action": "pass"})
        assert "not running" in page_messages(client, response)
        assert client.post(f"/s/{token}/arrange", {"slot_1": "x"}).status_code == 302
    assert snapshot() == before


# --- Send me my link again -----------------------------------------------------------------


def sent_links(django_capture_on_commit_callbacks, client, email):
    outbox = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/link/", {"email": email})
    return response, mail.outbox[outbox:]


def test_send_me_my_link_again_mails_the_current_link_of_every_unfinished_game(
    client, django_capture_on_commit_callbacks
):
    inviting = inviting_game(3, accepted=1)
    running = started_game(3)
    over = finished(started_game(3))
    # p1 plays in all three; their running seat's link was revoked and reissued.
    revoked = seat_at(running, 1)
    link_issue(revoked)
    revoked.save()
    wanted = {seat_at(inviting, 1).pk, seat_at(running, 1).pk}
    response, sent = sent_links(django_capture_on_commit_callbacks, client, "P1@Example.COM ")
    assert response.status_code == 302
    # One email listing every game's link, not one per seat.
    (message,) = sent
    assert addresses(message) == ["p1@example.com"]
    opened = set()
    for link in set(seat_links(message.body)):
        page = Client().get(path_of(link))
        assert page.status_code == 200
        seat = page.context["seat"]
        assert seat.email == "p1@example.com"
        opened.add(seat.pk)
    assert opened == wanted
    assert seat_at(over, 1).pk not in opened


def test_send_me_my_link_again_twice_sends_twice(client, django_capture_on_commit_callbacks):
    started_game(3)
    assert len(sent_links(django_capture_on_commit_callbacks, client, "p2@example.com")[1]) == 1
    assert len(sent_links(django_capture_on_commit_callbacks, client, "p2@example.com")[1]) == 1


def without_csrf(response) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def test_an_address_that_plays_nowhere_gets_the_same_answer_and_no_mail(client, django_capture_on_commit_callbacks):
    started_game(3)
    playing, playing_sent = sent_links(django_capture_on_commit_callbacks, client, "p1@example.com")
    before = snapshot()
    for email in ("nobody@example.com", "p1@example.org"):
        stranger, stranger_sent = sent_links(django_capture_on_commit_callbacks, client, email)
        assert stranger_sent == []
        assert stranger.status_code == playing.status_code == 302
        assert stranger["Location"] == playing["Location"]
        # The same page but for each client's own CSRF token (the language switch's form).
        assert without_csrf(Client().get(stranger["Location"])) == without_csrf(Client().get(playing["Location"]))
    assert playing_sent
    assert snapshot() == before


def test_an_address_whose_games_are_all_over_gets_the_link_to_its_games_and_no_seat_link(
    client, django_capture_on_commit_callbacks
):
    over = finished(started_game(3))
    Seat.objects.filter(game=over, position=0).update(email="retired@example.com")
    response, sent = sent_links(django_capture_on_commit_callbacks, client, "retired@example.com")
    assert response.status_code == 302
    (email,) = sent
    assert "/h/" in email.body and "/s/" not in email.body


@pytest.mark.parametrize(
    "email", ["not an address", "p1@", "@example.com", "", "a" * 300 + "@example.com", "p1@example.com\nBcc: x@y.z"]
)
def test_a_malformed_address_gets_a_form_error_and_no_mail(client, email, django_capture_on_commit_callbacks):
    started_game(3)
    before = snapshot()
    response, sent = sent_links(django_capture_on_commit_callbacks, client, email)
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert sent == []
    assert snapshot() == before


# --- The new-game form ---------------------------------------------------------------------

LONG_ADDRESS = "a" * 64 + "@" + ("b" * 60 + ".") * 4 + "com"  # valid syntax, 312 characters


@pytest.mark.parametrize("field", ["host_email", "other_emails"])
def test_an_address_longer_than_254_characters_gets_a_form_error_and_no_game(client, field):
    data = {
        "host_name": "Ann",
        "host_email": "ann@example.com",
        "other_emails": "bob@example.com\ncid@example.com",
        "decision_hours": "24",
        "ruleset": "classic",
    }
    data[field] = LONG_ADDRESS if field == "host_email" else f"bob@example.com\n{LONG_ADDRESS}"
    before = snapshot()
    response = client.post("/new/", data)
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert snapshot() == before


def arrange_form_codes(client, token: str) -> list[str]:
    """The codes the seat page's arrange form has chosen, slot by slot."""
    page = client.get(f"/s/{token}/").content.decode()
    form = re.search(r'<form method="post" action="arrange"[^>]*>(.*?)</form>', page, re.S)
    assert form, "the page has no arrange form"
    return re.findall(r'<option value="([^"]+)" selected>', form.group(1))


def test_each_seats_arrange_form_offers_its_own_team_in_its_order_and_follows_an_arrangement(client):
    """The form's HTML is kept for everyone whose team is the same cards in
    the same order: a seat never gets another team's form, nor its own
    before its last arrangement."""
    game = game_at_roll()
    links = tokens(game)

    def teams() -> dict[int, list[str]]:
        state = load_state(game)
        return {p: [card["code"] for card in engine.observe(state, p)["players"][p]["display"]] for p in range(3)}

    before = teams()
    assert {p: arrange_form_codes(client, links[p]) for p in range(3)} == before
    reordered = list(reversed(before[1]))
    client.post(f"/s/{links[1]}/arrange", {f"slot_{i}": code for i, code in enumerate(reordered, start=1)})
    game.refresh_from_db()
    assert teams()[1] == reordered
    assert {p: arrange_form_codes(client, links[p]) for p in range(3)} == teams()
