"""Engine events told as sentences, and the simulate command's account."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import CHANCE, apply, parse
from games.engine.events import events
from games.narrate import describe, describe_notation, final_standings
from games.templatetags.games_tags import bearer
from tests.engine.scripting import new, play, racing


def told(state, line):
    """Sentences for one scripted line, and the state after it."""
    who, _, text = line.partition(":")
    seat = CHANCE if who == "chance" else state.colours.index(who)
    action = parse(text.strip())
    after = apply(state, seat, action)
    return [describe(e) for e in events(state, seat, action, after)], after


def test_a_bid_is_told_with_its_amount():
    state = play(new(), "chance: draw +1; chance: draw +2; chance: draw +3; chance: draw +5")
    sentences, _ = told(state, "red: bid 12")
    assert sentences == ["Red bid 12."]


def test_a_goof_into_the_pond_is_told_as_such():
    state = racing({"red": ["goof", "+1", "+1", "+1"], "blue": ["+1", "+1", "+1", "+1"], "green": ["+2"] * 4})
    state = play(state, "red: roll; chance: die 1; blue: roll; chance: die 1; green: roll; chance: die 1")
    state = play(state, "red: roll")
    sentences, after = told(state, "chance: die 1")
    assert after.race.status[0] == "pond"
    assert sentences == ["Red rolled 1: the Goof carries Red back 2 — into the shell pond."]


def test_a_forward_roll_says_how_far_and_where_to():
    state = racing({"red": ["+1", "+3", "+1", "+1"], "blue": ["+1"] * 4, "green": ["+2"] * 4})
    state = play(state, "red: roll")
    sentences, _ = told(state, "chance: die 2")
    assert sentences == ["Red rolled 2: a +3 bearer carries Red forward 3 to space 3."]


def test_winning_an_auction_names_buyer_price_and_cards_and_the_next_auction():
    state = play(
        new(("red", "blue", "green")), "chance: draw +5; chance: draw +1; chance: draw goof; chance: draw devil"
    )
    state = play(state, "red: pass; blue: bid 7")
    sentences, _ = told(state, "green: pass")
    assert sentences[0] == "Green passed."
    assert sentences[1] == "Blue bought the team +5 +1 Goof Devil for 7 gold."
    assert sentences[2] == "Start auction 2 opens: Green, Red bid, Green first."


def test_a_bought_team_names_the_goof_and_the_devil_and_keeps_the_numbers():
    state = play(new(("red", "blue", "green")), "chance: draw goof; chance: draw +2; chance: draw +3; chance: draw +1")
    state = play(state, "red: bid 5; blue: pass")
    after = apply(state, 2, parse("pass"))
    told = [describe(e, {"red": "Anna"}) for e in events(state, 2, parse("pass"), after)]
    assert "Anna bought the team Goof +2 +3 +1 for 5 gold." in told


def test_cards_removed_and_drawn_after_a_race_are_named_not_coded():
    names = {"red": "Anna", "blue": "Bruno"}
    removed = describe(
        {"type": "remove", "colour": "red", "picks": [{"colour": "blue", "slot": 1, "code": "devil"}]}, names
    )
    drawn = describe({"type": "refill", "colour": "blue", "slot": 1, "code": "goof"}, names)
    assert removed == "Anna, last, removed Bruno's Devil."
    assert drawn == "Bruno drew Goof into slot 1."


def test_pages_and_history_name_a_card_with_the_same_word():
    assert bearer("goof") == "Goof −2"
    assert bearer("devil") == "Devil +2/−2"
    assert bearer("+3") == "+3"
    assert bearer(None) == "—"


@pytest.mark.parametrize(
    "notation, told",
    [
        ("bid 12", "you bid 12"),
        ("pass", "you passed"),
        ("roll", "you rolled the die"),
        ("push blue", "you pushed Bruno back"),
        ("push none", "you let the Devil push no one"),
        ("remove red:3 blue:1", "you removed Anna's bearer in slot 3 and Bruno's bearer in slot 1"),
        ("arrange +5 goof +2", "you arranged your team: +5 Goof +2"),
    ],
)
def test_a_decision_in_notation_is_worded_for_the_player_who_made_it(notation, told):
    assert describe_notation(notation, {"red": "Anna", "blue": "Bruno"}) == told


def test_a_decision_of_a_colour_without_a_name_is_worded_with_the_colour_name():
    assert describe_notation("push green") == "you pushed Green back"


def test_an_automatic_pass_is_told_apart_from_a_chosen_one():
    state = play(
        new(("red", "blue", "green")), "chance: draw +5; chance: draw +1; chance: draw goof; chance: draw devil"
    )
    sentences, _ = told(state, "red: bid 50")
    assert sentences[:3] == ["Red bid 50.", "Blue could not raise and passed.", "Green could not raise and passed."]


def test_simulate_prints_auctions_six_races_and_final_standings():
    out = StringIO()
    call_command("simulate", players=4, seed=7, stdout=out)
    text = out.getvalue()
    assert "bought the team" in text
    assert "paid 10 gold for the last team" in text
    for number in range(1, 7):
        assert f"Race {number} is over: 1." in text
    final = next(line for line in text.splitlines() if line.startswith("The game is over."))
    assert all(colour in final for colour in ("Red", "Yellow", "Green", "Blue"))


def test_simulate_is_repeatable_for_a_seed():
    first, second = StringIO(), StringIO()
    call_command("simulate", players=5, seed=11, stdout=first)
    call_command("simulate", players=5, seed=11, stdout=second)
    assert first.getvalue() == second.getvalue()


def test_simulate_refuses_a_player_count_the_ruleset_does_not_allow():
    with pytest.raises(CommandError, match="3 to 6 players"):
        call_command("simulate", players=7, seed=1, stdout=StringIO())


def finished(gold: dict, standings: list, last_ranking: list) -> dict:
    """The parts of a finished game's observation the standings are told from."""
    return {
        "players": [{"colour": colour, "gold": amount} for colour, amount in gold.items()],
        "results": [{"number": 6, "ranking": last_ranking}],
        "standings": standings,
    }


NAMES = {"red": "Anna", "blue": "Bruno", "green": "Carla", "white": "Dora"}


def test_the_final_standings_name_each_player_with_their_gold_best_first_and_mark_the_winner():
    observation = finished({"red": 23, "blue": 41, "green": 30}, ["blue", "green", "red"], ["red", "green", "blue"])
    rows = final_standings(observation, NAMES)["rows"]
    assert [(row["place"], row["name"], row["gold"]) for row in rows] == [
        (1, "Bruno", 41),
        (2, "Carla", 30),
        (3, "Anna", 23),
    ]
    assert [row["winner"] for row in rows] == [True, False, False]


def test_equal_gold_is_explained_by_the_better_place_in_race_six():
    observation = finished(
        {"red": 23, "blue": 23, "green": 30, "white": 12},
        ["green", "red", "blue", "white"],
        ["white", "red", "green", "blue"],
    )
    standings = final_standings(observation, NAMES)
    assert standings["tie_breaks"] == [
        "Anna and Bruno both have 23 gold; Anna placed better in race 6 (2nd, against 4th)."
    ]


def test_three_players_with_equal_gold_are_told_in_the_order_race_six_put_them():
    observation = finished(
        {"red": 23, "blue": 23, "green": 23, "white": 40},
        ["white", "green", "red", "blue"],
        ["white", "green", "red", "blue"],
    )
    assert final_standings(observation, NAMES)["tie_breaks"] == [
        "Carla, Anna and Bruno all have 23 gold; race 6 put them in this order: Carla 2nd, Anna 3rd, Bruno 4th."
    ]


def test_no_tie_break_is_told_when_every_player_has_different_gold():
    observation = finished({"red": 23, "blue": 24, "green": 30}, ["green", "blue", "red"], ["red", "blue", "green"])
    assert final_standings(observation, NAMES)["tie_breaks"] == []


def test_a_player_with_no_name_known_is_named_by_colour_not_left_blank():
    observation = finished({"red": 23, "blue": 23}, ["blue", "red"], ["blue", "red"])
    standings = final_standings(observation, {"red": "Anna"})
    assert [row["name"] for row in standings["rows"]] == ["Blue", "Anna"]
    assert standings["tie_breaks"] == [
        "Blue and Anna both have 23 gold; Blue placed better in race 6 (1st, against 2nd)."
    ]


def test_a_game_still_running_has_no_final_standings():
    observation = finished({"red": 23, "blue": 24}, None, ["red", "blue"])
    assert final_standings(observation, NAMES) is None
