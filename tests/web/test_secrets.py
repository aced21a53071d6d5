"""Hidden information on pages, JSON views and emails, checked with marker cards
(docs/rules-notes.md#what-is-secret).

The test ruleset ``markers`` is the classic deck with every one of its 40 cards
made a bearer kind of its own, coded ``mk00x`` … ``mk39x``: card *i* moves and
pushes exactly like card *i* of ``classic``, but its code names that one card,
so "is this card on the page?" becomes a substring search.

Games of 3 to 6 players are played through the services to many points; at each
one, every seat's page and JSON, the spectator's page and JSON, and every email
sent so far are searched for the codes their reader may not know:

* a seat: the deck, the discard pile and the other bidders' auction hands;
* the spectator: the deck, the discard pile and every auction hand;

less every card that has ever been face up (in a display, or the face-up card of
a three-bidder lot), since the history rightly names those and players may
remember what they saw go to the discard pile. Emails are searched against the
secrets at the version they were written for. Positive controls keep the search
honest: a bidder's own hand must be on their own page, and every display and
face-up card on the spectator's page.
"""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict

import pytest
from django.urls import NoReverseMatch, reverse

from games import engine
from games.engine import ruleset as ruleset_module
from games.models import ActionRecord, Game, Notification
from games.services import setup as setup_service
from games.services.game_state import load_state
from tests.api.helpers import api_tokens
from tests.factories import play_steps, started_game, tokens

pytestmark = pytest.mark.django_db


def marker_ruleset() -> engine.Ruleset:
    """The classic deck, card for card, with one bearer kind per card."""
    bearers = []
    for kind in engine.CLASSIC.bearers:  # worst first, so the removal default is unchanged
        for _ in range(kind.count):
            code = f"mk{len(bearers):02d}x"
            bearers.append(engine.BearerKind(code, move=kind.move, push=kind.push, count=1))
    return dataclasses.replace(engine.CLASSIC, name="markers", bearers=tuple(bearers))


MARKERS = marker_ruleset()
CODES = tuple(b.code for b in MARKERS.bearers)


@pytest.fixture
def markers(monkeypatch):
    """Register the marker ruleset for this test only, and make the seeds fixed so
    a failure replays exactly."""
    monkeypatch.setitem(ruleset_module.RULESETS, MARKERS.name, MARKERS)
    if engine.RULESETS is not ruleset_module.RULESETS:
        monkeypatch.setitem(engine.RULESETS, MARKERS.name, MARKERS)
    seeds = (f"{n:02x}" * 32 for n in range(7, 256))
    monkeypatch.setattr(setup_service, "new_seed", lambda: next(seeds))
    return MARKERS


# ---- what each reader may not know -----------------------------------------


class Log:
    """The game's log replayed step by step, remembering every card ever face up
    and every event type seen."""

    def __init__(self, game: Game):
        self.ruleset = engine.Ruleset.from_json(game.ruleset)
        colours = list(game.seats.order_by("position").values_list("colour", flat=True))
        self.state = engine.new_game(self.ruleset, colours)
        self.seq = 0
        self.public: set[int] = set()
        self.events: set[str] = set()

    def advance(self, game: Game, at_version) -> None:
        for record in ActionRecord.objects.filter(game=game, seq__gt=self.seq).order_by("seq"):
            assert record.seq == self.seq + 1, "the log has a gap"
            self.state = engine.apply(self.state, record.seat, engine.parse(record.action, self.ruleset))
            self.seq = record.seq
            for display in self.state.displays:
                self.public.update(card for card in display if card != engine.HOLE)
            if self.state.auction is not None:
                self.public.update(self.state.auction.face_up)
            self.events.update(event["type"] for event in record.events)
            at_version(record.seq, self.state)


def secret_cards(state: engine.State, public: set[int], viewer: int | None) -> set[int]:
    """Cards ``viewer`` (a seat, or None for the spectator) may not know now."""
    hidden = set(state.deck) | set(state.discard)
    if state.auction is not None:
        for bidder, hand in zip(state.auction.bidders, state.auction.hands, strict=True):
            if bidder != viewer:
                hidden.update(hand)
    return hidden - public


def own_hand(state: engine.State, seat: int) -> tuple[int, ...]:
    auction = state.auction
    if auction is None or seat not in auction.bidders:
        return ()
    return auction.hand_of(seat)


def codes(cards) -> set[str]:
    return {MARKERS.code_of(card) for card in cards}


def assert_not_shown(text: str, secret: set[str], where: str) -> None:
    leaked = sorted(code for code in secret if code in text)
    assert not leaked, f"{where} shows secret cards {leaked}"


def assert_shown(text: str, expected: set[str], where: str) -> None:
    missing = sorted(code for code in expected if code not in text)
    assert not missing, f"{where} does not show {missing}, which its reader may see"


def card_ids_in(value) -> set[int]:
    """Card ids anywhere in a JSON document (a card is a dict with id and code)."""
    found = set()
    if isinstance(value, dict):
        if set(value) >= {"id", "code"} and isinstance(value["id"], int):
            found.add(value["id"])
        for item in value.values():
            found |= card_ids_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids_in(item)
    return found


def optional_url(name: str, arg: str) -> str | None:
    try:
        return reverse(name, args=[arg])
    except NoReverseMatch:
        return None


# ---- playing, and looking at every point ------------------------------------


def chooser(state: engine.State, rng: random.Random) -> engine.Action:
    """Low bids and frequent passes, so auctions run long and lots get split;
    the second substitute auction after race 1 is passed by everyone (unsold)."""
    if engine.decision_kind(state) == "bid":
        auction = state.auction
        if auction.kind == "substitute_auction" and auction.number == 2 and len(state.results) == 1:
            return engine.Pass()
        if rng.random() < 0.4:
            return engine.Pass()
        lowest = 0 if auction.high_bid is None else auction.high_bid + 1
        return engine.Bid(min(state.gold[engine.to_move(state)], lowest + rng.randrange(4)))
    options = engine.legal_actions(state)
    return options[rng.randrange(len(options))]


def situation(state: engine.State) -> str:
    if state.auction is not None:
        auction = state.auction
        label = f"{auction.kind} k={len(auction.bidders)}"
        if any(not hand for hand in auction.hands):
            label += " after a discard"
        return label
    if state.phase == "race" and state.race.number == 1 and state.race.rolls == 0:
        return "race 1 before its first roll (last team placed)"
    return state.phase


class Watcher:
    """Checks every reader's view of one game at the points it is asked to."""

    def __init__(self, client, game: Game):
        self.client = client
        self.game = game
        self.log = Log(game)
        self.tokens = tokens(game)
        self.api_tokens = api_tokens(game)
        self.last_email = 0
        self.emails_checked = 0
        self.points = 0
        self.seen: set[str] = set()

    def check(self) -> None:
        game = self.game
        game.refresh_from_db()
        self._check_emails()
        state = load_state(game)
        assert engine.state_to_json(self.log.state) == game.state, "the log does not replay to the stored state"
        public = self.log.public
        self.points += 1
        self.seen.add(situation(state))
        if state.reshuffles:
            self.seen.add("after a reshuffle")

        for seat, token in self.tokens.items():
            where = f"seat {seat}'s page at version {game.version} ({situation(state)})"
            secret = secret_cards(state, public, seat)
            page = self.client.get(reverse("seat", args=[token]))
            assert page.status_code == 200
            html = page.content.decode()
            assert_not_shown(html, codes(secret), where)
            mine = codes(own_hand(state, seat))
            assert_shown(html, mine, where)  # positive control: the bidder sees their own cards
            json_url = optional_url("seat_json", token)
            if json_url:
                response = self.client.get(json_url)
                assert response.status_code == 200
                assert_not_shown(response.content.decode(), codes(secret), f"{where}, as JSON")
                assert_shown(response.content.decode(), mine, f"{where}, as JSON")
                assert not card_ids_in(response.json()) & secret, f"{where}, as JSON, names a secret card id"
            self._check_api(seat, secret, mine, where)

        where = f"the spectator page at version {game.version} ({situation(state)})"
        secret = secret_cards(state, public, None)
        html = self.client.get(reverse("spectator", args=[game.public_id])).content.decode()
        assert_not_shown(html, codes(secret), where)
        visible = [c for display in state.displays for c in display if c != engine.HOLE]
        if state.auction is not None:
            visible += list(state.auction.face_up)
        assert_shown(html, codes(visible), where)  # positive control: public cards do render
        json_url = optional_url("spectator_json", game.public_id)
        if json_url:
            response = self.client.get(json_url)
            assert_not_shown(response.content.decode(), codes(secret), f"{where}, as JSON")
            assert not card_ids_in(response.json()) & secret, f"{where}, as JSON, names a secret card id"
        for path in (f"/api/v1/games/{game.public_id}", f"/api/v1/games/{game.public_id}/history"):
            response = self.client.get(path)
            assert response.status_code == 200
            assert_not_shown(response.content.decode(), codes(secret), f"{where}, from the API")
            assert not card_ids_in(response.json()) & secret, f"{where}, from the API, names a secret card id"
            self._assert_no_link(response.content.decode(), None, f"{where}, from the API")
        verify = self.client.get(reverse("verify", args=[game.public_id])).content.decode()
        assert_not_shown(verify, codes(secret), "the verify page")

    def _check_api(self, seat: int, secret: set[int], mine: set[str], where: str) -> None:
        """The seat's view and history from the API, read with the seat's token."""
        for path in ("/api/v1/seat", "/api/v1/seat/history"):
            response = self.client.get(path, HTTP_AUTHORIZATION=f"Bearer {self.api_tokens[seat]}")
            assert response.status_code == 200
            text = response.content.decode()
            assert_not_shown(text, codes(secret), f"{where}, from the API {path}")
            assert not card_ids_in(response.json()) & secret, f"{where}, from the API {path}, names a secret card id"
            self._assert_no_link(text, seat, f"{where}, from the API {path}")
        assert_shown(
            self.client.get("/api/v1/seat", HTTP_AUTHORIZATION=f"Bearer {self.api_tokens[seat]}").content.decode(),
            mine,
            where,
        )

    def _assert_no_link(self, text: str, seat: int | None, where: str) -> None:
        """No seat's link and no API token, the reader's own included: an API
        answer is no place for a secret that opens a seat."""
        for position in self.tokens:
            assert self.tokens[position] not in text, f"{where} shows seat {position}'s link"
            assert self.api_tokens[position] not in text, f"{where} shows seat {position}'s API token"

    def _check_emails(self) -> None:
        """Each new email against the secrets of the version it was written at."""
        by_version = defaultdict(list)
        for note in (
            Notification.objects.filter(game=self.game, pk__gt=self.last_email).select_related("seat").order_by("pk")
        ):
            by_version[note.version].append(note)
            self.last_email = note.pk

        def at_version(version, state):
            for note in by_version.pop(version, ()):
                self._check_email(note, state)

        self.log.advance(self.game, at_version)
        # Invitations and the start email carry version 0: check them against
        # the earliest state this watcher saw, which is right after the start.
        for version, notes in by_version.items():
            assert version == 0 or version <= self.log.seq
            for note in notes:
                self._check_email(note, self.log.state)

    def _check_email(self, note: Notification, state: engine.State) -> None:
        secret = codes(secret_cards(state, self.log.public, note.seat.position))
        text = "\n".join([note.subject, note.body_text, note.body_html])
        assert_not_shown(text, secret, f"the {note.kind} email to seat {note.seat.position} (version {note.version})")
        self.emails_checked += 1


def play_watched(
    client, players: int, rng: random.Random, stop, *, auction_every=3, race_every=40, dense_races=1
) -> Watcher:
    """Play with ``chooser`` until ``stop(state)`` or the end, checking at the
    first decision of every auction, race and removal, and every few decisions
    within them; after ``dense_races`` races only those first decisions and the end."""
    game = started_game(players, ruleset="markers")
    watcher = Watcher(client, game)
    watcher.check()
    last_key, since = None, 0
    while game.status == Game.Status.RUNNING:
        state = load_state(game)
        if stop(state):
            break
        play_steps(game, 1, rng, choose=chooser)
        since += 1
        state = load_state(game)
        auction = state.auction
        key = (state.phase, len(state.results), auction and (auction.kind, auction.number))
        every = auction_every if auction is not None else race_every
        if len(state.results) >= dense_races and state.phase != "over":
            every = 10**9
        if key != last_key or since >= every:
            watcher.check()
            last_key, since = key, 0
    if since:
        watcher.check()
    return watcher


def in_race_two(state: engine.State) -> bool:
    return state.race is not None and state.race.number >= 2


# ---- the tests -------------------------------------------------------------


def test_the_marker_deck_plays_like_the_classic_deck_with_a_distinct_code_per_card():
    assert MARKERS.deck_size == engine.CLASSIC.deck_size == 40
    assert len(set(CODES)) == 40
    assert not [(a, b) for a in CODES for b in CODES if a != b and a in b]
    for card in range(40):
        mine, classic = MARKERS.kind_of(card), engine.CLASSIC.kind_of(card)
        assert (mine.move, mine.push) == (classic.move, classic.push)
    assert [MARKERS.rank_of(c) for c in range(40)] == sorted(MARKERS.rank_of(c) for c in range(40))


@pytest.mark.heavy
@pytest.mark.parametrize(
    "players, stop, expected",
    [
        pytest.param(3, lambda state: False, {"over", "removal"}, id="3 players to the end"),
        pytest.param(4, in_race_two, {"removal"}, id="4 players to race 2"),
        pytest.param(5, in_race_two, {"removal", "start_auction k=5 after a discard"}, id="5 players to race 2"),
        pytest.param(
            6,
            in_race_two,
            {"removal", "start_auction k=6 after a discard", "start_auction k=5 after a discard", "after a reshuffle"},
            id="6 players to race 2",
        ),
    ],
)
def test_no_page_json_view_or_email_shows_a_card_its_reader_may_not_know(
    client, markers, players, stop, expected, settings
):
    # The watcher reads every seat's API answers at every point, far faster than a client may.
    settings.API_REQUESTS_PER_MINUTE_PER_CLIENT = settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 10**6
    # The 3-player game is checked densely through race 1, then at the first
    # decision of every later auction, removal and race, and at the end.
    watcher = play_watched(client, players, random.Random(players), stop, dense_races=1 if players == 3 else 2)

    seen = watcher.seen
    starts = {f"start_auction k={k}" for k in range(2, players + 1)}
    assert starts <= {label.replace(" after a discard", "") for label in seen}
    assert f"substitute_auction k={players}" in {label.replace(" after a discard", "") for label in seen}
    assert "race 1 before its first roll (last team placed)" in seen
    assert "race" in seen
    assert expected <= seen, sorted(seen)
    # The chooser leaves the second lot after race 1 unsold: its cards stay secret.
    assert {"last_team", "refill", "remove", "unsold", "auction_won"} <= watcher.log.events
    if players >= 5:
        assert "discarded" in watcher.log.events
    assert watcher.points >= 10
    assert watcher.emails_checked == Notification.objects.filter(game=watcher.game).count()
