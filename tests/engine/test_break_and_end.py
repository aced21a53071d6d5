"""The break between races (removal, refill, the next race), the defaults a
deadline applies (docs/rules-notes.md#defaults-when-a-deadline-passes), and the
end of the game after race 6.

Every expected value below is worked out by hand from the rules as the rules
page states them (templates/public/rules.html) and docs/rules-notes.md reads
them. Classic card ids: goof 0-5, +1 6-13, +2 14-21, devil 22-27, +3 28-35, +5 36-39; the
``racing`` helper hands out the lowest free id of each code, colour by colour.
"""

import pytest

from games.engine import (
    CHANCE,
    IllegalAction,
    NotationError,
    Pass,
    Push,
    Remove,
    Roll,
    apply,
    decision_kind,
    default_action,
    legal_actions,
    standings,
    to_move,
)
from tests.engine.scripting import do, racing, rounds, run

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
HOLE = -1



# Race 1, start player red. Card ids: red (14, 0, 28, 36), yellow (22, 6, 1, 37),
# green (7, 29, 15, 30), blue (23, 38, 31, 39); the deck holds the other 24.
BREAK_DISPLAYS = {
    "red": ["+2", "goof", "+3", "+5"],
    "yellow": ["devil", "+1", "goof", "+5"],
    "green": ["+1", "+3", "+2", "+3"],
    "blue": ["devil", "+5", "+3", "+5"],
}
BREAK_DECK = (2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19, 20, 21, 24, 25, 26, 27, 32, 33, 34, 35)


def after_race_one():
    """Red and blue finish, then green; yellow falls into the pond: yellow is last."""
    state = racing(BREAK_DISPLAYS, start="red")
    assert state.displays == ((14, 0, 28, 36), (22, 6, 1, 37), (7, 29, 15, 30), (23, 38, 31, 39))
    assert state.deck == BREAK_DECK
    return run(
        state,
        "red 4", "yellow 3", "green 2", "blue 2",  # 5, -2, 3, 5
        "red 4", "yellow 3", "green 2", "blue 4",  # 10, pond, 6, 10
        "red 4", "green 2", "blue 2",  # 15 (1st), 9, 15 (2nd)
        "green 4", "green 2",  # 12, 15 (3rd)
    )


def test_after_race_one_the_last_placed_player_must_remove():
    state = after_race_one()
    result = state.results[-1]
    assert result.ranking == (RED, BLUE, GREEN, YELLOW)
    assert result.prizes == (20, 10, 5, 0)
    assert state.gold == (70, 50, 55, 60)
    assert state.phase == "removal"
    assert state.last_placed == YELLOW
    assert (to_move(state), decision_kind(state)) == (YELLOW, "remove")
    # One slot of four for each of the four displays.
    assert len(legal_actions(state)) == 4**4


def test_removal_takes_the_named_card_from_every_display_to_the_discard_pile():
    state = run(after_race_one(), "yellow: remove red:1 yellow:2 green:3 blue:4")
    assert state.displays == (
        (HOLE, 0, 28, 36),
        (22, HOLE, 1, 37),
        (7, 29, HOLE, 30),
        (23, 38, 31, HOLE),
    )
    assert state.discard == (6, 14, 15, 39)
    assert state.deck == BREAK_DECK
    assert state.phase == "refill"
    assert (to_move(state), decision_kind(state)) == (CHANCE, "chance")


def test_the_order_the_removal_names_the_displays_in_does_not_matter():
    one = run(after_race_one(), "yellow: remove red:1 yellow:2 green:3 blue:4")
    other = run(after_race_one(), "yellow: remove blue:4 green:3 red:1 yellow:2")
    assert one == other


def test_refill_starts_with_the_last_placed_player_and_goes_clockwise_into_the_emptied_slots():
    state = run(after_race_one(), "yellow: remove red:1 yellow:2 green:3 blue:4")
    state = run(state, "chance: draw 2")
    assert state.displays == ((HOLE, 0, 28, 36), (22, 2, 1, 37), (7, 29, HOLE, 30), (23, 38, 31, HOLE))
    assert to_move(state) == CHANCE
    state = run(state, "chance: draw 8")
    assert state.displays == ((HOLE, 0, 28, 36), (22, 2, 1, 37), (7, 29, 8, 30), (23, 38, 31, HOLE))
    state = run(state, "chance: draw 16")
    assert state.displays == ((HOLE, 0, 28, 36), (22, 2, 1, 37), (7, 29, 8, 30), (23, 38, 31, 16))
    state = run(state, "chance: draw 24")
    assert state.displays == ((24, 0, 28, 36), (22, 2, 1, 37), (7, 29, 8, 30), (23, 38, 31, 16))
    assert len(state.deck) == 20
    assert state.discard == (6, 14, 15, 39)
    # The first substitute auction follows, opened by the last-placed player.
    assert state.phase == "substitute_auction"
    assert state.auction.bidders == (YELLOW, GREEN, BLUE, RED)


def test_refill_from_an_empty_deck_shuffles_the_discard_pile_with_the_removed_cards():
    state = racing(BREAK_DISPLAYS, start="red")
    # Only cards 2 and 3 are left in the deck; the other 22 were discarded.
    state = state._replace(deck=(2, 3), discard=BREAK_DECK[2:])
    state = run(
        state,
        "red 4", "yellow 3", "green 2", "blue 2",
        "red 4", "yellow 3", "green 2", "blue 4",
        "red 4", "green 2", "blue 2",
        "green 4", "green 2",
        "yellow: remove red:1 yellow:2 green:3 blue:4",
    )
    assert state.deck == (2, 3)
    assert state.discard == tuple(sorted(BREAK_DECK[2:] + (6, 14, 15, 39)))
    state = run(state, "chance: draw 2", "chance: draw 3")
    # The deck ran out with two draws to go: the whole discard pile, the
    # removed cards included, is the new deck.
    assert state.deck == tuple(sorted(BREAK_DECK[2:] + (6, 14, 15, 39)))
    assert state.discard == ()
    assert state.reshuffles == 1
    state = run(state, "chance: draw 6", "chance: draw 14")
    assert state.displays == ((14, 0, 28, 36), (22, 2, 1, 37), (7, 29, 3, 30), (23, 38, 31, 6))
    assert len(state.deck) == 24


def test_after_the_break_race_two_is_begun_by_the_seat_after_the_start_player_from_start():
    state = run(
        after_race_one(),
        "yellow: remove red:1 yellow:2 green:3 blue:4",
        "chance: draw 2", "chance: draw 8", "chance: draw 16", "chance: draw 24",
        # First substitute auction, yellow opens: nobody buys.
        "chance: draw 3", "chance: draw 4", "chance: draw 5", "chance: draw 9",
        "yellow: pass", "green: pass", "blue: pass", "red: pass",
    )
    assert state.phase == "substitute_auction"
    # The second is opened by the seat after the last-placed player.
    assert state.auction.bidders == (GREEN, BLUE, RED, YELLOW)
    state = run(
        state,
        "chance: draw 10", "chance: draw 11", "chance: draw 12", "chance: draw 13",
        "green: pass", "blue: pass", "red: pass", "yellow: pass",
    )
    assert state.phase == "race"
    assert state.race.number == 2
    assert state.race.first == YELLOW
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")
    assert state.race.positions == (0, 0, 0, 0)
    assert state.race.status == ("racing",) * 4
    assert state.race.arrivals == ()
    assert state.race.rolls == 0
    assert state.displays == ((24, 0, 28, 36), (22, 2, 1, 37), (7, 29, 8, 30), (23, 38, 31, 16))
    assert state.discard == (3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 39)
    assert state.deck == (17, 18, 19, 20, 21, 25, 26, 27, 32, 33, 34, 35)
    assert state.gold == (70, 50, 55, 60)
    assert len(state.results) == 1


@pytest.mark.parametrize(
    "line, error",
    [
        ("yellow: remove red:1 yellow:2 green:3", IllegalAction),  # blue's display missing
        ("yellow: remove red:0 yellow:2 green:3 blue:4", IllegalAction),
        ("yellow: remove red:5 yellow:2 green:3 blue:4", IllegalAction),
        ("yellow: remove red:1 yellow:2 green:3 purple:4", NotationError),
        ("yellow: remove red:1 yellow:2 green:3 white:4", IllegalAction),  # no white chair here
        ("yellow: remove red:1 yellow:2 green:3 blue:4 white:1", IllegalAction),
        ("yellow: remove red:1 yellow:2 green:3 blue:4 red:2", NotationError),
        ("yellow: remove red yellow green blue", NotationError),
        ("red: remove red:1 yellow:2 green:3 blue:4", IllegalAction),  # not red's decision
    ],
    ids=["missing-display", "slot-0", "slot-5", "unknown-colour", "colour-not-playing",
         "extra-colour", "display-twice", "no-slots", "not-last-placed"],
)
def test_an_illegal_removal_raises_and_changes_nothing(line, error):
    state = after_race_one()
    before = state
    with pytest.raises(error):
        do(state, line)
    assert state == before
    assert (to_move(state), decision_kind(state)) == (YELLOW, "remove")


def test_after_race_five_there_is_still_a_break():
    # Race 5, start player red: yellow begins (turn order yellow, green, red).
    state = racing(
        {"red": ["+5"] * 4, "yellow": ["goof"] * 4, "green": ["goof", "goof", "+1", "+1"]},
        race=5,
    )
    assert to_move(state) == YELLOW
    state = run(state, *rounds(2, "yellow 1", "green 1", "red 1"))
    assert state.race.status == ("racing", "pond", "pond")
    assert state.race.positions[RED] == 10
    state = run(state, *rounds(3, "red 1"))
    assert state.phase == "race"
    assert state.race.positions[RED] == 25
    state = run(state, "red 1")  # 30, past 27
    result = state.results[-1]
    assert (result.number, result.ranking, result.prizes) == (5, (RED, GREEN, YELLOW), (36, 0, 0))
    assert state.gold == (86, 50, 50)
    assert state.phase == "removal"
    assert (to_move(state), decision_kind(state)) == (YELLOW, "remove")


# --- defaults ---------------------------------------------------------------


def test_the_default_for_a_roll_is_to_roll():
    state = racing(BREAK_DISPLAYS)
    assert default_action(state) == Roll()
    state = run(state, "red: roll")
    assert default_action(state) is None  # chance is to move, not a seat


def test_the_default_for_a_bid_is_to_pass():
    state = run(
        after_race_one(),
        "yellow: remove red:1 yellow:2 green:3 blue:4",
        "chance: draw 2", "chance: draw 8", "chance: draw 16", "chance: draw 24",
        "chance: draw 3", "chance: draw 4", "chance: draw 5", "chance: draw 9",
    )
    assert (to_move(state), decision_kind(state)) == (YELLOW, "bid")
    assert default_action(state) == Pass()


def test_the_default_push_is_the_racing_chair_furthest_ahead():
    state = racing(
        {"red": ["+1", "devil", "+1", "+1"], "yellow": ["+1"] * 4, "green": ["+3"] * 4, "blue": ["+2"] * 4}
    )
    state = run(state, "red 1", "yellow 1", "green 1", "blue 1", "red 2")
    assert state.race.positions == (3, 1, 3, 2)
    assert (to_move(state), decision_kind(state)) == (RED, "push")
    assert default_action(state) == Push("green")
    state = apply(state, RED, default_action(state))
    assert state.race.positions == (3, 1, 1, 2)
    assert to_move(state) == YELLOW


def test_the_default_push_passes_over_finished_chairs_and_breaks_ties_clockwise_from_the_pusher():
    state = racing(
        {"red": ["+5"] * 4, "yellow": ["+2"] * 4, "green": ["+1", "devil", "+1", "+1"], "blue": ["+3"] * 4}
    )
    state = run(
        state,
        *rounds(2, "red 1", "yellow 1", "green 1", "blue 1"),
        "red 1", "yellow 1", "green 2",
    )
    # Red finished on 15; yellow and blue share 6; clockwise from green blue comes first.
    assert state.race.positions == (15, 6, 4, 6)
    assert state.race.status == ("finished", "racing", "racing", "racing")
    assert (to_move(state), decision_kind(state)) == (GREEN, "push")
    assert default_action(state) == Push("blue")
    state = apply(state, GREEN, default_action(state))
    assert state.race.positions == (15, 6, 4, 4)
    assert to_move(state) == BLUE


def test_the_default_removal_takes_each_opponents_best_card_and_the_removers_worst():
    state = after_race_one()
    # Yellow (devil, +1, goof, +5) loses its goof; red its +5 in slot 4; green and
    # blue their best, each held twice: the lower slot, 2.
    expected = Remove((("red", 4), ("yellow", 3), ("green", 2), ("blue", 2)))
    assert default_action(state) == expected
    state = apply(state, YELLOW, expected)
    assert state.discard == (1, 29, 36, 38)
    assert state.displays == ((14, 0, 28, HOLE), (22, 6, HOLE, 37), (7, HOLE, 15, 30), (23, HOLE, 31, 39))


def test_the_default_removal_ranks_devil_above_plus_two_and_below_plus_three():
    # Race 1, start red. Red moves by +3; yellow and green by their Devils,
    # never pushing; yellow rolls before green and so arrives first.
    state = racing(
        {
            "red": ["+2", "+1", "+3", "devil"],
            "yellow": ["+1", "devil", "+2", "devil"],
            "green": ["devil", "+3", "devil", "+3"],
        }
    )
    yellow = ("yellow 2", "yellow: push none")
    green = ("green 1", "green: push none")
    state = run(state, *rounds(5, "red 3", *yellow, *green))
    assert state.race.positions == (15, 10, 10)
    assert state.race.arrivals == (RED,)
    state = run(state, *rounds(2, *yellow, *green), *yellow)
    assert state.race.arrivals == (RED, YELLOW)
    state = run(state, "green 1")  # nobody else racing: no push question
    result = state.results[-1]
    assert result.ranking == (RED, YELLOW, GREEN)
    assert state.gold == (70, 60, 55)
    assert (to_move(state), decision_kind(state)) == (GREEN, "remove")
    assert default_action(state) == Remove((("red", 3), ("yellow", 2), ("green", 1)))


# --- the end ----------------------------------------------------------------

# Race 6 with start player red is begun by green (five seats on, of three);
# turn order green, red, yellow. Yellow arrives first, then green, then red.
END_DISPLAYS = {"red": ["+2"] * 4, "yellow": ["+5"] * 4, "green": ["+3"] * 4}


def race_six(gold):
    state = racing(END_DISPLAYS, start="red", race=6, gold=gold)
    assert to_move(state) == GREEN
    state = run(state, *rounds(6, "green 1", "red 1", "yellow 1"))
    assert state.race.positions == (12, 30, 18)
    assert state.race.arrivals == (YELLOW,)
    state = run(state, *rounds(3, "green 1", "red 1"), "green 1")
    assert state.race.positions == (18, 30, 30)
    assert state.race.arrivals == (YELLOW, GREEN)
    state = run(state, *rounds(5, "red 1"))
    assert state.phase == "race"
    assert (to_move(state), state.race.positions[RED]) == (RED, 28)
    return run(state, "red 1")


def test_after_race_six_the_game_is_over_without_removal_refill_or_auction():
    start = racing(END_DISPLAYS, start="red", race=6)
    state = race_six({"red": 50, "yellow": 50, "green": 50})
    result = state.results[-1]
    assert (result.number, result.ranking, result.prizes, result.pond) == (6, (YELLOW, GREEN, RED), (40, 20, 10), ())
    assert state.gold == (60, 90, 70)
    assert state.phase == "over"
    assert to_move(state) is None
    assert decision_kind(state) is None
    assert legal_actions(state) == []
    assert default_action(state) is None
    assert state.displays == start.displays
    assert state.deck == start.deck
    assert state.discard == ()
    assert state.draws == ()
    assert state.auction is None
    assert standings(state) == [YELLOW, GREEN, RED]
    before = state
    with pytest.raises(IllegalAction):
        do(state, "red: roll")
    assert state == before


def test_standings_put_the_most_gold_first():
    state = race_six({"red": 75, "yellow": 30, "green": 60})
    assert state.gold == (85, 70, 80)
    assert standings(state) == [RED, GREEN, YELLOW]


def test_standings_break_ties_by_the_better_place_in_race_six():
    state = race_six({"red": 60, "yellow": 30, "green": 50})
    assert state.gold == (70, 70, 70)
    assert standings(state) == [YELLOW, GREEN, RED]
