"""Bidding, arranging, substitute auctions after a race, and the deck running
out (docs/rules-notes.md#readings: auctions and lots, arranging a team, between
races, the deck).

Classic card ids: goof 0-5, +1 6-13, +2 14-21, devil 22-27, +3 28-35, +5 36-39.
Every expected value below is worked out by hand from the rules as the rules
page states them (templates/public/rules.html) and docs/rules-notes.md reads them.
"""

from __future__ import annotations

import pytest

from games.engine import HOLE, IllegalAction, lowest_bid, observe

from .scripting import new, play, racing
from .test_setup import (
    BLUE,
    COLOURS,
    GREEN,
    RED,
    YELLOW,
    all_cards_accounted,
    draws,
    expect,
    who,
)


def four_at_first_bid(start="red", gold=None):
    """Four players, the first start auction's lot dealt (cards 0..3 in
    bidding order); the opener is to bid."""
    state = new(COLOURS[:4], start)
    if gold is not None:
        state = state._replace(gold=tuple(gold))
    return play(state, *draws(0, 1, 2, 3))


def illegal(state, *lines):
    """Each line is illegal and leaves the state exactly as it was."""
    for line in lines:
        before = state
        with pytest.raises(IllegalAction):
            play(state, line)
        assert state == before


# --- bidding --------------------------------------------------------------------


def test_the_first_bid_of_an_auction_may_be_zero():
    state = four_at_first_bid()
    assert who(state) == "red"
    state = play(state, "red: bid 0")
    assert state.auction.high_bid == 0
    assert state.auction.high_bidder == RED
    expect(
        state, gold=(50,) * 4, displays=((),) * 4, discard=(), deck=36,
        to_move="yellow", phase="start_auction",
    )
    # A second 0 does not exceed the high bid.
    illegal(state, "yellow: bid 0")


def test_a_bid_must_exceed_the_high_bid():
    state = play(four_at_first_bid(), "red: bid 5")
    illegal(state, "yellow: bid 5", "yellow: bid 4", "yellow: bid 0")
    state = play(state, "yellow: bid 6")
    assert (state.auction.high_bid, state.auction.high_bidder) == (6, YELLOW)
    expect(
        state, gold=(50,) * 4, displays=((),) * 4, discard=(), deck=36,
        to_move="green", phase="start_auction",
    )


def test_the_lowest_bid_allowed_is_zero_at_first_then_one_over_the_high_bid():
    assert lowest_bid(None) == 0
    assert lowest_bid(0) == 1
    assert lowest_bid(5) == 6


def test_bid_above_own_gold_is_illegal_and_changes_nothing():
    state = four_at_first_bid(gold=(50, 12, 50, 50))
    illegal(state, "red: bid 51", "red: bid 100")
    state = play(state, "red: bid 3")
    illegal(state, "yellow: bid 13")
    # Exactly one's own gold is allowed.
    state = play(state, "yellow: bid 12")
    expect(
        state, gold=(50, 12, 50, 50), displays=((),) * 4, discard=(), deck=36,
        to_move="green", phase="start_auction",
    )
    assert (state.auction.high_bid, state.auction.high_bidder) == (12, YELLOW)


def test_only_the_bidder_whose_turn_it_is_may_bid_or_pass():
    state = four_at_first_bid()
    illegal(state, "yellow: bid 1", "yellow: pass", "blue: pass", "green: bid 0")


def test_nobody_bids_while_the_lot_is_dealt():
    state = new(COLOURS[:4], "red")
    state = play(state, "chance: draw 0")
    illegal(state, "red: bid 0", "red: pass", "yellow: bid 1")
    assert who(state) == "chance"


def test_pass_is_final_and_the_passer_is_never_asked_again():
    state = four_at_first_bid()
    asked = []
    for line in [
        "red: pass",
        "yellow: bid 1",
        "green: bid 2",
        "blue: bid 3",
        "yellow: bid 4",
        "green: pass",
        "blue: bid 5",
    ]:
        state = play(state, line)
        asked.append(who(state))
        all_cards_accounted(state)
    assert asked == ["yellow", "green", "blue", "yellow", "green", "blue", "yellow"]
    assert state.auction.active == (YELLOW, BLUE)
    # Red and green are out for good: even with a higher bid, not their turn.
    illegal(state, "red: bid 6", "green: bid 6")
    state = play(state, "yellow: pass")
    expect(
        state,
        gold=(50, 50, 50, 45),
        displays=((), (), (), (0, 1, 2, 3)),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )


def test_turns_go_clockwise_from_the_opener_among_bidders_still_in():
    state = four_at_first_bid(start="green")
    assert state.auction.bidders == (GREEN, BLUE, RED, YELLOW)
    asked = [who(state)]
    for line in ["green: bid 1", "blue: pass", "red: bid 2", "yellow: bid 3", "green: bid 4",
                 "red: bid 5", "yellow: pass", "green: bid 6"]:
        state = play(state, line)
        asked.append(who(state))
    assert asked == ["green", "blue", "red", "yellow", "green", "red", "yellow", "green", "red"]
    state = play(state, "red: pass")
    # Green wins at 6: the lot is green's, blue's, red's and yellow's cards.
    expect(
        state,
        gold=(50, 50, 44, 50),
        displays=((), (), (0, 1, 2, 3), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )


def test_a_bidder_who_cannot_raise_passes_automatically_without_being_asked():
    state = four_at_first_bid(gold=(50, 10, 50, 50))
    state = play(state, "red: bid 10")
    # Yellow has 10 and cannot bid more than 10: out, and green is asked.
    assert state.auction.active == (RED, GREEN, BLUE)
    expect(
        state, gold=(50, 10, 50, 50), displays=((),) * 4, discard=(), deck=36,
        to_move="green", phase="start_auction",
    )
    state = play(state, "green: pass", "blue: pass")
    expect(
        state,
        gold=(40, 10, 50, 50),
        displays=((0, 1, 2, 3), (), (), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )


def test_automatic_passes_can_end_the_auction_at_once():
    state = four_at_first_bid(start="blue", gold=(20, 30, 25, 50))
    # Bidding order blue, red, yellow, green; blue bids 30: red (20), yellow
    # (30) and green (25) all cannot raise.
    state = play(state, "blue: bid 30")
    expect(
        state,
        gold=(20, 30, 25, 20),
        displays=((), (), (), (0, 1, 2, 3)),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )


def test_an_automatic_passer_among_the_first_k_minus_4_passers_discards():
    state = new(COLOURS[:5], "red")._replace(gold=(50, 3, 50, 50, 50))
    state = play(state, *draws(0, 1, 2, 3, 4))  # red 0, yellow 1, green 2, blue 3, white 4
    state = play(state, "red: bid 3")
    # Yellow cannot raise: passes automatically, as the first passer discards.
    expect(
        state, gold=(50, 3, 50, 50, 50), displays=((),) * 5, discard=(1,), deck=35,
        to_move="green", phase="start_auction",
    )
    state = play(state, "green: pass")
    # Green is the second passer: the card stays in the lot.
    expect(
        state, gold=(50, 3, 50, 50, 50), displays=((),) * 5, discard=(1,), deck=35,
        to_move="blue", phase="start_auction",
    )
    state = play(state, "blue: pass", "white: pass")
    expect(
        state,
        gold=(47, 3, 50, 50, 50),
        displays=((0, 2, 3, 4), (), (), (), ()),
        discard=(1,),
        deck=35,
        to_move="chance",
        phase="start_auction",
    )


def test_the_winner_pays_the_high_bid_to_the_bank_and_takes_the_lot_in_dealt_order():
    state = new(COLOURS[:4], "yellow")
    # Bidding order yellow, green, blue, red.
    state = play(state, "chance: draw 39", "chance: draw 0", "chance: draw 22", "chance: draw 14")
    state = play(state, "yellow: bid 7", "green: bid 9", "blue: pass", "red: pass", "yellow: pass")
    expect(
        state,
        gold=(50, 50, 41, 50),
        displays=((), (), (39, 0, 22, 14), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )
    assert state.arrangeable == (False, False, True, False)


def test_a_bid_of_all_ones_gold_wins_when_nobody_else_has_more():
    state = play(four_at_first_bid(), "red: bid 50")
    # Yellow, green and blue have 50 each: none can bid more than 50, so all
    # pass automatically and red wins at once for all its gold.
    expect(
        state,
        gold=(0, 50, 50, 50),
        displays=((0, 1, 2, 3), (), (), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )
    assert state.auction.bidders == (YELLOW, GREEN, BLUE)


def test_in_a_start_auction_the_last_bidder_takes_the_lot_for_zero_without_a_turn():
    state = four_at_first_bid()
    asked = []
    for line in ["red: pass", "yellow: pass", "green: pass"]:
        asked.append(who(state))
        state = play(state, line)
    assert "blue" not in asked
    # Blue gets the lot for 0; the next auction (opened by yellow) is dealt.
    expect(
        state,
        gold=(50, 50, 50, 50),
        displays=((), (), (), (0, 1, 2, 3)),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )
    assert state.auction.number == 2
    assert state.auction.bidders == (YELLOW, GREEN, RED)


def test_a_seat_with_a_team_takes_no_part_in_later_start_auctions():
    state = play(four_at_first_bid(), "red: pass", "yellow: pass", "green: pass")
    state = play(state, *draws(4, 5, 6, 7))
    assert BLUE not in state.auction.bidders
    assert who(state) == "yellow"
    illegal(state, "blue: bid 1", "blue: pass")
    assert observe(state, BLUE)["auction"]["my_cards"] is None


# --- arranging a team ----------------------------------------------------------


def yellow_owns_goof_devil_plus5_plus2():
    """Four players, start red; yellow won the first start auction at 1 with
    the lot goof (0), devil (22), +5 (36), +2 (14); the second auction
    (green, blue, red) waits for its lot."""
    state = new(COLOURS[:4], "red")
    state = play(state, *draws(0, 22, 36, 14))
    state = play(state, "red: pass", "yellow: bid 1", "green: pass", "blue: pass")
    expect(
        state,
        gold=(50, 49, 50, 50),
        displays=((), (0, 22, 36, 14), (), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )
    return state


def with_display(state, seat, display):
    displays = list(state.displays)
    displays[seat] = display
    return state._replace(displays=tuple(displays))


def test_the_owner_may_arrange_out_of_turn_without_changing_whose_turn_it_is():
    before = yellow_owns_goof_devil_plus5_plus2()
    # While chance deals the next lot.
    state = play(before, "yellow: arrange +5 +2 goof devil")
    assert state == with_display(before, YELLOW, (36, 14, 0, 22))
    assert who(state) == "chance"
    all_cards_accounted(state)
    state = play(state, *draws(4, 5, 6, 7))
    assert who(state) == "green"
    # While green is to bid; aliases: d = devil, -2 = goof, 5 = +5, 2 = +2.
    before = state
    state = play(state, "yellow: arrange d -2 5 2")
    assert state == with_display(before, YELLOW, (22, 0, 36, 14))
    assert who(state) == "green"
    # g = goof as well; arranging again is allowed.
    state = play(state, "yellow: arrange g d +5 +2")
    assert state == with_display(before, YELLOW, (0, 22, 36, 14))
    all_cards_accounted(state)


def test_arrange_is_illegal_with_bearers_not_in_the_display():
    state = yellow_owns_goof_devil_plus5_plus2()
    illegal(
        state,
        "yellow: arrange +5 +5 goof devil",
        "yellow: arrange +3 +2 goof devil",
        "yellow: arrange +5 +2 goof",
        "yellow: arrange +5 +2 goof devil +1",
        "yellow: arrange goof goof goof goof",
    )


def test_arrange_is_illegal_for_a_seat_with_no_team():
    state = yellow_owns_goof_devil_plus5_plus2()
    illegal(state, "red: arrange goof +1 +2 devil", "green: arrange goof devil +5 +2")


def test_arrange_is_allowed_until_the_first_roll_of_the_race_then_illegal():
    state = yellow_owns_goof_devil_plus5_plus2()
    # Auction 2 (green, blue, red): red takes it for 0.
    state = play(state, *draws(4, 5, 6, 7), "green: pass", "blue: pass")
    # Auction 3 (blue, green): green takes it for 0; blue's last team follows.
    state = play(state, *draws(8, 9, 10, 11), "blue: pass")
    state = play(state, *draws(37, 28, 15, 1))
    expect(
        state,
        gold=(50, 49, 50, 40),
        displays=((4, 5, 6, 7), (0, 22, 36, 14), (8, 9, 10, 11), (37, 28, 15, 1)),
        discard=(),
        deck=24,
        to_move="red",
        phase="race",
    )
    # Race 1, before its first roll: the last team and yellow may arrange.
    before = state
    state = play(state, "blue: arrange goof +2 +3 +5", "yellow: arrange +2 +5 devil goof")
    assert state == with_display(
        with_display(before, BLUE, (1, 15, 28, 37)), YELLOW, (14, 36, 22, 0)
    )
    assert who(state) == "red"
    state = play(state, "red: roll")
    assert who(state) == "chance"
    illegal(
        state,
        "yellow: arrange goof devil +5 +2",
        "blue: arrange +5 +3 +2 goof",
        "red: arrange goof +1 goof goof",
    )
    state = play(state, "chance: die 1")
    illegal(state, "yellow: arrange goof devil +5 +2", "blue: arrange +5 +3 +2 goof")


# --- substitute auctions ------------------------------------------------------------

# Red: four +5 (36-39), yellow: four +3 (28-31), green: four +3 (32-35),
# blue: four goofs (0-3). The deck holds 4..27.
TEAMS = {
    "red": ["+5"] * 4,
    "yellow": ["+3"] * 4,
    "green": ["+3"] * 4,
    "blue": ["goof"] * 4,
}


def rolls(*colours):
    return [f"{c}: roll; chance: die 1" for c in colours]


def after_race_one():
    """Race 1 to 15, start red, run to its end by hand.

    Round 1: red 5, yellow 3, green 3, blue -2.  Round 2: red 10, yellow 6,
    green 6, blue -4 (pond).  Round 3: red 15 (1st), yellow 9, green 9.
    Then yellow 12, green 12, yellow 15 (2nd), green 15 (3rd).
    Prizes 20/10/5; blue (pond) is last and unpaid."""
    state = racing(TEAMS, start="red")
    state = play(
        state,
        *rolls("red", "yellow", "green", "blue"),
        *rolls("red", "yellow", "green", "blue"),
        *rolls("red", "yellow", "green"),
        *rolls("yellow", "green", "yellow", "green"),
    )
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((36, 37, 38, 39), (28, 29, 30, 31), (32, 33, 34, 35), (0, 1, 2, 3)),
        discard=(),
        deck=24,
        to_move="blue",
        phase="removal",
    )
    return state


def at_first_substitute_auction():
    """After race 1: blue removes red:1 yellow:2 green:3 blue:4, refill from
    blue clockwise draws 4, 6, 7, 14; the first substitute auction waits for
    its lot."""
    state = play(after_race_one(), "blue: remove red:1 yellow:2 green:3 blue:4")
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=(
            (HOLE, 37, 38, 39),
            (28, HOLE, 30, 31),
            (32, 33, HOLE, 35),
            (0, 1, 2, HOLE),
        ),
        discard=(3, 29, 34, 36),
        deck=24,
        to_move="chance",
        phase="refill",
    )
    state = play(state, "chance: draw 4")  # blue's slot 4 first
    assert state.displays[BLUE] == (0, 1, 2, 4)
    assert state.displays[RED] == (HOLE, 37, 38, 39)
    state = play(state, "chance: draw 6", "chance: draw 7", "chance: draw 14")
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (32, 33, 14, 35), (0, 1, 2, 4)),
        discard=(3, 29, 34, 36),
        deck=20,
        to_move="chance",
        phase="substitute_auction",
    )
    return state


def test_substitute_auctions_first_opened_by_last_placed_then_the_next_seat_clockwise():
    state = at_first_substitute_auction()
    auction = state.auction
    assert (auction.kind, auction.number) == ("substitute_auction", 1)
    # k = all players, opened by blue (last placed).
    assert auction.bidders == (BLUE, RED, YELLOW, GREEN)
    state = play(state, *draws(5, 8, 15, 22))
    assert state.auction.hands == ((5,), (8,), (15,), (22,))
    assert who(state) == "blue"
    state = play(state, "blue: pass", "red: bid 3", "yellow: pass", "green: bid 4", "red: pass")
    # Green buys at 4; its old four cards (with the refilled +2, 14) are discarded.
    # The second lot is not dealt yet: chance is to deal it now.
    expect(
        state,
        gold=(70, 60, 51, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (5, 8, 15, 22), (0, 1, 2, 4)),
        discard=(3, 14, 29, 32, 33, 34, 35, 36),
        deck=16,
        to_move="chance",
        phase="substitute_auction",
    )
    auction = state.auction
    assert (auction.kind, auction.number) == ("substitute_auction", 2)
    assert auction.bidders == (RED, YELLOW, GREEN, BLUE)
    assert auction.hands == ((), (), (), ())
    assert len(state.draws) == 4
    state = play(state, *draws(9, 16, 23, 24))
    assert who(state) == "red"
    # Green, who bought in the first, may bid (and buy) in the second.
    state = play(state, "red: pass", "yellow: pass", "green: bid 1", "blue: pass")
    expect(
        state,
        gold=(70, 60, 50, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (9, 16, 23, 24), (0, 1, 2, 4)),
        discard=(3, 5, 8, 14, 15, 22, 29, 32, 33, 34, 35, 36),
        deck=12,
        to_move="yellow",
        phase="race",
    )
    # Race 2: the arch at 18, all chairs back on START, begun by the seat one
    # place clockwise of the start player (red): yellow.
    race = state.race
    assert race.number == 2
    assert race.first == YELLOW
    assert race.positions == (0, 0, 0, 0)
    assert race.status == ("racing",) * 4
    assert race.arrivals == () and race.fallen == ()
    assert observe(state, None)["race"]["finish"] == 18


def test_in_a_substitute_auction_the_unbid_last_bidder_still_has_a_turn_and_a_pass_discards_the_lot():
    state = play(at_first_substitute_auction(), *draws(5, 8, 15, 22))
    state = play(state, "blue: pass", "red: pass", "yellow: pass")
    # Nobody bid and green is the last bidder: green still decides.
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (32, 33, 14, 35), (0, 1, 2, 4)),
        discard=(3, 29, 34, 36),
        deck=16,
        to_move="green",
        phase="substitute_auction",
    )
    assert state.auction.number == 1
    state = play(state, "green: pass")
    # Nobody buys: the whole lot goes to the discard pile; displays stay.
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (32, 33, 14, 35), (0, 1, 2, 4)),
        discard=(3, 5, 8, 15, 22, 29, 34, 36),
        deck=16,
        to_move="chance",
        phase="substitute_auction",
    )
    assert state.auction.number == 2
    assert state.auction.bidders == (RED, YELLOW, GREEN, BLUE)


def test_in_a_substitute_auction_the_unbid_last_bidder_may_buy_for_zero():
    state = play(at_first_substitute_auction(), *draws(5, 8, 15, 22))
    state = play(state, "blue: pass", "red: pass", "yellow: pass")
    assert who(state) == "green"
    state = play(state, "green: bid 0")
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (5, 8, 15, 22), (0, 1, 2, 4)),
        discard=(3, 14, 29, 32, 33, 34, 35, 36),
        deck=16,
        to_move="chance",
        phase="substitute_auction",
    )
    assert state.auction.number == 2


def test_in_a_substitute_auction_the_unbid_last_bidder_may_buy_for_more_than_zero():
    state = play(at_first_substitute_auction(), *draws(5, 8, 15, 22))
    state = play(state, "blue: pass", "red: pass", "yellow: pass", "green: bid 7")
    expect(
        state,
        gold=(70, 60, 48, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (5, 8, 15, 22), (0, 1, 2, 4)),
        discard=(3, 14, 29, 32, 33, 34, 35, 36),
        deck=16,
        to_move="chance",
        phase="substitute_auction",
    )


def test_a_substitute_buyer_may_arrange_until_the_next_race_rolls_but_a_refilled_display_may_not():
    state = play(at_first_substitute_auction(), *draws(5, 8, 15, 22))
    state = play(state, "blue: pass", "red: pass", "yellow: pass", "green: bid 0")
    # Green's new team is goof 5, +1 8, +2 15, devil 22.
    assert state.arrangeable == (False, False, True, False)
    before = state
    state = play(state, "green: arrange devil +2 +1 goof")
    assert state == with_display(before, GREEN, (22, 15, 8, 5))
    assert who(state) == "chance"
    # Red's display was only refilled: it is not a newly placed team.
    illegal(state, "red: arrange +5 +5 +5 +1", "blue: arrange goof goof goof goof")
    state = play(state, *draws(9, 16, 23, 24))
    state = play(state, "red: pass", "yellow: pass", "green: pass", "blue: pass")
    # Nobody bought the second lot; race 2 begins with yellow.
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((6, 37, 38, 39), (28, 7, 30, 31), (22, 15, 8, 5), (0, 1, 2, 4)),
        discard=(3, 9, 14, 16, 23, 24, 29, 32, 33, 34, 35, 36),
        deck=12,
        to_move="yellow",
        phase="race",
    )
    state = play(state, "green: arrange +1 +2 devil goof")
    assert state.displays[GREEN] == (8, 15, 22, 5)
    assert who(state) == "yellow"
    state = play(state, "yellow: roll")
    illegal(state, "green: arrange goof devil +2 +1")


def test_race_three_is_begun_two_seats_after_the_start_player_whoever_was_last():
    # Start player blue; race 2 (to 18) is begun by red.
    # Round 1: red 5, yellow 3, green 3, blue -2.  Round 2: red 10, yellow 6,
    # green 6, blue pond.  Round 3: red 15, yellow 9, green 9.  Round 4: red 20
    # (1st), yellow 12, green 12.  Round 5: 15, 15.  Round 6: yellow 18 (2nd),
    # green 18 (3rd).  Prizes 24/12/6.
    state = racing(TEAMS, start="blue", race=2)
    assert who(state) == "red"
    state = play(
        state,
        *rolls("red", "yellow", "green", "blue") * 2,
        *rolls("red", "yellow", "green") * 2,
        *rolls("yellow", "green") * 2,
    )
    expect(
        state,
        gold=(74, 62, 56, 50),
        displays=((36, 37, 38, 39), (28, 29, 30, 31), (32, 33, 34, 35), (0, 1, 2, 3)),
        discard=(),
        deck=24,
        to_move="blue",
        phase="removal",
    )
    state = play(state, "blue: remove red:1 yellow:1 green:1 blue:1", *draws(4, 5, 6, 7))
    expect(
        state,
        gold=(74, 62, 56, 50),
        displays=((5, 37, 38, 39), (6, 29, 30, 31), (7, 33, 34, 35), (4, 1, 2, 3)),
        discard=(0, 28, 32, 36),
        deck=20,
        to_move="chance",
        phase="substitute_auction",
    )
    assert state.auction.bidders == (BLUE, RED, YELLOW, GREEN)
    state = play(state, *draws(8, 9, 10, 11), "blue: pass", "red: pass", "yellow: pass")
    state = play(state, "green: pass")  # unsold
    # The second is opened by the seat after blue: red (wrapping around).
    assert state.auction.bidders == (RED, YELLOW, GREEN, BLUE)
    state = play(state, *draws(12, 13, 14, 15), "red: pass", "yellow: pass", "green: pass")
    assert who(state) == "blue"
    state = play(state, "blue: bid 0")
    expect(
        state,
        gold=(74, 62, 56, 50),
        displays=((5, 37, 38, 39), (6, 29, 30, 31), (7, 33, 34, 35), (12, 13, 14, 15)),
        discard=(0, 1, 2, 3, 4, 8, 9, 10, 11, 28, 32, 36),
        deck=12,
        to_move="yellow",
        phase="race",
    )
    assert state.race.number == 3
    assert state.race.first == YELLOW
    assert state.race.positions == (0, 0, 0, 0)
    assert observe(state, None)["race"]["finish"] == 21


def test_a_substitute_auction_for_three_players_has_a_face_up_card():
    teams = {"red": ["+5"] * 4, "yellow": ["+3"] * 4, "green": ["goof"] * 4}
    # Race 1, start red: red 5, yellow 3, green -2; red 10, yellow 6, green
    # pond; red 15 (1st); yellow 9, 12, 15 (2nd). Prizes 20/10; green unpaid.
    state = racing(teams, start="red")
    state = play(
        state,
        *rolls("red", "yellow", "green") * 2,
        *rolls("red", "yellow", "yellow", "yellow"),
    )
    # Cards: red 36-39, yellow 28-31, green 0-3; deck 4..27 and 32..35.
    expect(
        state,
        gold=(70, 60, 50),
        displays=((36, 37, 38, 39), (28, 29, 30, 31), (0, 1, 2, 3)),
        discard=(),
        deck=28,
        to_move="green",
        phase="removal",
    )
    state = play(state, "green: remove red:4 yellow:4 green:4", *draws(4, 5, 6))
    # Refill from green clockwise: green 4, red 5, yellow 6.
    assert state.displays == ((36, 37, 38, 5), (28, 29, 30, 6), (0, 1, 2, 4))
    assert state.auction.bidders == (GREEN, RED, YELLOW)
    state = play(state, "chance: draw 35")
    assert observe(state, None)["auction"]["face_up"] == [{"id": 35, "code": "+3"}]
    for seat in (RED, YELLOW, GREEN):
        assert observe(state, seat)["auction"]["face_up"] == [{"id": 35, "code": "+3"}]
    state = play(state, *draws(7, 8, 9))
    state = play(state, "green: bid 2", "red: pass", "yellow: bid 3", "green: bid 4", "yellow: pass")
    # Green buys the face-up +3 and the hands of green, red, yellow in order;
    # green's old team (with the refilled 4) joins the removed 39, 31 and 3.
    expect(
        state,
        gold=(70, 60, 46),
        displays=((36, 37, 38, 5), (28, 29, 30, 6), (35, 7, 8, 9)),
        discard=(0, 1, 2, 3, 4, 31, 39),
        deck=21,
        to_move="chance",
        phase="substitute_auction",
    )
    assert state.auction.bidders == (RED, YELLOW, GREEN)


# --- the deck running out ---------------------------------------------------------


def test_the_discard_pile_becomes_the_deck_only_when_a_card_must_be_drawn_from_an_empty_deck():
    state = new(COLOURS[:4], "red")
    # Two cards left in the deck, the other 38 on the discard pile.
    state = state._replace(deck=(0, 1), discard=tuple(range(2, 40)))
    all_cards_accounted(state)
    state = play(state, "chance: draw 0")
    assert state.deck == (1,)
    assert len(state.discard) == 38
    assert state.reshuffles == 0
    all_cards_accounted(state)
    state = play(state, "chance: draw 1")
    # Green and blue still have to draw: the whole discard pile is the deck.
    assert state.deck == tuple(range(2, 40))
    assert state.discard == ()
    assert state.reshuffles == 1
    assert observe(state, None)["reshuffles"] == 1
    assert observe(state, None)["deck_size"] == 38
    assert observe(state, None)["discard_size"] == 0
    all_cards_accounted(state)
    state = play(state, "chance: draw 39", "chance: draw 2")
    assert state.auction.hands == ((0,), (1,), (39,), (2,))
    expect(
        state, gold=(50,) * 4, displays=((),) * 4, discard=(), deck=36,
        to_move="red", phase="start_auction",
    )


def test_a_deck_emptied_by_the_last_card_of_a_lot_is_refilled_at_the_next_draw_with_later_discards():
    state = new(COLOURS[:5], "red")
    state = state._replace(deck=(0, 1, 2, 3, 4), discard=tuple(range(5, 40)))
    state = play(state, *draws(0, 1, 2, 3, 4))
    # Deck empty but no card is due: no reshuffle yet.
    assert state.deck == ()
    assert state.reshuffles == 0
    assert who(state) == "red"
    state = play(state, "red: pass")  # first passer of k=5: card 0 discarded
    expect(
        state,
        gold=(50,) * 5,
        displays=((),) * 5,
        discard=(0,) + tuple(range(5, 40)),
        deck=0,
        to_move="yellow",
        phase="start_auction",
    )
    assert state.reshuffles == 0
    state = play(state, "yellow: pass", "green: pass", "blue: pass")  # white for 0
    # The next auction (yellow, green, blue, red) must draw: the pile at that
    # moment, including red's discarded card, becomes the deck.
    assert state.auction.bidders == (YELLOW, GREEN, BLUE, RED)
    assert state.reshuffles == 1
    expect(
        state,
        gold=(50,) * 5,
        displays=((), (), (), (), (1, 2, 3, 4)),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )
    assert state.deck == (0,) + tuple(range(5, 40))
    state = play(state, "chance: draw 0")
    assert state.auction.hand_of(YELLOW) == (0,)


def test_refill_draws_from_the_reshuffled_removed_cards_when_the_deck_runs_out():
    state = after_race_one()
    # One card (4) left in the deck; the rest of the deck already discarded.
    state = state._replace(deck=(4,), discard=tuple(range(5, 28)))
    all_cards_accounted(state)
    state = play(state, "blue: remove red:1 yellow:2 green:3 blue:4")
    # Removed 36, 29, 34, 3 go to the pile first.
    assert state.discard == (3,) + tuple(range(5, 28)) + (29, 34, 36)
    assert state.deck == (4,)
    assert state.reshuffles == 0
    state = play(state, "chance: draw 4")  # blue's slot 4; deck now empty
    assert state.reshuffles == 1
    assert state.discard == ()
    assert state.deck == (3,) + tuple(range(5, 28)) + (29, 34, 36)
    # Red may get back the very +5 just removed from its own display.
    state = play(state, "chance: draw 36", "chance: draw 29", "chance: draw 34")
    expect(
        state,
        gold=(70, 60, 55, 50),
        displays=((36, 37, 38, 39), (28, 29, 30, 31), (32, 33, 34, 35), (0, 1, 2, 4)),
        discard=(),
        deck=24,
        to_move="chance",
        phase="substitute_auction",
    )
    assert state.reshuffles == 1


def test_substitute_auctions_for_five_players_discard_the_first_passers_card():
    teams = {
        "red": ["+5"] * 4,  # 36-39
        "yellow": ["+3"] * 4,  # 28-31
        "green": ["+3"] * 4,  # 32-35
        "blue": ["goof"] * 4,  # 0-3
        "white": ["+2"] * 4,  # 14-17
    }
    # Race 1 (to 15), start red. Round 1: 5, 3, 3, -2, 2. Round 2: 10, 6, 6,
    # blue pond, 4. Round 3: red 15 (1st), 9, 9, 6. Round 4: 12, 12, 8.
    # Round 5: yellow 15 (2nd), green 15 (3rd), white 10; white 12, 14, 16.
    # Ranking red, yellow, green, white, blue: blue is last.
    state = racing(teams, start="red")
    state = play(
        state,
        *rolls("red", "yellow", "green", "blue", "white") * 2,
        *rolls("red", "yellow", "green", "white"),
        *rolls("yellow", "green", "white") * 2,
        *rolls("white") * 3,
    )
    expect(
        state,
        gold=(70, 60, 55, 50, 50),
        displays=(
            (36, 37, 38, 39),
            (28, 29, 30, 31),
            (32, 33, 34, 35),
            (0, 1, 2, 3),
            (14, 15, 16, 17),
        ),
        discard=(),
        deck=20,
        to_move="blue",
        phase="removal",
    )
    state = play(state, "blue: remove red:1 yellow:1 green:1 blue:1 white:1")
    # Refill from blue clockwise: blue, white, red, yellow, green.
    state = play(state, *draws(4, 5, 6, 7, 8))
    expect(
        state,
        gold=(70, 60, 55, 50, 50),
        displays=(
            (6, 37, 38, 39),
            (7, 29, 30, 31),
            (8, 33, 34, 35),
            (4, 1, 2, 3),
            (5, 15, 16, 17),
        ),
        discard=(0, 14, 28, 32, 36),
        deck=15,
        to_move="chance",
        phase="substitute_auction",
    )
    assert state.auction.bidders == (BLUE, 4, RED, YELLOW, GREEN)
    state = play(state, *draws(9, 10, 11, 12, 13))
    state = play(state, "blue: pass")  # first passer: card 9 discarded
    assert state.discard == (0, 9, 14, 28, 32, 36)
    state = play(state, "white: pass", "red: pass", "yellow: pass")
    # Nobody bid: green, the last bidder, still decides; bids 2.
    assert who(state) == "green"
    state = play(state, "green: bid 2")
    expect(
        state,
        gold=(70, 60, 53, 50, 50),
        displays=(
            (6, 37, 38, 39),
            (7, 29, 30, 31),
            (10, 11, 12, 13),
            (4, 1, 2, 3),
            (5, 15, 16, 17),
        ),
        discard=(0, 8, 9, 14, 28, 32, 33, 34, 35, 36),
        deck=10,
        to_move="chance",
        phase="substitute_auction",
    )
    # The second is opened by white, the seat after blue.
    assert state.auction.bidders == (4, RED, YELLOW, GREEN, BLUE)
    state = play(state, *draws(18, 19, 20, 21, 22))
    state = play(
        state,
        "white: bid 1",
        "red: pass",  # first passer: card 19 discarded
        "yellow: pass",
        "green: pass",
        "blue: bid 2",
        "white: pass",
    )
    expect(
        state,
        gold=(70, 60, 53, 48, 50),
        displays=(
            (6, 37, 38, 39),
            (7, 29, 30, 31),
            (10, 11, 12, 13),
            (18, 20, 21, 22),
            (5, 15, 16, 17),
        ),
        discard=(0, 1, 2, 3, 4, 8, 9, 14, 19, 28, 32, 33, 34, 35, 36),
        deck=5,
        to_move="yellow",
        phase="race",
    )
    assert state.race.number == 2
    assert state.race.first == YELLOW
