"""Engine events told as sentences, and the simulate command's account."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import CHANCE, apply, parse
from games.engine.events import events
from games.narrate import describe
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
    state = play(new(("red", "blue", "green")), "chance: draw +5; chance: draw +1; chance: draw goof; chance: draw devil")
    state = play(state, "red: pass; blue: bid 7")
    sentences, _ = told(state, "green: pass")
    assert sentences[0] == "Green passed."
    assert sentences[1] == "Blue bought the team +5 +1 goof devil for 7 gold."
    assert sentences[2] == "Start auction 2 opens: Green, Red bid, Green first."


def test_an_automatic_pass_is_told_apart_from_a_chosen_one():
    state = play(new(("red", "blue", "green")), "chance: draw +5; chance: draw +1; chance: draw goof; chance: draw devil")
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
