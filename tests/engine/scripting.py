"""Helpers that let engine tests script a game line by line.

A line is "<who>: <action>", who being a colour or "chance":
    red: bid 5
    chance: draw +3      (a card may be named by its code: the lowest free id of that code)
"""

from __future__ import annotations

from games.engine import CHANCE, CLASSIC, Draw, apply, new_game, parse
from games.engine.race import begin_race
from games.engine.state import State


def cards_of(code: str, ruleset=CLASSIC) -> list[int]:
    """Ids of every card with that code, lowest first."""
    return [c for c in range(ruleset.deck_size) if ruleset.code_of(c) == code]


def free_card(state: State, code: str) -> int:
    """The lowest-numbered card of ``code`` still in the deck."""
    for card in state.deck:
        if state.ruleset.code_of(card) == code:
            return card
    raise AssertionError(f"no {code} left in the deck")


def do(state: State, line: str) -> State:
    who, _, text = line.partition(":")
    who, text = who.strip(), text.strip()
    seat = CHANCE if who == "chance" else state.colours.index(who)
    if seat == CHANCE and text.startswith("draw ") and not text[5:].strip().isdigit():
        return apply(state, CHANCE, Draw(free_card(state, text[5:].strip())))
    return apply(state, seat, parse(text, state.ruleset))


def play(state: State, *lines: str) -> State:
    for line in lines:
        for part in line.split(";"):
            if part.strip():
                state = do(state, part)
    return state


def new(colours=("red", "yellow", "green", "blue"), start="red", ruleset=CLASSIC) -> State:
    """A new game with the start player drawn."""
    return play(new_game(ruleset, colours), f"chance: start {start}")


def racing(
    displays: dict[str, list[str]],
    start: str | None = None,
    race: int = 1,
    gold: dict[str, int] | None = None,
    ruleset=CLASSIC,
) -> State:
    """A consistent state at the first roll of race ``race``: each colour's
    display given as codes, every other card in the deck, races before it run
    (with empty results), start player ``start`` (default: the first colour)."""
    colours = tuple(displays)
    state = new_game(ruleset, colours)
    deck = list(state.deck)
    built = []
    for colour in colours:
        team = []
        for code in displays[colour]:
            card = next(c for c in deck if ruleset.code_of(c) == code)
            deck.remove(card)
            team.append(card)
        built.append(tuple(team))
    money = tuple((gold or {}).get(c, ruleset.starting_gold) for c in colours)
    state = state._replace(
        start_player=colours.index(start or colours[0]),
        displays=tuple(built),
        deck=tuple(deck),
        gold=money,
    )
    return begin_race(state, race)


def accounted_cards(state: State) -> list[int]:
    """Every card somewhere: deck, discard, displays, auction lot and hands."""
    cards = list(state.deck) + list(state.discard)
    for display in state.displays:
        cards.extend(c for c in display if c >= 0)
    if state.auction is not None:
        cards.extend(state.auction.lot())
    return cards


ALL_CARDS = list(range(40))


def run(state: State, *items: str) -> State:
    """Play ``items``: "red 3" is red's turn (roll, then the die shows 3);
    anything with a colon is one scripted line. Checks the cards after every step."""
    for item in items:
        if ":" in item:
            lines = [item]
        else:
            colour, face = item.split()
            lines = [f"{colour}: roll", f"chance: die {face}"]
        for line in lines:
            state = do(state, line)
            assert sorted(accounted_cards(state)) == ALL_CARDS
    return state


def rounds(count: int, *items: str) -> list[str]:
    return list(items) * count
