"""Races (docs/rules-notes.md#races): turn order, moving, the Devil's
push, the pond, finishing, the roll cap, ranking and prizes.

Every expected value below is worked out by hand from the rules as the rules
page states them (templates/public/rules.html) and docs/rules-notes.md reads
them. Classic card ids: goof 0-5, +1 6-13, +2 14-21, devil 22-27, +3 28-35, +5 36-39. Finish
spaces 15, 18, 21, 24, 27, 30; prizes 20/10/5, 24/12/6, 28/14/7, ...
"""

import dataclasses

import pytest

from games.engine import CHANCE, CLASSIC, IllegalAction, Push, decision_kind, landing, legal_actions, to_move
from tests.engine.scripting import do, racing, rounds, run

RED, YELLOW, GREEN, BLUE, WHITE = 0, 1, 2, 3, 4



# --- who begins, who moves next -------------------------------------------


@pytest.mark.parametrize(
    "race_number, first",
    [(1, GREEN), (2, BLUE), (3, WHITE), (4, RED), (5, YELLOW), (6, GREEN)],
)
def test_race_r_is_begun_by_the_seat_r_minus_one_places_clockwise_of_the_start_player(
    race_number, first
):
    displays = {c: ["+1", "+2"] + ["+3", "goof"] for c in ("red", "yellow", "green", "blue", "white")}
    state = racing(displays, start="green", race=race_number)
    assert state.race.number == race_number
    assert state.race.first == first
    assert to_move(state) == first
    assert decision_kind(state) == "roll"
    assert state.race.positions == (0, 0, 0, 0, 0)
    assert state.race.rolls == 0


def test_after_each_turn_play_passes_to_the_next_seat_clockwise():
    standard = ["+1", "+2", "+3", "+5"]
    state = racing({c: standard for c in ("red", "yellow", "green", "blue")}, start="red")
    assert to_move(state) == RED
    state = run(state, "red: roll")
    assert to_move(state) == CHANCE
    assert decision_kind(state) == "chance"
    state = run(state, "chance: die 1")
    assert state.race.positions == (1, 0, 0, 0)
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")
    state = run(state, "yellow 2")
    assert state.race.positions == (1, 2, 0, 0)
    assert to_move(state) == GREEN
    state = run(state, "green 3")
    assert state.race.positions == (1, 2, 3, 0)
    assert to_move(state) == BLUE
    state = run(state, "blue 4")
    assert state.race.positions == (1, 2, 3, 5)
    assert (to_move(state), decision_kind(state)) == (RED, "roll")
    assert state.race.rolls == 4


def test_turn_order_wraps_from_the_last_seat_to_seat_zero():
    state = racing(
        {"red": ["+1"] * 4, "yellow": ["+2"] * 4, "green": ["+3"] * 4}, start="green"
    )
    assert to_move(state) == GREEN
    state = run(state, "green 1")
    assert state.race.positions == (0, 0, 3)
    assert to_move(state) == RED


def test_a_roll_out_of_turn_is_illegal_and_changes_nothing():
    state = racing({"red": ["+1"] * 4, "yellow": ["+2"] * 4, "green": ["+3"] * 4})
    before = state
    with pytest.raises(IllegalAction):
        do(state, "yellow: roll")
    assert state == before
    assert to_move(state) == RED


def test_a_finished_chair_takes_no_more_turns():
    state = racing({"red": ["+5"] * 4, "yellow": ["+1"] * 4, "green": ["+1"] * 4})
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 1"), "red 1")
    assert state.race.positions == (15, 2, 2)
    assert state.race.status == ("finished", "racing", "racing")
    assert state.race.arrivals == (RED,)
    assert to_move(state) == YELLOW
    state = run(state, "yellow 1")
    assert to_move(state) == GREEN
    state = run(state, "green 1")
    # Red is skipped: yellow again.
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")
    assert state.race.positions == (15, 3, 3)
    before = state
    with pytest.raises(IllegalAction):
        do(state, "red: roll")
    assert state == before


def test_a_pond_chair_takes_no_more_turns():
    state = racing({"red": ["goof"] * 4, "yellow": ["+1"] * 4, "green": ["+1"] * 4})
    state = run(state, "red 1", "yellow 1", "green 1", "red 2")
    assert state.race.status == ("pond", "racing", "racing")
    assert state.race.fallen == (RED,)
    assert to_move(state) == YELLOW
    state = run(state, "yellow 1", "green 1")
    assert state.race.positions[1:] == (2, 2)
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")
    assert state.phase == "race"


def test_a_chair_left_racing_alone_keeps_taking_turns():
    state = racing({"red": ["+5"] * 4, "yellow": ["goof"] * 4, "green": ["+1"] * 4})
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 1"), "red 1")
    # Red finished, yellow fell in (from -2) on its second roll: green is alone.
    assert state.race.status == ("finished", "pond", "racing")
    assert to_move(state) == GREEN
    state = run(state, "green 1")
    assert (to_move(state), decision_kind(state)) == (GREEN, "roll")
    state = run(state, "green 2")
    assert (to_move(state), decision_kind(state)) == (GREEN, "roll")
    assert state.race.positions[GREEN] == 4
    assert state.race.rolls == 9
    assert state.phase == "race"


# --- moving -----------------------------------------------------------------


@pytest.mark.parametrize("face, space", [(1, 1), (2, 2), (3, 3), (4, 5)])
def test_plus_cards_move_the_own_chair_forward_by_their_number(face, space):
    standard = ["+1", "+2", "+3", "+5"]
    state = racing({c: standard for c in ("red", "yellow", "green")})
    state = run(state, f"red {face}")
    assert state.race.positions == (space, 0, 0)
    assert state.race.status == ("racing",) * 3
    assert state.race.last_roll == (RED, face, [6, 14, 28, 36][face - 1])
    assert to_move(state) == YELLOW


def test_goof_from_start_ends_on_minus_two_still_racing():
    state = racing({"red": ["goof", "+1", "+1", "+1"], "yellow": ["+2"] * 4, "green": ["+3"] * 4})
    state = run(state, "red 1")
    assert state.race.positions == (-2, 0, 0)
    assert state.race.status == ("racing", "racing", "racing")
    assert state.race.fallen == ()
    assert to_move(state) == YELLOW


def test_goof_from_minus_one_falls_into_the_pond():
    state = racing({"red": ["+1", "goof", "+1", "+1"], "yellow": ["+2"] * 4, "green": ["+3"] * 4})
    state = run(state, "red 1", "yellow 1", "green 1", "red 2", "yellow 1", "green 1")
    assert state.race.positions == (-1, 4, 6)
    assert state.race.status == ("racing",) * 3
    state = run(state, "red 2")
    assert state.race.status == ("pond", "racing", "racing")
    assert state.race.positions[RED] < -2
    assert state.race.fallen == (RED,)
    assert state.race.positions[1:] == (4, 6)
    assert to_move(state) == YELLOW


def test_a_pond_space_catches_a_chair_moving_back_onto_it_but_not_one_moving_forward():
    # classic names no pond space on the track; a ruleset may.
    ruleset = dataclasses.replace(CLASSIC, name="pond-on-3", pond_spaces=(3,))
    state = racing(
        {"red": ["+5", "goof", "+1", "+1"], "yellow": ["+3"] * 4, "green": ["+1"] * 4}, ruleset=ruleset
    )
    state = run(state, "red 1", "yellow 1", "green 1")
    assert state.race.positions == (5, 3, 1)
    assert state.race.status == ("racing",) * 3
    state = run(state, "red 2")  # 5 - 2 = 3, backwards onto the pond space
    assert state.race.status == ("pond", "racing", "racing")
    assert state.race.fallen == (RED,)
    assert to_move(state) == YELLOW


def test_goof_from_minus_two_falls_into_the_pond():
    state = racing({"red": ["goof"] * 4, "yellow": ["+2"] * 4, "green": ["+3"] * 4})
    state = run(state, "red 1", "yellow 1", "green 1")
    assert state.race.positions == (-2, 2, 3)
    state = run(state, "red 3")
    assert state.race.status == ("pond", "racing", "racing")
    assert state.race.positions[RED] < -2
    assert to_move(state) == YELLOW


def test_landing_tells_where_a_move_ends_as_the_race_moves_chairs():
    # What pages show before a move is made; finish 18 in race 2.
    assert landing(CLASSIC, 2, 16, 3) == (18, "finished")
    assert landing(CLASSIC, 2, 15, 3) == (18, "finished")
    assert landing(CLASSIC, 2, 14, 3) == (17, "racing")
    assert landing(CLASSIC, 1, 14, 3) == (15, "finished")
    assert landing(CLASSIC, 1, 0, -2) == (-2, "racing")
    assert landing(CLASSIC, 1, -1, -2) == (-3, "pond")
    pond_on_3 = dataclasses.replace(CLASSIC, name="pond-on-3", pond_spaces=(3,))
    assert landing(pond_on_3, 1, 5, -2) == (3, "pond")
    assert landing(pond_on_3, 1, 1, 2) == (3, "racing")


# --- the Devil ----------------------------------------------------------------

DEVIL_FIRST = {"red": ["devil", "+1", "+1", "+1"], "yellow": ["+3"] * 4, "green": ["+1"] * 4}


def test_devil_moves_the_own_chair_forward_two_then_asks_whom_to_push():
    state = run(racing(DEVIL_FIRST), "red 1")
    assert state.race.positions == (2, 0, 0)
    assert (to_move(state), decision_kind(state)) == (RED, "push")
    assert legal_actions(state) == [Push("yellow"), Push("green"), Push(None)]
    assert state.race.rolls == 1


def test_a_push_from_start_ends_on_minus_two_still_racing():
    state = run(racing(DEVIL_FIRST), "red 1", "red: push yellow")
    assert state.race.positions == (2, -2, 0)
    assert state.race.status == ("racing",) * 3
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")


def test_declining_the_push_moves_no_other_chair():
    state = run(racing(DEVIL_FIRST), "red 1", "red: push none")
    assert state.race.positions == (2, 0, 0)
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")


def test_a_push_moves_the_chosen_chair_back_exactly_two():
    state = run(racing(DEVIL_FIRST), "red 2", "yellow 1", "green 1")
    assert state.race.positions == (1, 3, 1)
    state = run(state, "red 1", "red: push yellow")
    assert state.race.positions == (3, 1, 1)
    assert state.race.rolls == 4
    assert to_move(state) == YELLOW


POND_PUSH = {"red": ["devil", "+1", "+1", "+1"], "yellow": ["+3"] * 4, "green": ["goof", "+1", "+1", "+1"]}


def test_a_push_can_send_a_chair_into_the_pond():
    state = run(racing(POND_PUSH), "red 2", "yellow 1", "green 1")
    assert state.race.positions == (1, 3, -2)
    state = run(state, "red 1", "red: push green")
    assert state.race.status == ("racing", "racing", "pond")
    assert state.race.positions[:2] == (3, 3)
    assert state.race.positions[GREEN] < -2
    assert state.race.fallen == (GREEN,)
    assert to_move(state) == YELLOW
    state = run(state, "yellow 1")
    assert to_move(state) == RED  # green is skipped


def test_pushing_a_pond_chair_is_illegal_and_changes_nothing():
    state = run(
        racing(POND_PUSH), "red 2", "yellow 1", "green 1", "red 1", "red: push green", "yellow 1", "red 1"
    )
    assert state.race.positions[:2] == (5, 6)
    assert (to_move(state), decision_kind(state)) == (RED, "push")
    assert legal_actions(state) == [Push("yellow"), Push(None)]
    before = state
    with pytest.raises(IllegalAction):
        do(state, "red: push green")
    assert state == before


FINISHED_PUSH = {"red": ["+5"] * 4, "yellow": ["devil", "+1", "+1", "+1"], "green": ["+1"] * 4}


def _yellow_pushing_after_red_finished():
    state = run(racing(FINISHED_PUSH), *rounds(2, "red 1", "yellow 2", "green 1"), "red 1", "yellow 1")
    assert state.race.positions == (15, 4, 2)
    assert state.race.status == ("finished", "racing", "racing")
    assert (to_move(state), decision_kind(state)) == (YELLOW, "push")
    return state


def test_pushing_a_finished_chair_is_illegal_and_changes_nothing():
    state = _yellow_pushing_after_red_finished()
    assert legal_actions(state) == [Push("green"), Push(None)]
    before = state
    with pytest.raises(IllegalAction):
        do(state, "yellow: push red")
    assert state == before
    state = run(state, "yellow: push green")
    assert state.race.positions == (15, 4, 0)


def test_pushing_ones_own_chair_is_illegal_and_changes_nothing():
    state = _yellow_pushing_after_red_finished()
    before = state
    with pytest.raises(IllegalAction):
        do(state, "yellow: push yellow")
    assert state == before
    assert (to_move(state), decision_kind(state)) == (YELLOW, "push")


def test_pushing_a_colour_not_in_the_game_is_illegal_and_changes_nothing():
    state = _yellow_pushing_after_red_finished()
    before = state
    with pytest.raises(IllegalAction):
        do(state, "yellow: push blue")
    assert state == before


def test_devil_can_finish_the_own_chair_and_then_push():
    state = racing({"red": ["+5", "+5", "+3", "devil"], "yellow": ["+1"] * 4, "green": ["+1"] * 4})
    state = run(state, "red 1", "yellow 1", "green 1", "red 2", "yellow 1", "green 1")
    state = run(state, "red 3", "yellow 1", "green 1")
    assert state.race.positions == (13, 3, 3)
    state = run(state, "red 4")
    assert state.race.status == ("finished", "racing", "racing")
    assert state.race.positions[RED] == 15
    assert state.race.arrivals == (RED,)
    assert (to_move(state), decision_kind(state)) == (RED, "push")
    state = run(state, "red: push green")
    assert state.race.positions == (15, 3, 1)
    assert (to_move(state), decision_kind(state)) == (YELLOW, "roll")


def test_no_push_question_when_no_other_chair_is_racing():
    state = racing({"red": ["+5"] * 4, "yellow": ["goof"] * 4, "green": ["devil", "+1", "+1", "+1"]})
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 2"), "red 1")
    assert state.race.status == ("finished", "pond", "racing")
    assert state.race.positions[GREEN] == 2
    state = run(state, "green 1")
    assert state.race.positions[GREEN] == 4
    assert (to_move(state), decision_kind(state)) == (GREEN, "roll")


# --- finishing, ranking and prizes ------------------------------------------


def test_reaching_the_finish_space_exactly_finishes_the_chair():
    state = racing({"red": ["+5"] * 4, "yellow": ["+1"] * 4, "green": ["+1"] * 4})
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 1"))
    assert state.race.status[RED] == "racing"
    state = run(state, "red 1")
    assert state.race.positions[RED] == 15
    assert state.race.status == ("finished", "racing", "racing")
    assert state.race.arrivals == (RED,)


def test_passing_the_finish_space_finishes_the_chair():
    state = racing({"red": ["+3", "+5", "+5", "+5"], "yellow": ["+1"] * 4, "green": ["+1"] * 4})
    state = run(state, "red 1", "yellow 1", "green 1", "red 2", "yellow 1", "green 1")
    state = run(state, "red 3", "yellow 1", "green 1")
    assert state.race.positions == (13, 3, 3)
    state = run(state, "red 4")  # 13 + 5 = 18, past 15
    assert state.race.status == ("finished", "racing", "racing")
    # Our reading: a chair that passes the finish stands on the finish space.
    assert state.race.positions[RED] == 15
    assert state.race.arrivals == (RED,)
    assert to_move(state) == YELLOW


def test_places_follow_arrival_order_and_prizes_are_paid_when_the_race_ends():
    state = racing(
        {"red": ["+3"] * 4, "yellow": ["+5", "+5", "+5", "+1"], "green": ["+2"] * 4},
        gold={"red": 50, "yellow": 50, "green": 50},
    )
    state = run(state, *rounds(3, "red 1", "yellow 1", "green 1"))
    assert state.race.positions == (9, 15, 6)
    assert state.race.arrivals == (YELLOW,)
    state = run(state, *rounds(2, "red 1", "green 1"))
    assert state.race.arrivals == (YELLOW, RED)
    assert state.race.positions[:2] == (15, 15)
    assert state.race.positions[GREEN] == 10
    assert state.gold == (50, 50, 50)
    state = run(state, "green 1", "green 1")
    assert state.phase == "race"
    assert state.race.positions[GREEN] == 14
    state = run(state, "green 1")  # 16, past 15: the race is over
    result = state.results[-1]
    assert result.number == 1
    assert result.ranking == (YELLOW, RED, GREEN)
    assert result.prizes == (20, 10, 5)
    assert result.pond == ()
    assert state.gold == (60, 70, 55)
    assert state.phase == "removal"
    assert state.last_placed == GREEN
    assert (to_move(state), decision_kind(state)) == (GREEN, "remove")


def test_prizes_come_from_the_prize_row_of_the_race():
    # Race 3 (finish 21, prizes 28/14/7), begun by green two seats after red.
    state = racing({"red": ["+5"] * 4, "yellow": ["+3"] * 4, "green": ["+2"] * 4}, race=3)
    assert to_move(state) == GREEN
    state = run(state, *rounds(5, "green 1", "red 1", "yellow 1"))
    assert state.race.positions[1:] == (15, 10)
    assert state.race.status == ("finished", "racing", "racing")
    assert state.race.arrivals == (RED,)
    state = run(state, *rounds(2, "green 1", "yellow 1"))
    assert state.race.arrivals == (RED, YELLOW)
    state = run(state, *rounds(4, "green 1"))
    result = state.results[-1]
    assert (result.number, result.ranking, result.prizes) == (3, (RED, YELLOW, GREEN), (28, 14, 7))
    assert state.gold == (78, 64, 57)
    assert state.race.rolls == 15 + 4 + 4


def test_pond_chairs_rank_last_the_one_that_fell_in_last_ranking_highest():
    state = racing(
        {
            "red": ["+5"] * 4,
            "yellow": ["goof", "goof", "+1", "+1"],
            "green": ["goof", "goof", "+1", "+1"],
            "blue": ["+3"] * 4,
        }
    )
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 1", "blue 1"))
    assert state.race.positions[RED] == 10
    assert state.race.positions[BLUE] == 6
    assert state.race.status == ("racing", "pond", "pond", "racing")
    assert state.race.fallen == (YELLOW, GREEN)
    state = run(state, "red 1", "blue 1", "blue 1", "blue 1")
    result = state.results[-1]
    assert result.ranking == (RED, BLUE, GREEN, YELLOW)
    assert result.pond == (YELLOW, GREEN)
    # Green's third place pays nothing: a pond chair is never paid.
    assert result.prizes == (20, 10, 0, 0)
    assert state.gold == (70, 50, 50, 60)
    assert sum(state.gold) == 200 + 30
    assert state.last_placed == YELLOW
    assert (to_move(state), decision_kind(state)) == (YELLOW, "remove")


def test_a_pond_chair_in_second_place_is_not_paid_and_the_prize_stays_in_the_bank():
    state = racing(
        {"red": ["+5"] * 4, "yellow": ["goof", "goof", "+1", "+1"], "green": ["goof", "goof", "+1", "+1"]}
    )
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 1"))
    assert state.race.status == ("racing", "pond", "pond")
    assert to_move(state) == RED
    state = run(state, "red 1")
    result = state.results[-1]
    assert result.ranking == (RED, GREEN, YELLOW)
    assert result.prizes == (20, 0, 0)
    assert result.pond == (YELLOW, GREEN)
    assert state.gold == (70, 50, 50)
    assert state.last_placed == YELLOW


def test_a_race_where_every_chair_falls_into_the_pond_pays_nobody():
    team = ["goof", "goof", "+1", "+1"]
    state = racing({"red": team, "yellow": team, "green": team})
    state = run(state, "red 1", "yellow 1", "green 1")
    assert state.race.positions == (-2, -2, -2)
    state = run(state, "red 2", "yellow 2")
    assert state.race.status == ("pond", "pond", "racing")
    state = run(state, "green 2")
    result = state.results[-1]
    assert result.ranking == (GREEN, YELLOW, RED)
    assert result.prizes == (0, 0, 0)
    assert result.pond == (RED, YELLOW, GREEN)
    assert state.gold == (50, 50, 50)
    assert state.last_placed == RED
    assert (to_move(state), decision_kind(state)) == (RED, "remove")


# --- the roll cap -------------------------------------------------------------


def test_the_cap_ends_the_race_after_the_five_hundredth_roll_ranking_chairs_on_the_track():
    # 500 rolls of +1, +1, Goof per chair: nobody finishes and nobody falls in.
    # Race 1 begun by green: turn order green, red, yellow.
    state = racing({c: ["+1", "goof", "+1", "goof"] for c in ("red", "yellow", "green")}, start="green")
    order = ["green", "red", "yellow"]
    for i in range(500):
        assert state.phase == "race"
        assert state.race.rolls == i
        colour = order[i % 3]
        face = [1, 1, 2][(i // 3) % 3]
        state = run(state, f"{colour} {face}")
    # green and red rolled 167 times (55 cycles, then +1 +1), yellow 166 times.
    assert state.race.positions == (2, 1, 2)
    assert state.race.rolls == 500
    assert state.race.status == ("racing",) * 3
    result = state.results[-1]
    # Green and red tie on 2: green is first in this race's turn order.
    assert result.ranking == (GREEN, RED, YELLOW)
    assert result.prizes == (20, 10, 5)
    assert state.gold == (60, 55, 70)
    assert state.phase == "removal"
    assert (to_move(state), decision_kind(state)) == (YELLOW, "remove")


def test_cap_ranking_puts_finishers_first_then_chairs_further_ahead_ties_in_turn_order_then_pond():
    # Race 2, start player red: yellow begins; turn order yellow green blue white red.
    displays = {
        "red": ["+1", "goof", "+2", "+3"],
        "yellow": ["+5"] * 4,
        "green": ["+1", "goof", "+2", "+3"],
        "blue": ["goof", "+1", "+2", "+3"],
        "white": ["+3", "+1", "goof", "+2"],
    }
    state = racing(displays, start="red", race=2)
    state = run(state, "yellow 1", "green 1", "blue 1", "white 1", "red 1")
    assert state.race.positions == (1, 5, 1, -2, 3)
    state = run(state, "yellow 1", "green 3", "blue 1", "white 1", "red 3")
    assert state.race.positions[:3] == (3, 10, 3)
    assert state.race.positions[WHITE] == 6
    assert state.race.status[BLUE] == "pond"
    state = run(state, "yellow 1", "green 1", "white 2", "red 1", "yellow 1")
    assert state.race.arrivals == (YELLOW,)
    assert (state.race.positions[RED], state.race.positions[GREEN], state.race.positions[WHITE]) == (4, 4, 7)
    assert state.race.status == ("racing", "finished", "racing", "pond", "racing")
    assert state.race.rolls == 15
    assert to_move(state) == GREEN
    state = state._replace(race=state.race._replace(rolls=497))
    state = run(state, "green 2", "white 2")
    assert state.race.rolls == 499
    assert state.phase == "race"
    assert (to_move(state), decision_kind(state)) == (RED, "roll")
    state = run(state, "red 2")  # the 500th roll
    assert state.race.rolls == 500
    assert state.race.positions[RED] == 2 and state.race.positions[GREEN] == 2
    assert state.race.positions[WHITE] == 8
    result = state.results[-1]
    assert result.number == 2
    assert result.ranking == (YELLOW, WHITE, GREEN, RED, BLUE)
    assert result.prizes == (24, 12, 6, 0, 0)
    assert result.pond == (BLUE,)
    assert state.gold == (50, 74, 56, 50, 62)
    assert state.phase == "removal"
    assert state.last_placed == BLUE
    assert (to_move(state), decision_kind(state)) == (BLUE, "remove")


def test_the_cap_counts_a_lone_chairs_rolls():
    state = racing({"red": ["+5"] * 4, "yellow": ["goof"] * 4, "green": ["+1"] * 4})
    state = run(state, *rounds(2, "red 1", "yellow 1", "green 1"), "red 1", "green 1")
    assert state.race.status == ("finished", "pond", "racing")
    assert state.race.positions[GREEN] == 3
    assert state.race.rolls == 8
    state = state._replace(race=state.race._replace(rolls=498))
    state = run(state, "green 1")
    assert state.race.rolls == 499
    assert state.phase == "race"
    assert (to_move(state), decision_kind(state)) == (GREEN, "roll")
    state = run(state, "green 1")
    assert state.race.positions[GREEN] == 5
    result = state.results[-1]
    assert result.ranking == (RED, GREEN, YELLOW)
    assert result.prizes == (20, 10, 0)
    assert result.pond == (YELLOW,)
    assert state.gold == (70, 50, 60)
    assert state.phase == "removal"
    assert state.last_placed == YELLOW


def test_a_devil_on_the_cap_roll_still_gets_its_push_before_the_race_ends():
    # Our reading: the 500th roll is a whole turn, the Devil's optional push included.
    state = racing({"red": ["devil"] * 4, "yellow": ["+1"] * 4, "green": ["+1"] * 4})
    state = state._replace(race=state.race._replace(rolls=499))
    state = run(state, "red 1")
    assert state.race.rolls == 500
    assert (to_move(state), decision_kind(state)) == (RED, "push")
    state = do(state, "red: push yellow")
    result = state.results[-1]
    assert state.race.positions == (2, -2, 0)
    # Cap ranking: red ahead on 2, then green on 0, then yellow pushed to -2.
    assert result.ranking == (RED, GREEN, YELLOW)
    assert result.prizes == (20, 10, 5)
    assert state.phase == "removal"
