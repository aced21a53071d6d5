"""Action notation, the two kinds of "no", JSON, and what each seat may see.

docs/rules-notes.md#what-is-secret: a bidder's drawn cards are seen by
that bidder only until the lot is won; a face-up card is public; cards
discarded by passing bidders and the cards of an unsold lot stay secret; the
deck order and the discard pile's identities are secret from everyone.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import (
    CHANCE,
    CLASSIC,
    Arrange,
    Bid,
    Die,
    Draw,
    EngineError,
    IllegalAction,
    NotationError,
    Pass,
    Push,
    Remove,
    Roll,
    StartPlayer,
    apply,
    can_arrange,
    chance_outcomes,
    format_action,
    legal_actions,
    new_game,
    observe,
    parse,
    state_from_json,
    state_to_json,
    to_move,
)

from .scripting import new, play, racing

FOUR = ("red", "yellow", "green", "blue")
PLAIN_TEAMS = {
    "red": ["+1", "+2", "+3", "+5"],
    "yellow": ["+1", "+1", "+2", "+2"],
    "green": ["+3", "+3", "+2", "+2"],
}
# Race 1 of race_one_over_four_players() ends on red's roll of slot 1; these
# removals leave that card on red's display.
RED_BUYS_FIRST = "red: bid 5; yellow: pass; green: pass; blue: pass"
REMOVAL = "yellow: remove red:2 yellow:1 green:1 blue:1"


# --- helpers -----------------------------------------------------------------


def card_ids(view) -> set[int]:
    """Every card id anywhere in an observation: each {"id", "code"} dict is a card."""
    found: set[int] = set()

    def walk(node):
        if isinstance(node, dict):
            if set(node) == {"id", "code"}:
                found.add(node["id"])
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, (list, tuple)):
            for value in node:
                walk(value)

    walk(view)
    return found


def all_views(state) -> dict:
    """Every seat's observation, and the spectator's under the key None."""
    views = {seat: observe(state, seat) for seat in range(state.players)}
    views[None] = observe(state, None)
    return views


def deal(state):
    """Let chance deal every pending card (a fixed, varied choice of cards)."""
    while to_move(state) == CHANCE and state.draws:
        outcomes = chance_outcomes(state)
        state = apply(state, CHANCE, outcomes[len(outcomes) // 2])
    return state


def seat(state, colour: str) -> int:
    return state.colours.index(colour)


def assert_deck_and_discard_hidden(state) -> None:
    hidden = set(state.deck) | set(state.discard)
    for viewer, view in all_views(state).items():
        assert card_ids(view).isdisjoint(hidden), viewer
        assert view["deck_size"] == len(state.deck)
        assert view["discard_size"] == len(state.discard)


def snapshot(state):
    return state_from_json(json.loads(json.dumps(state_to_json(state))))


def assert_illegal_and_unchanged(state, who: int, action) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as raised:
        apply(state, who, action)
    assert not isinstance(raised.value, NotationError)
    assert state == before


def finished_game(players: int = 3, seed: int = 7):
    rng = random.Random(seed)
    state = new_game(CLASSIC, CLASSIC.colours[:players])
    for _ in range(20000):
        mover = to_move(state)
        if mover is None:
            return state
        state = apply(state, mover, rng.choice(legal_actions(state)))
    raise AssertionError("the random game did not end")


def race_one_over_four_players():
    """Red wins race 1 on +5s; yellow, green and blue goof into the pond (in that
    order), so yellow places last and must remove."""
    goofy = ["goof", "+1", "+2", "+3"]
    state = racing({"red": ["+5"] * 4, "yellow": goofy, "green": goofy, "blue": goofy})
    for _ in range(2):
        state = play(
            state,
            "red: roll; chance: die 1",
            "yellow: roll; chance: die 1",
            "green: roll; chance: die 1",
            "blue: roll; chance: die 1",
        )
    state = play(state, "red: roll; chance: die 1")
    assert state.phase == "removal" and state.last_placed == seat(state, "yellow")
    return state


def devil_push_after_red_finished():
    """Race 1, three players: red has finished, yellow rolled a Devil, green races."""
    state = racing(
        {"red": ["+5"] * 4, "yellow": ["devil", "+1", "+1", "+1"], "green": ["+1"] * 4}
    )
    for _ in range(2):
        state = play(
            state,
            "red: roll; chance: die 1",
            "yellow: roll; chance: die 2",
            "green: roll; chance: die 1",
        )
    state = play(state, "red: roll; chance: die 1", "yellow: roll; chance: die 1")
    assert state.race.status[seat(state, "red")] == "finished"
    assert to_move(state) == seat(state, "yellow") and state.race.awaiting == "push"
    return state


# --- notation ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, action",
    [
        ("bid 12", Bid(12)),
        ("bid 0", Bid(0)),
        ("pass", Pass()),
        ("roll", Roll()),
        ("push blue", Push("blue")),
        ("push none", Push(None)),
        ("remove red:3 green:4 blue:1", Remove((("red", 3), ("green", 4), ("blue", 1)))),
        ("arrange +5 +2 +3 goof", Arrange(("+5", "+2", "+3", "goof"))),
        ("arrange devil +1 goof +5", Arrange(("devil", "+1", "goof", "+5"))),
        ("start yellow", StartPlayer("yellow")),
        ("draw 17", Draw(17)),
        ("die 3", Die(3)),
    ],
)
def test_every_action_kind_reads_its_canonical_text_and_writes_it_back(text, action):
    assert parse(text) == action
    assert format_action(action) == text
    assert parse(format_action(action)) == action


def test_removals_are_normalised_to_the_rulesets_colour_order():
    action = parse("remove red:3 blue:1 green:4")
    assert action == Remove((("red", 3), ("green", 4), ("blue", 1)))
    assert format_action(action) == "remove red:3 green:4 blue:1"
    assert parse("remove blue:1 green:4 red:3") == action


@pytest.mark.parametrize(
    "text, codes",
    [
        ("arrange 5 2 3 -2", ("+5", "+2", "+3", "goof")),
        ("arrange +5 +2 +3 -2", ("+5", "+2", "+3", "goof")),
        ("arrange d g 1 +1", ("devil", "goof", "+1", "+1")),
        ("arrange devil goof 3 5", ("devil", "goof", "+3", "+5")),
        ("arrange D G Devil GOOF", ("devil", "goof", "devil", "goof")),
    ],
)
def test_arrange_accepts_numbers_and_letters_as_aliases_for_bearers(text, codes):
    action = parse(text)
    assert action == Arrange(codes)
    assert parse(format_action(action)) == action


@pytest.mark.parametrize(
    "text, action",
    [
        ("  BID   12  ", Bid(12)),
        ("\tPass\n", Pass()),
        ("Roll", Roll()),
        ("PUSH Blue", Push("blue")),
        ("push NONE", Push(None)),
        ("Remove RED:3   Blue:1 green:4", Remove((("red", 3), ("green", 4), ("blue", 1)))),
        ("  arrange   +5 +2\t+3   Goof ", Arrange(("+5", "+2", "+3", "goof"))),
    ],
)
def test_case_and_whitespace_do_not_matter(text, action):
    assert parse(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "bid",
        "bid -1",
        "bid 1.5",
        "bid twelve",
        "bid 12 13",
        "bid ١٢",
        "pass now",
        "roll 3",
        "push",
        "push purple",
        "remove",
        "remove red",
        "remove red:x",
        "remove red:-1",
        "remove red:1 red:2",
        "remove purple:1",
        "arrange",
        "arrange 7",
        "arrange +4",
        "arrange +",
        "fly",
        "draw x",
        "die",
        "bid " + "9" * 300,
        "pass" + " " * 300,
    ],
)
def test_text_that_is_not_an_action_is_a_notation_error(text):
    with pytest.raises(NotationError):
        parse(text)


@pytest.mark.parametrize("value", [None, 12, b"bid 12", ["bid", "12"], Bid(12)])
def test_something_that_is_not_text_is_a_notation_error(value):
    with pytest.raises(NotationError):
        parse(value)


def test_both_ways_of_saying_no_are_engine_errors_and_distinct():
    assert issubclass(NotationError, EngineError)
    assert issubclass(IllegalAction, EngineError)
    assert not issubclass(NotationError, IllegalAction)
    assert not issubclass(IllegalAction, NotationError)


@pytest.mark.parametrize(
    "text, subject",
    [("bid twelve", "a bid"), ("remove red:x", "a slot"), ("draw x", "a card"), ("die x", "a die face")],
)
def test_a_word_that_is_no_number_is_refused_in_one_whole_sentence_to_translate(text, subject):
    with pytest.raises(NotationError) as raised:
        parse(text)
    # The template itself names what had to be a number: a translator sees
    # the whole sentence, and only the word the player wrote is filled in.
    assert raised.value.template.startswith(subject + " must be a whole number")
    assert set(raised.value.values) == {"word"}


@pytest.mark.parametrize("text", ["pass now", "roll 3", "bid", "bid 12 13", "push"])
def test_a_wrong_number_of_words_is_refused_without_an_english_plural_glued_on(text):
    with pytest.raises(NotationError) as raised:
        parse(text)
    assert "(s)" not in raised.value.template
    assert set(raised.value.values) == {"verb"}


def test_an_engine_error_names_its_colours_in_the_readers_words_when_asked():
    with pytest.raises(NotationError) as raised:
        parse("push purple")
    assert str(raised.value) == "'purple' is not a colour (red, yellow, green, blue, white, black)"
    told = raised.value.translated(lambda template: template, colour_name=lambda code: code.upper())
    assert told == "'purple' is not a colour (RED, YELLOW, GREEN, BLUE, WHITE, BLACK)"


def test_format_action_refuses_what_is_not_an_action():
    with pytest.raises(TypeError):
        format_action("bid 12")


# --- illegal but well-formed actions -----------------------------------------------


def test_a_bid_above_the_bidders_gold_is_illegal_and_changes_nothing():
    state = deal(new(FOUR, start="red"))
    assert to_move(state) == seat(state, "red")
    assert_illegal_and_unchanged(state, seat(state, "red"), parse("bid 51"))
    # Bidding all one's gold is legal (the others cannot raise and drop out).
    assert apply(state, seat(state, "red"), parse("bid 50")).gold[seat(state, "red")] == 0


def test_a_bid_not_above_the_high_bid_is_illegal_and_changes_nothing():
    state = play(deal(new(FOUR, start="red")), "red: bid 5")
    yellow = seat(state, "yellow")
    assert to_move(state) == yellow
    assert_illegal_and_unchanged(state, yellow, Bid(5))
    assert_illegal_and_unchanged(state, yellow, Bid(4))
    assert_illegal_and_unchanged(state, yellow, Bid(0))
    assert apply(state, yellow, Bid(6)).auction.high_bid == 6


def test_pushing_a_chair_that_has_finished_is_illegal_and_changes_nothing():
    state = devil_push_after_red_finished()
    yellow = seat(state, "yellow")
    assert Push("red") not in legal_actions(state)
    assert_illegal_and_unchanged(state, yellow, parse("push red"))
    assert_illegal_and_unchanged(state, yellow, parse("push yellow"))
    assert apply(state, yellow, parse("push green")).race.positions[seat(state, "green")] == 0


def test_a_colour_that_is_not_in_the_game_is_illegal_and_changes_nothing():
    state = devil_push_after_red_finished()
    assert_illegal_and_unchanged(state, seat(state, "yellow"), parse("push black"))

    removal = race_one_over_four_players()
    yellow = seat(removal, "yellow")
    assert_illegal_and_unchanged(
        removal, yellow, parse("remove red:1 yellow:1 green:1 white:1")
    )
    assert_illegal_and_unchanged(
        removal, yellow, parse("remove red:1 yellow:1 green:1 blue:1 white:1")
    )


def test_a_removal_that_misses_a_display_or_a_slot_is_illegal_and_changes_nothing():
    state = race_one_over_four_players()
    yellow = seat(state, "yellow")
    assert_illegal_and_unchanged(state, yellow, parse("remove red:1 yellow:1 green:1"))
    assert_illegal_and_unchanged(state, yellow, parse("remove red:5 yellow:1 green:1 blue:1"))
    assert_illegal_and_unchanged(state, yellow, parse("remove red:0 yellow:1 green:1 blue:1"))
    assert apply(state, yellow, parse("remove red:1 yellow:1 green:1 blue:1")).phase == "refill"


def test_acting_out_of_turn_is_illegal_and_changes_nothing():
    state = deal(new(FOUR, start="red"))
    assert to_move(state) == seat(state, "red")
    assert_illegal_and_unchanged(state, seat(state, "yellow"), Bid(3))
    assert_illegal_and_unchanged(state, seat(state, "blue"), Pass())
    assert_illegal_and_unchanged(state, CHANCE, Draw(state.deck[0]))

    dealing = new(FOUR, start="red")
    assert to_move(dealing) == CHANCE
    assert_illegal_and_unchanged(dealing, seat(dealing, "red"), Pass())

    rolling = racing(PLAIN_TEAMS)
    assert_illegal_and_unchanged(rolling, seat(rolling, "yellow"), Roll())
    assert_illegal_and_unchanged(rolling, CHANCE, Die(1))
    assert_illegal_and_unchanged(rolling, seat(rolling, "red"), Bid(1))


def test_the_wrong_kind_of_action_or_chance_outcome_is_illegal_and_changes_nothing():
    state = deal(new(FOUR, start="red"))
    red = seat(state, "red")
    assert_illegal_and_unchanged(state, red, Roll())
    assert_illegal_and_unchanged(state, red, Push(None))

    rolled = play(racing(PLAIN_TEAMS), "red: roll")
    assert_illegal_and_unchanged(rolled, CHANCE, Die(5))
    assert_illegal_and_unchanged(rolled, CHANCE, Die(0))
    assert_illegal_and_unchanged(rolled, CHANCE, Draw(rolled.deck[0]))

    dealing = apply(new(FOUR, start="red"), CHANCE, Draw(9))
    not_in_deck = next(c for c in range(CLASSIC.deck_size) if c not in dealing.deck)
    assert_illegal_and_unchanged(dealing, CHANCE, Draw(not_in_deck))
    assert_illegal_and_unchanged(dealing, CHANCE, Die(1))


def test_arranging_outside_the_window_or_with_other_bearers_is_illegal_and_changes_nothing():
    rolling = racing(PLAIN_TEAMS)
    assert not can_arrange(rolling, 0)
    assert_illegal_and_unchanged(rolling, 0, parse("arrange 5 3 2 1"))

    state = play(deal(new(FOUR, start="red")), RED_BUYS_FIRST)
    red = seat(state, "red")
    assert can_arrange(state, red)
    codes = [CLASSIC.code_of(c) for c in state.displays[red]]
    wrong = ["+5" if code != "+5" else "+1" for code in codes]
    assert_illegal_and_unchanged(state, red, Arrange(tuple(wrong)))
    assert_illegal_and_unchanged(state, red, Arrange(tuple(codes[:3])))
    assert_illegal_and_unchanged(state, seat(state, "yellow"), Arrange(tuple(codes)))
    flipped = apply(state, red, Arrange(tuple(reversed(codes))))
    assert [CLASSIC.code_of(c) for c in flipped.displays[red]] == codes[::-1]


def test_no_action_of_anyone_is_legal_once_the_game_is_over():
    state = finished_game()
    assert state.phase == "over" and to_move(state) is None
    assert list(legal_actions(state)) == []
    for who in range(state.players):
        assert_illegal_and_unchanged(state, who, Pass())
        assert_illegal_and_unchanged(state, who, Roll())
        assert_illegal_and_unchanged(state, who, Bid(0))
        assert_illegal_and_unchanged(state, who, Push(None))
        codes = tuple(CLASSIC.code_of(c) for c in state.displays[who])
        assert_illegal_and_unchanged(state, who, Arrange(codes))
    assert_illegal_and_unchanged(state, CHANCE, Die(1))
    if state.deck:
        assert_illegal_and_unchanged(state, CHANCE, Draw(state.deck[0]))


# --- JSON ------------------------------------------------------------------


def interesting_states():
    four = new(FOUR, start="green")
    yield four
    yield deal(four)
    yield play(deal(four), "green: bid 3")
    yield deal(play(deal(new(FOUR, start="red")), RED_BUYS_FIRST))
    yield devil_push_after_red_finished()
    yield race_one_over_four_players()
    yield play(race_one_over_four_players(), REMOVAL)
    yield finished_game()


@pytest.mark.parametrize("index", range(8))
def test_a_state_survives_a_trip_through_json_text(index):
    state = list(interesting_states())[index]
    data = state_to_json(state)
    text = json.dumps(data)
    again = state_from_json(json.loads(text))
    assert again == state
    assert json.loads(json.dumps(state_to_json(again))) == json.loads(text)


@pytest.mark.parametrize("index", range(8))
def test_every_observation_is_plain_json_data(index):
    state = list(interesting_states())[index]
    for viewer, view in all_views(state).items():
        assert json.loads(json.dumps(view)) == view, viewer


# --- what each seat sees -------------------------------------------------------


def test_with_four_bidders_each_sees_only_their_own_card():
    state = deal(new(FOUR, start="red"))
    auction = state.auction
    assert auction.bidders == (0, 1, 2, 3)
    assert all(len(hand) == 1 for hand in auction.hands)
    views = all_views(state)
    for bidder in auction.bidders:
        own = set(auction.hand_of(bidder))
        assert card_ids(views[bidder]["auction"]["my_cards"]) == own
        for viewer, view in views.items():
            if viewer != bidder:
                assert card_ids(view).isdisjoint(own), (bidder, viewer)
    assert views[None]["auction"]["my_cards"] is None
    assert views[None]["auction"]["cards_held"] == {c: 1 for c in FOUR}
    assert_deck_and_discard_hidden(state)


def test_cards_are_secret_while_they_are_being_dealt():
    state = new(FOUR, start="red")
    for _ in range(2):
        state = apply(state, CHANCE, chance_outcomes(state)[5])
    assert state.draws  # still dealing
    red, yellow = seat(state, "red"), seat(state, "yellow")
    views = all_views(state)
    assert card_ids(views[red]["auction"]["my_cards"]) == set(state.auction.hand_of(red))
    for viewer in (yellow, 2, 3, None):
        assert card_ids(views[viewer]).isdisjoint(state.auction.hand_of(red))
    for viewer in (red, 2, 3, None):
        assert card_ids(views[viewer]).isdisjoint(state.auction.hand_of(yellow))


def test_with_three_bidders_the_face_up_card_is_seen_by_everyone_and_hands_by_their_owner():
    # Red buys the first lot of a four-player game; yellow opens the second, k = 3.
    state = deal(play(deal(new(FOUR, start="red")), RED_BUYS_FIRST))
    auction = state.auction
    assert auction.bidders == (1, 2, 3)
    assert len(auction.face_up) == 1
    face_up = auction.face_up[0]
    views = all_views(state)
    for viewer, view in views.items():
        assert [card["id"] for card in view["auction"]["face_up"]] == [face_up], viewer
    for bidder in auction.bidders:
        own = set(auction.hand_of(bidder))
        assert len(own) == 1
        assert card_ids(views[bidder]["auction"]["my_cards"]) == own
        for viewer, view in views.items():
            if viewer != bidder:
                assert card_ids(view).isdisjoint(own), (bidder, viewer)
    assert views[seat(state, "red")]["auction"]["my_cards"] is None
    assert_deck_and_discard_hidden(state)


def test_with_two_bidders_each_sees_their_own_two_cards_only():
    three = ("red", "yellow", "green")
    state = deal(play(deal(new(three, start="red")), "red: bid 2; yellow: pass; green: pass"))
    auction = state.auction
    assert auction.bidders == (1, 2)
    assert [len(hand) for hand in auction.hands] == [2, 2]
    views = all_views(state)
    for bidder in auction.bidders:
        own = set(auction.hand_of(bidder))
        assert card_ids(views[bidder]["auction"]["my_cards"]) == own
        for viewer, view in views.items():
            if viewer != bidder:
                assert card_ids(view).isdisjoint(own), (bidder, viewer)
    assert_deck_and_discard_hidden(state)


def test_once_the_lot_is_won_its_cards_are_in_the_winners_display_for_everyone():
    state = deal(play(deal(new(FOUR, start="red")), RED_BUYS_FIRST))
    # Second auction (k = 3): one face-up card and three secret hands.
    lot = state.auction.lot()
    state = play(state, "yellow: pass; green: bid 4; blue: pass")
    green = seat(state, "green")
    assert state.displays[green] == lot
    for viewer, view in all_views(state).items():
        shown = [card["id"] for card in view["players"][green]["display"]]
        assert shown == list(lot), viewer
        assert [card["code"] for card in view["players"][green]["display"]] == [
            CLASSIC.code_of(c) for c in lot
        ]
    assert_deck_and_discard_hidden(state)


@pytest.mark.parametrize("players", [5, 6])
def test_cards_discarded_by_passing_bidders_never_appear_in_any_observation(players):
    colours = CLASSIC.colours[:players]
    state = deal(new(colours, start="red"))
    auction = state.auction
    assert auction.discards_left == players - 4
    passers = auction.bidders[: players - 4]
    discarded = {c for s in passers for c in auction.hand_of(s)}
    kept = [c for s in auction.bidders[players - 4 :] for c in auction.hand_of(s)]
    assert len(discarded) == players - 4

    seen = []
    for passer in passers:
        state = apply(state, passer, Pass())
        seen.append(state)
    assert discarded <= set(state.discard)
    assert state.auction.discards_left == 0
    # The rest pass too: the last bidder takes the four kept cards for 0.
    for other in auction.bidders[players - 4 : -1]:
        state = apply(state, other, Pass())
        seen.append(state)
    winner = auction.bidders[-1]
    assert state.displays[winner] == tuple(kept)
    seen.append(state)
    # Play on by passing and dealing until the first roll of race 1.
    while state.phase != "race":
        mover = to_move(state)
        state = deal(state) if mover == CHANCE else apply(state, mover, Pass())
        seen.append(state)
    for later in seen:
        if discarded <= set(later.discard):
            for viewer, view in all_views(later).items():
                assert card_ids(view).isdisjoint(discarded), viewer
            assert_deck_and_discard_hidden(later)
    assert discarded <= set(state.discard)


def test_an_unsold_substitute_lot_never_appears_in_any_observation():
    state = play(race_one_over_four_players(), REMOVAL)
    state = deal(state)
    auction = state.auction
    assert auction.kind == "substitute_auction" and auction.bidders == (1, 2, 3, 0)
    lot = set(auction.lot())
    views = all_views(state)
    for bidder in auction.bidders:
        assert card_ids(views[bidder]["auction"]["my_cards"]) == set(auction.hand_of(bidder))
    assert card_ids(views[None]).isdisjoint(lot)

    state = play(state, "yellow: pass; green: pass; blue: pass")
    assert to_move(state) == seat(state, "red")  # the last bidder still decides
    state = play(state, "red: pass")
    assert lot <= set(state.discard)
    assert all(not set(display) & lot for display in state.displays)
    later = [state]
    while state.phase != "race":
        mover = to_move(state)
        state = deal(state) if mover == CHANCE else apply(state, mover, Pass())
        later.append(state)
    for each in later:
        assert lot <= set(each.discard)
        for viewer, view in all_views(each).items():
            assert card_ids(view).isdisjoint(lot), viewer
        assert_deck_and_discard_hidden(each)


def test_observations_show_the_deck_and_discard_pile_only_as_sizes():
    for state in interesting_states():
        assert_deck_and_discard_hidden(state)
        view = observe(state, None)
        assert "deck" not in view and "discard" not in view


def test_a_rolled_card_that_the_removal_sends_to_the_discard_pile_is_no_longer_shown():
    # docs/rules-notes.md#what-is-secret: which cards lie on the discard pile
    # is secret from everyone (players may remember what they saw go in; the
    # view may not show it).
    state = race_one_over_four_players()
    red = seat(state, "red")
    rolled = state.race.last_roll
    assert rolled[:2] == (red, 1)
    card = rolled[2]
    state = play(state, "yellow: remove red:1 yellow:1 green:1 blue:1")
    assert card in state.discard
    for viewer, view in all_views(state).items():
        assert card not in card_ids(view), viewer
