"""Every form, posted with random fields and values: never a server error, and
nothing changes unless the post was a legitimate action.

Each test builds its game once (a fixture) and every example must leave it as
it was: the fuzz data is filtered so that it never is a legal action."""

from urllib.parse import urlencode

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import QueryDict
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from games import engine
from games.models import Game, Notification, Seat
from games.services.game_state import load_state
from games.web.forms import AcceptForm, ArrangeForm, DecisionForm, LinkResendForm
from tests.factories import started_game, tokens
from tests.web.integrity_helpers import game_at_push, game_at_removal, game_at_roll, inviting_game, snapshot

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)

FIELDS = [
    "version", "action", "amount", "target", "colour", "display_name", "time_zone", "host_name",
    "host_email", "other_emails", "decision_hours", "ruleset", "email",
    "slot_1", "slot_2", "slot_3", "slot_4", "slot_9",
    "slot_red", "slot_yellow", "slot_green", "slot_blue", "slot_white", "slot_black",
    "seat", "position", "csrfmiddlewaretoken",
]
CHARS = st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",))
TEXT = st.text(CHARS, max_size=30)
LONG = st.tuples(st.text(CHARS, min_size=1, max_size=3), st.integers(300, 3000)).map(lambda t: t[0] * t[1])
NUMBERS = st.one_of(
    st.integers(-5, 300).map(str),
    st.integers(-(10**40), 10**40).map(str),
    st.floats().map(str),
    st.integers(4300, 6000).map(lambda n: "9" * n),  # beyond Python's int() digit limit
)
SPECIAL = st.sampled_from(
    ["", " ", "\t", "\r\n", "0", "-0", "+1", "1.0", "1e9", "NaN", "inf", "0x10", "٣", "１",
     "bid", "pass", "roll", "push", "remove", "arrange", "none", "None", "null", "true", "[]", "{}",
     "red", "yellow", "green", "blue", "white", "black", "RED", "UTC", "Europe/Berlin", "classic",
     "24", "1", "168", "a@example.com", "p1@example.com", "b@example.com\nc@example.com",
     "<script>alert(1)</script>", "' OR 1=1 --", "%00", "../../etc/passwd", "\u202e", "\ufeff"]
)


def form_data(*real_values):
    """Random form data: real and junk field names, to strings of every kind or lists of them."""
    scalar = st.one_of(TEXT, LONG, NUMBERS, SPECIAL, *(st.sampled_from(v) for v in real_values if v))
    value = st.one_of(scalar, st.lists(scalar, min_size=1, max_size=3))
    name = st.one_of(st.sampled_from(FIELDS), st.text(CHARS, min_size=1, max_size=12))
    return st.dictionaries(name, value, max_size=10)


def near(real: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly a plausible value for a field, sometimes junk or several values."""
    junk = st.one_of(TEXT, NUMBERS, SPECIAL)
    several = st.lists(st.one_of(real, junk), min_size=2, max_size=3)
    # (st.one_of would merge repeated branches, so weight them by hand.)
    return st.integers(0, 9).flatmap(lambda i: real if i < 8 else junk if i == 8 else several)


def near_form(fields: dict, required=()) -> st.SearchStrategy:
    """The real form's fields (the ``required`` ones always there, the others
    now and then), mostly with plausible values, plus now and then a junk field."""
    others = [name for name in FIELDS if name not in fields]
    extra = st.dictionaries(st.sampled_from(others), st.one_of(TEXT, SPECIAL), max_size=2)
    form = st.fixed_dictionaries(
        {name: near(real) for name, real in fields.items() if name in required},
        optional={name: near(real) for name, real in fields.items() if name not in required},
    )
    return st.tuples(form, extra).map(lambda pair: pair[1] | pair[0])


def post(client, url, data, multipart):
    """Post as a browser does (urlencoded), or as multipart form data."""
    if multipart:
        return client.post(url, data)
    return client.post(url, urlencode(data, doseq=True), content_type="application/x-www-form-urlencoded")


def as_querydict(data) -> QueryDict:
    return QueryDict(urlencode(data, doseq=True))


def display_codes(game, position):
    return [c["code"] for c in engine.observe(load_state(game), position)["players"][position]["display"]]


# --- /new/ and /link/ ----------------------------------------------------------------------


EMAILS = st.one_of(
    st.emails(),
    st.sampled_from(["a@example.com", "B@example.com", "c@example.org", "d@x.y", "bad", "e@@f", "a" * 250 + "@x.io"]),
)
NEW_GAME = near_form(
    {
        "host_name": st.one_of(st.just("Ann"), TEXT, LONG),
        "host_email": EMAILS,
        "other_emails": st.tuples(st.lists(EMAILS, max_size=6), st.sampled_from(["\n", ",", " ; ", "\r\n", ""])).map(
            lambda t: t[1].join(t[0])
        ),
        "decision_hours": st.sampled_from(["1", "24", "168", "0", "25", "-24"]),
        "ruleset": st.sampled_from(["classic", "Classic", "deluxe", ""]),
    },
    required=["host_name", "host_email", "other_emails", "decision_hours", "ruleset"],
)


@FUZZ
@given(data=st.one_of(form_data(["Ann", "Bob"]), NEW_GAME), multipart=st.booleans())
def test_random_posts_to_the_new_game_form_never_fail_and_create_a_game_only_when_valid(client, data, multipart):
    games, notifications = Game.objects.count(), Notification.objects.count()
    response = post(client, "/new/", data, multipart)
    event(f"/new/: {response.status_code}")
    assert response.status_code < 500
    if response.status_code == 302:
        assert Game.objects.count() == games + 1
    else:
        assert response.status_code in (200, 400)
        assert (Game.objects.count(), Notification.objects.count()) == (games, notifications)


@pytest.fixture
def players_game(db):
    return started_game(3)


@FUZZ
@given(data=st.one_of(form_data(), near_form({"email": EMAILS}, required=["email"])), multipart=st.booleans())
def test_random_posts_to_send_me_my_link_never_fail_and_mail_nobody_who_does_not_play(
    client, players_game, data, multipart
):
    form = LinkResendForm(as_querydict(data))
    assume(not (form.is_valid() and form.cleaned_data["email"].strip().lower().endswith("@example.com")))
    # The per-test cache outlives Hypothesis's examples: without this, the
    # 21st valid post of a run meets the hourly limit and answers 429.
    cache.clear()
    before = snapshot()
    response = post(client, "/link/", data, multipart)
    event(f"/link/: {response.status_code}")
    assert response.status_code in (200, 302, 400)
    assert snapshot() == before


# --- Taking a seat -------------------------------------------------------------------------


@pytest.fixture
def half_seated_game(db):
    return inviting_game(3, accepted=1)


def would_take_the_seat(seat, data) -> bool:
    if seat.accepted_at is not None:
        return False
    form = AcceptForm(as_querydict(data), free_colours=["yellow", "green", "blue", "white", "black"])
    return form.is_valid()


ACCEPT = near_form(
    {
        "colour": st.sampled_from(["red", "yellow", "green", "blue", "white", "black", "mauve", "Red"]),
        "display_name": st.one_of(st.just("Bea"), TEXT, LONG),
        "time_zone": st.sampled_from(
            ["UTC", "Asia/Tokyo", "Europe/Berlin", "localtime", "Factory", "Mars/Olympus", "utc"]
        ),
    },
    required=["colour", "display_name", "time_zone"],
)


@FUZZ
@given(
    position=st.sampled_from([0, 1, 2]),
    data=st.one_of(form_data(["green", "blue", "red"], ["UTC", "Asia/Tokyo"]), ACCEPT),
    multipart=st.booleans(),
)
def test_random_posts_to_take_a_seat_never_fail_and_change_nothing(client, half_seated_game, position, data, multipart):
    seat = Seat.objects.get(game=half_seated_game, position=position)
    assume(not would_take_the_seat(seat, data))
    before = snapshot()
    response = post(client, f"/s/{tokens(half_seated_game)[position]}/accept", data, multipart)
    event(f"/accept: {response.status_code}")
    assert response.status_code in (400, 409)
    assert snapshot() == before


# --- Decisions -----------------------------------------------------------------------------


@pytest.fixture(params=["bid", "push", "remove"])
def decision_game(request, db):
    return {"bid": lambda: started_game(3), "push": game_at_push, "remove": game_at_removal}[request.param]()


def is_legal(game, position, data) -> bool:
    """What the view would do with this post: True if it is a legal action."""
    state = load_state(game)
    form = DecisionForm(as_querydict(data), colours=state.colours)
    if not form.is_valid() or form.cleaned_data["version"] != game.decision_version:
        return False
    if engine.to_move(state) != position:
        return False
    try:
        action = engine.parse(form.notation(), state.ruleset)
        engine.apply(state, position, action)
    except (ValidationError, engine.EngineError):
        return False
    return True


@FUZZ
@given(data=st.data(), multipart=st.booleans())
def test_random_posts_to_act_never_fail_and_change_nothing_unless_legal(client, decision_game, data, multipart):
    game = decision_game
    state = load_state(game)
    position = data.draw(st.sampled_from(range(3)), "position")
    versions = [str(game.decision_version), str(game.version), str(game.decision_version - 1)]
    near_decision = near_form(
        {
            "version": st.sampled_from(versions),
            "action": st.sampled_from(["bid", "pass", "roll", "push", "remove", "arrange"]),
            "amount": st.integers(-2, 40).map(str),
            "target": st.sampled_from([*state.colours, "none", "black", ""]),
            **{f"slot_{colour}": st.integers(0, 10).map(str) for colour in state.colours},
        },
        required=["version", "action"],
    )
    junk = form_data(versions, list(state.colours), ["1", "2", "3", "4", "9"])
    fields = data.draw(st.one_of(junk, near_decision, near_decision), "fields")
    assume(not is_legal(game, position, fields))
    before = snapshot()
    response = post(client, f"/s/{tokens(game)[position]}/act", fields, multipart)
    valid = DecisionForm(as_querydict(fields), colours=state.colours).is_valid()
    event(f"/act: {response.status_code}, form valid: {valid}")
    assert response.status_code in (302, 409)
    assert snapshot() == before


# --- Arranging a team ----------------------------------------------------------------------


@pytest.fixture
def arranging_game(db):
    return game_at_roll()


def is_a_reordering(game, position, data) -> bool:
    codes = display_codes(game, position)
    form = ArrangeForm(as_querydict(data), codes=codes)
    return form.is_valid() and sorted(form.codes()) == sorted(codes)


@FUZZ
@given(data=st.data(), multipart=st.booleans())
def test_random_posts_to_arrange_never_fail_and_change_nothing_unless_they_reorder_the_team(
    client, arranging_game, data, multipart
):
    game = arranging_game
    position = data.draw(st.sampled_from(range(3)), "position")
    codes = display_codes(game, position)
    theirs = display_codes(game, (position + 1) % 3)
    near_arrangement = near_form(
        {f"slot_{i}": st.sampled_from(codes + theirs[:1]) for i in range(1, len(codes) + 2)},
        required=[f"slot_{i}" for i in range(1, len(codes) + 1)],
    )
    fields = data.draw(st.one_of(form_data(codes, theirs), near_arrangement), "fields")
    assume(not is_a_reordering(game, position, fields))
    before = snapshot()
    response = post(client, f"/s/{tokens(game)[position]}/arrange", fields, multipart)
    event(f"/arrange: form valid: {ArrangeForm(as_querydict(fields), codes=codes).is_valid()}")
    assert response.status_code == 302
    assert snapshot() == before
