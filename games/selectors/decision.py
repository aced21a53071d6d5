"""What a decision box shows beside its form, so that a player decides
seeing what the decision is about (issue 29): the faces of the team they
roll, where each racing chair would land if the Devil pushed it, and what
winning the lot would cost. Worked out from the ruleset and the seat's own
observation; nothing here is secret from that seat."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.models import ActionRecord, Game
from games.narrate import bearer_name, card_name, movement_words


def _space(ruleset: engine.Ruleset, position: int) -> str:
    if position == ruleset.start_space:
        return _("START")
    return _("space %(space)d") % {"space": position}


def roll_faces(ruleset: engine.Ruleset, observation: dict, colour: str) -> list[dict[str, Any]]:
    """The die's faces in slot order: the bearer each one calls and where it
    would carry the roller's chair."""
    race = observation["race"]
    player = next(p for p in observation["players"] if p["colour"] == colour)
    if race is None:
        return []
    start = race["chairs"][colour]["position"]
    kinds = {kind.code: kind for kind in ruleset.bearers}
    faces = []
    for face, card in enumerate(player["display"], start=1):
        if card is None or card["code"] not in kinds:
            continue
        kind = kinds[card["code"]]
        end, status = engine.landing(ruleset, race["number"], start, kind.move)
        said = movement_words(start, end, status)
        if kind.push:
            said = _("%(movement)s, then may push another racing chair back %(n)d") % {
                "movement": said,
                "n": kind.push,
            }
        faces.append({"face": face, "code": card["code"], "name": card_name(card["code"]), "does": said})
    return faces


def push_targets(ruleset: engine.Ruleset, observation: dict, colour: str) -> list[dict[str, Any]]:
    """Each other racing chair: its space now, and where the Devil's push
    would put it (the shell pond named when it falls in)."""
    race = observation["race"]
    if race is None or race["last_roll"] is None:
        return []
    kinds = {kind.code: kind for kind in ruleset.bearers}
    push = kinds[race["last_roll"]["code"]].push
    targets = []
    for other, chair in race["chairs"].items():
        if other == colour or chair["status"] != "racing":
            continue
        end, status = engine.landing(ruleset, race["number"], chair["position"], -push)
        targets.append(
            {
                "colour": other,
                "now": _space(ruleset, chair["position"]),
                "then": _("into the shell pond") if status == "pond" else _space(ruleset, end),
                "pond": status == "pond",
            }
        )
    return targets


def bid_terms(observation: dict, colour: str) -> dict[str, Any]:
    """What a bid costs: the lowest bid allowed, the seat's gold, and how
    many cards of the lot the other bidders hold unseen."""
    auction = observation["auction"]
    player = next(p for p in observation["players"] if p["colour"] == colour)
    if auction is None:
        return {}
    lowest = engine.lowest_bid(auction["high_bid"])
    hidden = sum(n for who, n in auction["cards_held"].items() if who != colour)
    mine = [card for card in auction["my_cards"] or [] if card]
    face_up = [card for card in auction["face_up"] if card]
    return {
        "lowest": lowest,
        "gold": player["gold"],
        "left_after_lowest": player["gold"] - lowest,
        "hidden": hidden,
        "lot_size": len(mine) + len(face_up) + hidden,
    }


def decision_context(ruleset_json: dict, observation: dict, colour: str) -> dict[str, Any]:
    """The extra things the decision box of ``colour`` shows, by its kind."""
    kind = observation["decision"]
    ruleset = engine.Ruleset.from_json(ruleset_json)
    if kind == "roll":
        return {"roll_faces": roll_faces(ruleset, observation, colour)}
    if kind == "push":
        return {"push_targets": push_targets(ruleset, observation, colour)}
    if kind == "bid":
        return {"bid_terms": bid_terms(observation, colour)}
    return {}


def roll_told(game: Game, colour: str, after_version: int) -> str | None:
    """What the die did for ``colour``'s roll made at decision version
    ``after_version``: "you rolled 3: the Devil carries you forward 2 to
    space 6", for the answer to the click. None if no die fell for it. Read
    from the records the decision just made when the game carries them (no
    query), else from the log."""
    records = getattr(game, "records_made", None)
    if records is None:
        records = list(
            ActionRecord.objects.filter(game_id=game.pk, seq__gt=after_version, actor=ActionRecord.Actor.CHANCE)
            .order_by("seq")
            .only("seq", "actor", "events")[:3]
        )
    for record in records:
        if record.seq <= after_version or record.actor != ActionRecord.Actor.CHANCE:
            continue
        for event in record.events:
            if event.get("type") == "roll" and event.get("colour") == colour:
                return _("you rolled %(face)d: %(bearer)s carries you %(movement)s") % {
                    "face": event["face"],
                    "bearer": bearer_name(event["code"]),
                    "movement": movement_words(event["from"], event["to"], event["status"]),
                }
    return None
