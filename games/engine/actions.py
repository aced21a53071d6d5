"""Action values and their text notation (shared by web forms and email replies).

Player actions: ``bid 12``, ``pass``, ``roll``, ``push blue``, ``push none``,
``remove red:3 blue:1 green:4``, ``arrange +5 +2 +3 goof``.
Chance outcomes: ``start blue``, ``draw 17`` (a card id), ``die 3``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import NotationError, gettext_noop
from .ruleset import CLASSIC, Ruleset


@dataclass(frozen=True, slots=True)
class Bid:
    amount: int


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Roll:
    pass


@dataclass(frozen=True, slots=True)
class Push:
    colour: str | None


@dataclass(frozen=True, slots=True)
class Remove:
    """One slot (1-based) per display, keyed by the display owner's colour."""

    slots: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Arrange:
    """The new display, slot 1 first, as bearer codes."""

    codes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StartPlayer:
    colour: str


@dataclass(frozen=True, slots=True)
class Draw:
    card: int


@dataclass(frozen=True, slots=True)
class Die:
    face: int


Action = Bid | Pass | Roll | Push | Remove | Arrange | StartPlayer | Draw | Die
CHANCE_ACTIONS = (StartPlayer, Draw, Die)

_MAX_TEXT = 200


def bearer_aliases(ruleset: Ruleset) -> dict[str, str]:
    """Every spelling a player may use for a bearer, mapped to its code."""
    aliases: dict[str, str] = {}
    for bearer in ruleset.bearers:
        aliases[bearer.code.lower()] = bearer.code
        aliases[bearer.code[:1].lower()] = aliases.get(bearer.code[:1].lower(), bearer.code)
    for bearer in ruleset.bearers:
        if bearer.push == 0:
            # Plain movers may be written as their number: "5", "+5", "-2".
            aliases[f"{bearer.move:+d}"] = bearer.code
            if bearer.move > 0:
                aliases[str(bearer.move)] = bearer.code
    # A first letter shared by two codes ("+1", "+2") means nothing on its own.
    for letter in {b.code[:1].lower() for b in ruleset.bearers}:
        if sum(b.code[:1].lower() == letter for b in ruleset.bearers) > 1:
            aliases.pop(letter, None)
    return aliases


def _whole_number(word: str, refusal: str) -> int:
    """``refusal`` is the whole message for a word that is no number, so that
    it translates as one sentence."""
    if not word.isdigit() or not word.isascii():
        raise NotationError(refusal, word=word)
    return int(word)


def _colour(word: str, ruleset: Ruleset) -> str:
    if word not in ruleset.colours:
        raise NotationError(gettext_noop("%(word)r is not a colour (%(colours)s)"), word=word, colours=ruleset.colours)
    return word


def parse(text: str, ruleset: Ruleset = CLASSIC) -> Action:
    """Read one action. Raises NotationError for anything that is not an action."""
    if not isinstance(text, str):
        raise NotationError(gettext_noop("an action must be text"))
    if len(text) > _MAX_TEXT:
        raise NotationError(gettext_noop("that is too long to be an action"))
    words = text.strip().lower().split()
    if not words:
        raise NotationError(gettext_noop("no action given"))
    verb, args = words[0], words[1:]

    def expect_nothing_after() -> None:
        if args:
            raise NotationError(gettext_noop("'%(verb)s' stands alone: nothing may follow it"), verb=verb)

    def expect_one_word() -> None:
        if len(args) != 1:
            raise NotationError(gettext_noop("'%(verb)s' needs exactly one word after it"), verb=verb)

    if verb == "bid":
        expect_one_word()
        return Bid(_whole_number(args[0], gettext_noop("a bid must be a whole number, not %(word)r")))
    if verb == "pass":
        expect_nothing_after()
        return Pass()
    if verb == "roll":
        expect_nothing_after()
        return Roll()
    if verb == "push":
        expect_one_word()
        return Push(None if args[0] in ("none", "nobody", "no") else _colour(args[0], ruleset))
    if verb == "remove":
        if not args:
            raise NotationError(gettext_noop("'remove' needs colour:slot for every display"))
        picks = []
        for arg in args:
            colour, sep, slot = arg.partition(":")
            if not sep:
                raise NotationError(gettext_noop("write each removal as colour:slot, not %(arg)r"), arg=arg)
            picks.append(
                (
                    _colour(colour, ruleset),
                    _whole_number(slot, gettext_noop("a slot must be a whole number, not %(word)r")),
                )
            )
        if len({colour for colour, _ in picks}) != len(picks):
            raise NotationError(gettext_noop("name each display only once"))
        order = ruleset.colours.index
        return Remove(tuple(sorted(picks, key=lambda pick: order(pick[0]))))
    if verb == "arrange":
        aliases = bearer_aliases(ruleset)
        if not args:
            raise NotationError(gettext_noop("'arrange' needs the bearers in their new order"))
        try:
            return Arrange(tuple(aliases[arg] for arg in args))
        except KeyError as missing:
            raise NotationError(gettext_noop("%(word)r is not a bearer"), word=missing.args[0]) from None
    if verb == "start":
        expect_one_word()
        return StartPlayer(_colour(args[0], ruleset))
    if verb == "draw":
        expect_one_word()
        return Draw(_whole_number(args[0], gettext_noop("a card must be a whole number, not %(word)r")))
    if verb == "die":
        expect_one_word()
        return Die(_whole_number(args[0], gettext_noop("a die face must be a whole number, not %(word)r")))
    raise NotationError(gettext_noop("unknown action %(verb)r"), verb=verb)


def format_action(action: Action) -> str:
    """The canonical text of an action; ``parse(format_action(a)) == a``."""
    match action:
        case Bid(amount):
            return f"bid {amount}"
        case Pass():
            return "pass"
        case Roll():
            return "roll"
        case Push(colour):
            return f"push {colour or 'none'}"
        case Remove(slots):
            return "remove " + " ".join(f"{colour}:{slot}" for colour, slot in slots)
        case Arrange(codes):
            return "arrange " + " ".join(codes)
        case StartPlayer(colour):
            return f"start {colour}"
        case Draw(card):
            return f"draw {card}"
        case Die(face):
            return f"die {face}"
    raise TypeError(f"not an action: {action!r}")
