"""Set-up: the start player, the start auctions' openers, forming each lot,
and the last start team (docs/rules-notes.md#auctions-and-lots).

Classic card ids: goof 0-5, +1 6-13, +2 14-21, devil 22-27, +3 28-35, +5 36-39.
Every expected value below is worked out by hand from the rules as the rules
page states them (templates/public/rules.html) and docs/rules-notes.md reads them.
"""

from __future__ import annotations

import pytest

from games.engine import CHANCE, CLASSIC, HOLE, IllegalAction, StartPlayer, new_game, observe
from games.engine.rules import chance_outcomes
from games.engine.state import to_move

from .scripting import accounted_cards, new, play

COLOURS = ("red", "yellow", "green", "blue", "white", "black")
RED, YELLOW, GREEN, BLUE, WHITE, BLACK = range(6)
NOBODY_HAS_A_TEAM = ((),) * 6


def who(state) -> str | None:
    seat = to_move(state)
    if seat is None:
        return None
    return "chance" if seat == CHANCE else state.colours[seat]


def all_cards_accounted(state) -> None:
    assert sorted(accounted_cards(state)) == list(range(40))


def expect(state, *, gold, displays, discard, deck, to_move, phase) -> None:
    """Exact public state, plus the 40-card check."""
    assert state.gold == tuple(gold)
    assert state.displays == tuple(tuple(d) for d in displays)
    assert state.discard == tuple(discard)
    assert len(state.deck) == deck
    assert who(state) == to_move
    assert state.phase == phase
    all_cards_accounted(state)


def card(cid: int) -> dict:
    return {"id": cid, "code": CLASSIC.code_of(cid)}


def draws(*ids: int) -> list[str]:
    return [f"chance: draw {i}" for i in ids]


def opener(state) -> str:
    """The opener of the auction now open (its first bidder)."""
    return state.colours[state.auction.bidders[0]]


# --- the start player --------------------------------------------------------


def test_a_new_game_waits_for_chance_to_draw_the_start_player_among_all_seats():
    state = new_game(CLASSIC, ("red", "yellow", "green", "blue", "white"))
    expect(
        state,
        gold=(50,) * 5,
        displays=((),) * 5,
        discard=(),
        deck=40,
        to_move="chance",
        phase="setup",
    )
    assert state.start_player is None
    assert state.auction is None
    assert chance_outcomes(state) == [
        StartPlayer("red"),
        StartPlayer("yellow"),
        StartPlayer("green"),
        StartPlayer("blue"),
        StartPlayer("white"),
    ]


def test_only_chance_draws_the_start_player():
    state = new_game(CLASSIC, ("red", "yellow", "green"))
    with pytest.raises(IllegalAction):
        play(state, "red: start red")
    with pytest.raises(IllegalAction):
        play(state, "red: bid 0")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_start_player_opens_the_first_start_auction_among_everyone(players):
    colours = COLOURS[:players]
    for start in range(players):
        state = new(colours, colours[start])
        assert state.start_player == start
        order = tuple((start + step) % players for step in range(players))
        assert state.auction.bidders == order
        assert state.auction.active == order
        assert state.auction.kind == "start_auction"
        assert state.auction.number == 1
        # The lot is dealt first: chance is to move, nobody has a turn yet.
        expect(
            state,
            gold=(50,) * players,
            displays=((),) * players,
            discard=(),
            deck=40,
            to_move="chance",
            phase="start_auction",
        )
        assert state.auction.turn is None
        # Deal the lot (one card each for k >= 4; 1 face-up + 1 each for k = 3).
        lot_draws = 4 if players == 3 else players
        state = play(state, *draws(*range(lot_draws)))
        assert who(state) == colours[start]
        assert state.auction.turn == start


# --- openers of later start auctions --------------------------------------------


def test_start_auction_openers_with_four_players():
    state = new(COLOURS[:4], "red")
    openers = [opener(state)]
    # Auction 1 (k=4), opened by red: yellow wins at 3.
    state = play(state, *draws(0, 1, 2, 3))
    state = play(state, "red: pass", "yellow: bid 3", "green: pass", "blue: pass")
    expect(
        state,
        gold=(50, 47, 50, 50),
        displays=((), (0, 1, 2, 3), (), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )
    # Red opened and still has no team, yet the next opener is the first seat
    # clockwise after red without a team: yellow has one, so green.
    openers.append(opener(state))
    assert state.auction.bidders == (GREEN, BLUE, RED)
    state = play(state, *draws(4, 5, 6, 7))
    state = play(state, "green: pass", "blue: pass")  # red takes it for 0
    expect(
        state,
        gold=(50, 47, 50, 50),
        displays=((4, 5, 6, 7), (0, 1, 2, 3), (), ()),
        discard=(),
        deck=32,
        to_move="chance",
        phase="start_auction",
    )
    # After green (who still has no team) comes blue.
    openers.append(opener(state))
    assert state.auction.bidders == (BLUE, GREEN)
    state = play(state, *draws(8, 9, 10, 11))
    state = play(state, "blue: pass")  # green takes it for 0
    # Blue is the last without a team: pays 10, draws 12..15; race 1 by red.
    state = play(state, *draws(12, 13, 14, 15))
    expect(
        state,
        gold=(50, 47, 50, 40),
        displays=((4, 5, 6, 7), (0, 1, 2, 3), (8, 9, 10, 11), (12, 13, 14, 15)),
        discard=(),
        deck=24,
        to_move="red",
        phase="race",
    )
    assert openers == ["red", "green", "blue"]


def test_start_auction_openers_with_five_players():
    state = new(COLOURS[:5], "blue")
    openers = [opener(state)]
    # Auction 1 (k=5): blue, white, red, yellow, green; white is the first
    # passer and discards card 1 at once.
    assert state.auction.bidders == (BLUE, WHITE, RED, YELLOW, GREEN)
    state = play(state, *draws(0, 1, 2, 3, 4))
    state = play(
        state, "blue: bid 2", "white: pass", "red: pass", "yellow: pass", "green: pass"
    )
    expect(
        state,
        gold=(50, 50, 50, 48, 50),
        displays=((), (), (), (0, 2, 3, 4), ()),
        discard=(1,),
        deck=35,
        to_move="chance",
        phase="start_auction",
    )
    # Blue opened (and won): next is white.
    openers.append(opener(state))
    assert state.auction.bidders == (WHITE, RED, YELLOW, GREEN)
    state = play(state, *draws(5, 6, 7, 8))
    state = play(state, "white: pass", "red: bid 1", "yellow: pass", "green: pass")
    expect(
        state,
        gold=(49, 50, 50, 48, 50),
        displays=((5, 6, 7, 8), (), (), (0, 2, 3, 4), ()),
        discard=(1,),
        deck=31,
        to_move="chance",
        phase="start_auction",
    )
    # After white comes red, who has a team: yellow opens.
    openers.append(opener(state))
    assert state.auction.bidders == (YELLOW, GREEN, WHITE)
    state = play(state, *draws(9, 10, 11, 12))
    state = play(state, "yellow: pass", "green: pass")  # white takes it for 0
    expect(
        state,
        gold=(49, 50, 50, 48, 50),
        displays=((5, 6, 7, 8), (), (), (0, 2, 3, 4), (9, 10, 11, 12)),
        discard=(1,),
        deck=27,
        to_move="chance",
        phase="start_auction",
    )
    # After yellow (still without a team) comes green.
    openers.append(opener(state))
    assert state.auction.bidders == (GREEN, YELLOW)
    state = play(state, *draws(13, 14, 15, 16))
    state = play(state, "green: bid 5", "yellow: bid 6", "green: pass")
    # Green pays 10 for the last team, cards 17..20; race 1 begun by blue.
    expect(
        state,
        gold=(49, 44, 40, 48, 50),
        displays=((5, 6, 7, 8), (13, 14, 15, 16), (HOLE,) * 4, (0, 2, 3, 4), (9, 10, 11, 12)),
        discard=(1,),
        deck=23,
        to_move="chance",
        phase="last_team",
    )
    state = play(state, *draws(17, 18, 19, 20))
    expect(
        state,
        gold=(49, 44, 40, 48, 50),
        displays=((5, 6, 7, 8), (13, 14, 15, 16), (17, 18, 19, 20), (0, 2, 3, 4), (9, 10, 11, 12)),
        discard=(1,),
        deck=19,
        to_move="blue",
        phase="race",
    )
    assert openers == ["blue", "white", "yellow", "green"]


def test_start_auction_openers_with_six_players():
    state = new(COLOURS, "black")
    openers = [opener(state)]
    # Auction 1 (k=6): black, red, yellow, green, blue, white. The first two
    # passers (black, red) discard; yellow's and green's cards stay in the lot.
    assert state.auction.bidders == (BLACK, RED, YELLOW, GREEN, BLUE, WHITE)
    state = play(state, *draws(0, 1, 2, 3, 4, 5))
    state = play(
        state,
        "black: pass",
        "red: pass",
        "yellow: pass",
        "green: pass",
        "blue: bid 0",
        "white: pass",
    )
    expect(
        state,
        gold=(50,) * 6,
        displays=((), (), (), (2, 3, 4, 5), (), ()),
        discard=(0, 1),
        deck=34,
        to_move="chance",
        phase="start_auction",
    )
    # After black comes red (no team).
    openers.append(opener(state))
    assert state.auction.bidders == (RED, YELLOW, GREEN, WHITE, BLACK)
    state = play(state, *draws(6, 7, 8, 9, 10))
    state = play(
        state,
        "red: bid 4",
        "yellow: pass",  # first passer of k=5: discards 7
        "green: pass",
        "white: pass",
        "black: bid 5",
        "red: pass",
    )
    expect(
        state,
        gold=(50, 50, 50, 50, 50, 45),
        displays=((), (), (), (2, 3, 4, 5), (), (6, 8, 9, 10)),
        discard=(0, 1, 7),
        deck=29,
        to_move="chance",
        phase="start_auction",
    )
    # After red comes yellow.
    openers.append(opener(state))
    assert state.auction.bidders == (YELLOW, GREEN, WHITE, RED)
    state = play(state, *draws(11, 12, 13, 14))
    state = play(state, "yellow: pass", "green: pass", "white: pass")  # red for 0
    # After yellow comes green.
    openers.append(opener(state))
    assert state.auction.bidders == (GREEN, WHITE, YELLOW)
    state = play(state, *draws(15, 16, 17, 18))
    # Green bids all 50: white and yellow cannot raise and pass automatically.
    state = play(state, "green: bid 50")
    expect(
        state,
        gold=(50, 50, 0, 50, 50, 45),
        displays=((11, 12, 13, 14), (), (15, 16, 17, 18), (2, 3, 4, 5), (), (6, 8, 9, 10)),
        discard=(0, 1, 7),
        deck=21,
        to_move="chance",
        phase="start_auction",
    )
    # After green: blue has a team, so white.
    openers.append(opener(state))
    assert state.auction.bidders == (WHITE, YELLOW)
    state = play(state, *draws(19, 20, 21, 22))
    state = play(state, "white: pass")  # yellow for 0
    state = play(state, *draws(23, 24, 25, 26))  # white's last team
    expect(
        state,
        gold=(50, 50, 0, 50, 40, 45),
        displays=(
            (11, 12, 13, 14),
            (19, 20, 21, 22),
            (15, 16, 17, 18),
            (2, 3, 4, 5),
            (23, 24, 25, 26),
            (6, 8, 9, 10),
        ),
        discard=(0, 1, 7),
        deck=13,
        to_move="black",
        phase="race",
    )
    assert openers == ["black", "red", "yellow", "green", "white"]


# --- forming the lot -----------------------------------------------------------


def assert_secret_hands(state, colours) -> None:
    """Each bidder sees only their own drawn cards; a spectator sees none."""
    auction = state.auction
    for seat, _colour in enumerate(colours):
        view = observe(state, seat)["auction"]
        if seat in auction.bidders:
            assert view["my_cards"] == [card(c) for c in auction.hand_of(seat)]
        else:
            assert view["my_cards"] is None
        # Nobody's view names another bidder's card.
        for other in auction.bidders:
            if other != seat:
                for c in auction.hand_of(other):
                    assert card(c) not in (view["my_cards"] or []) + view["face_up"]
    spectator = observe(state, None)["auction"]
    assert spectator["my_cards"] is None
    assert spectator["cards_held"] == {
        colours[s]: len(h) for s, h in zip(auction.bidders, auction.hands, strict=True)
    }


def test_lot_for_six_bidders_one_card_each_and_the_first_two_passers_discard():
    colours = COLOURS
    state = new(colours, "red")
    dealt = [36, 0, 14, 28, 22, 6]  # +5, goof, +2, +3, devil, +1
    for i, cid in enumerate(dealt):
        state = play(state, f"chance: draw {cid}")
        # Bidding order from the opener: red, yellow, green, blue, white, black.
        assert state.auction.hands == tuple((dealt[j],) if j <= i else () for j in range(6))
        assert state.auction.face_up == ()
        assert_secret_hands(state, colours)
        all_cards_accounted(state)
    assert who(state) == "red"
    state = play(state, "red: bid 1", "yellow: pass")
    # First passer: yellow's goof goes onto the discard pile at once.
    expect(
        state, gold=(50,) * 6, displays=NOBODY_HAS_A_TEAM, discard=(0,), deck=34,
        to_move="green", phase="start_auction",
    )
    assert state.auction.hand_of(YELLOW) == ()
    state = play(state, "green: pass")
    expect(
        state, gold=(50,) * 6, displays=NOBODY_HAS_A_TEAM, discard=(0, 14), deck=34,
        to_move="blue", phase="start_auction",
    )
    # The third passer keeps the card in the lot.
    state = play(state, "blue: pass")
    expect(
        state, gold=(50,) * 6, displays=NOBODY_HAS_A_TEAM, discard=(0, 14), deck=34,
        to_move="white", phase="start_auction",
    )
    assert state.auction.hand_of(BLUE) == (28,)
    state = play(state, "white: bid 2", "black: pass", "red: pass")
    # Lot in dealt order, skipping the discarded cards: red, blue, white, black.
    expect(
        state,
        gold=(50, 50, 50, 50, 48, 50),
        displays=((), (), (), (), (36, 28, 22, 6), ()),
        discard=(0, 14),
        deck=34,
        to_move="chance",
        phase="start_auction",
    )


def test_lot_for_five_bidders_one_card_each_and_only_the_first_passer_discards():
    colours = COLOURS[:5]
    state = new(colours, "green")
    assert state.auction.bidders == (GREEN, BLUE, WHITE, RED, YELLOW)
    dealt = [39, 38, 1, 2, 15]
    for i, cid in enumerate(dealt):
        state = play(state, f"chance: draw {cid}")
        assert state.auction.hands == tuple((dealt[j],) if j <= i else () for j in range(5))
        assert_secret_hands(state, colours)
    assert state.auction.discards_left == 1
    state = play(state, "green: pass")
    expect(
        state, gold=(50,) * 5, displays=((),) * 5, discard=(39,), deck=35,
        to_move="blue", phase="start_auction",
    )
    state = play(state, "blue: pass")
    expect(
        state, gold=(50,) * 5, displays=((),) * 5, discard=(39,), deck=35,
        to_move="white", phase="start_auction",
    )
    state = play(state, "white: bid 10", "red: bid 11", "yellow: pass", "white: pass")
    expect(
        state,
        gold=(39, 50, 50, 50, 50),
        displays=((38, 1, 2, 15), (), (), (), ()),
        discard=(39,),
        deck=35,
        to_move="chance",
        phase="start_auction",
    )


def test_lot_for_four_bidders_one_card_each_nothing_discarded():
    colours = COLOURS[:4]
    state = new(colours, "blue")
    assert state.auction.bidders == (BLUE, RED, YELLOW, GREEN)
    dealt = [22, 36, 0, 28]
    for i, cid in enumerate(dealt):
        state = play(state, f"chance: draw {cid}")
        assert state.auction.hands == tuple((dealt[j],) if j <= i else () for j in range(4))
        assert_secret_hands(state, colours)
    assert state.auction.discards_left == 0
    state = play(state, "blue: pass")
    expect(
        state, gold=(50,) * 4, displays=((),) * 4, discard=(), deck=36,
        to_move="red", phase="start_auction",
    )
    state = play(state, "red: pass", "yellow: bid 7", "green: pass")
    expect(
        state,
        gold=(50, 43, 50, 50),
        displays=((), (22, 36, 0, 28), (), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )


def test_lot_for_three_bidders_one_face_up_card_then_one_card_each():
    colours = COLOURS[:3]
    state = new(colours, "yellow")
    assert state.auction.bidders == (YELLOW, GREEN, RED)
    state = play(state, "chance: draw 39")
    assert state.auction.face_up == (39,)
    assert state.auction.hands == ((), (), ())
    # The face-up card is public: the spectator and every seat see it.
    assert observe(state, None)["auction"]["face_up"] == [card(39)]
    for seat in range(3):
        assert observe(state, seat)["auction"]["face_up"] == [card(39)]
    assert who(state) == "chance"
    dealt = [0, 14, 22]
    for i, cid in enumerate(dealt):
        state = play(state, f"chance: draw {cid}")
        assert state.auction.hands == tuple((dealt[j],) if j <= i else () for j in range(3))
        assert_secret_hands(state, colours)
        all_cards_accounted(state)
    assert who(state) == "yellow"
    state = play(state, "yellow: pass", "green: bid 2", "red: bid 3", "green: pass")
    # Dealt order: the face-up card, then yellow's, green's, red's.
    expect(
        state,
        gold=(47, 50, 50),
        displays=((39, 0, 14, 22), (), ()),
        discard=(),
        deck=36,
        to_move="chance",
        phase="start_auction",
    )


def test_lot_for_two_bidders_opener_draws_two_then_the_other_draws_two():
    colours = COLOURS[:3]
    state = new(colours, "yellow")
    state = play(state, *draws(39, 0, 14, 22))
    state = play(state, "yellow: pass", "green: pass")  # red takes it for 0
    # Next opener: green, the first seat after yellow without a team.
    assert state.auction.bidders == (GREEN, YELLOW)
    assert state.auction.number == 2
    expected_hands = [((28,), ()), ((28, 29), ()), ((28, 29), (6,)), ((28, 29), (6, 7))]
    for cid, hands in zip([28, 29, 6, 7], expected_hands, strict=True):
        assert who(state) == "chance"
        state = play(state, f"chance: draw {cid}")
        assert state.auction.hands == hands
        assert state.auction.face_up == ()
        assert_secret_hands(state, colours)
        all_cards_accounted(state)
    assert observe(state, GREEN)["auction"]["my_cards"] == [card(28), card(29)]
    assert observe(state, YELLOW)["auction"]["my_cards"] == [card(6), card(7)]
    assert observe(state, RED)["auction"]["my_cards"] is None
    assert who(state) == "green"
    state = play(state, "green: pass")  # yellow takes it for 0
    # Then green pays 10 for the last team.
    expect(
        state,
        gold=(50, 50, 40),
        displays=((39, 0, 14, 22), (28, 29, 6, 7), (HOLE,) * 4),
        discard=(),
        deck=32,
        to_move="chance",
        phase="last_team",
    )


# --- the last start team ------------------------------------------------------------


def test_last_team_pays_ten_and_takes_the_next_four_cards_in_draw_order():
    colours = COLOURS[:3]
    state = new(colours, "green")
    assert state.auction.bidders == (GREEN, RED, YELLOW)
    state = play(state, *draws(0, 1, 2, 3))
    state = play(state, "green: pass", "red: pass")  # yellow: lot for 0
    assert state.auction.bidders == (RED, GREEN)
    state = play(state, *draws(4, 5, 6, 7))
    state = play(state, "red: bid 2", "green: bid 3", "red: pass")
    # Red is the only one without a team: pays 10 at once, then draws four.
    expect(
        state,
        gold=(40, 50, 47),
        displays=((HOLE,) * 4, (0, 1, 2, 3), (4, 5, 6, 7)),
        discard=(),
        deck=32,
        to_move="chance",
        phase="last_team",
    )
    assert state.auction is None
    state = play(state, "chance: draw 39", "chance: draw 8")
    expect(
        state,
        gold=(40, 50, 47),
        displays=((39, 8, HOLE, HOLE), (0, 1, 2, 3), (4, 5, 6, 7)),
        discard=(),
        deck=30,
        to_move="chance",
        phase="last_team",
    )
    state = play(state, "chance: draw 22", "chance: draw 28")
    # Race 1 begins at once, begun by the start player (green).
    expect(
        state,
        gold=(40, 50, 47),
        displays=((39, 8, 22, 28), (0, 1, 2, 3), (4, 5, 6, 7)),
        discard=(),
        deck=28,
        to_move="green",
        phase="race",
    )
    assert state.race.number == 1
    assert state.race.first == GREEN
    assert state.race.positions == (0, 0, 0)
    assert state.race.status == ("racing",) * 3
    assert observe(state, None)["race"]["finish"] == 15
