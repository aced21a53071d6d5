"""The OpenAPI document's schemas: every object the API answers, its
properties, enums read from the engine and the models, and examples made
by the engine (games.selectors.api.document_examples)."""

from __future__ import annotations

from typing import Any

from games.selectors.options import COMPUTER_LEVELS

from .openapi_words import (
    CHANCE_EXAMPLE,
    DECISION_MAX,
    DECISION_REQUEST_EXAMPLES,
    ENTRY_EXAMPLE,
    ERROR_CODES,
    ERROR_EXAMPLES,
    ERROR_MEANING,
    ERROR_STATUS,
    GAME_EXAMPLE,
    SEATS_EXAMPLE,
    VERSION_MAX,
    part_examples,
)


def object_schema(properties: dict, required: list[str] | None = None, **extra) -> dict:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
        **extra,
    }


def _nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _list(items: dict, description: str | None = None) -> dict:
    return {"type": "array", "items": items, **({"description": description} if description else {})}


def _said(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


_STRING = {"type": "string"}
_COUNT = {"type": "integer", "minimum": 0}
_INTEGER = {"type": "integer"}
_VERSION = {"type": "integer", "minimum": 0, "maximum": VERSION_MAX}
_TIME = {"type": "string", "format": "date-time"}
_BOOLEAN = {"type": "boolean"}


def schemas(words: dict[str, list], examples: dict[str, Any]) -> dict:
    colour = {"type": "string", "enum": words["colours"], "description": "A seat, named by its colour."}
    colours = _list(colour)
    code = {
        "type": "string",
        "enum": words["codes"],
        "description": "A bearer card's code: '+1' … '+5' move that many spaces, 'goof' moves back, "
        "'devil' moves and pushes another chair (the rules page says how each plays).",
    }
    card = object_schema({"id": _COUNT, "code": code}, description="A bearer card; 'id' is this card in this game.")
    card_or_hole = _nullable(ref("Card"))
    by_colour = {"type": "object", "propertyNames": colour, "additionalProperties": _INTEGER}
    auction_example, race_example = examples["auction"], examples["race"]
    seat_example = {"position": 0, "colour": examples["colour"], "name": "Anna"}
    decision_example = {
        "kind": "bid",
        "colour": examples["colour"],
        "version": 7,
        "deadline": "2026-12-05T09:00:00+00:00",
        "yours": True,
        "legal": examples["legal"][:6],
    }
    built = {
        "Error": object_schema(
            {
                "error": object_schema(
                    {
                        "code": {
                            "type": "string",
                            "enum": ERROR_CODES,
                            "description": "Stable, for programs. "
                            + " ".join(
                                f"'{code}' ({ERROR_STATUS[code]}): {ERROR_MEANING[code]}" for code in ERROR_CODES
                            ),
                        },
                        "message": _said(_STRING, "For people, in the seat's language; it may change."),
                    }
                ),
                "decided_by": _said(
                    _nullable(ref("HistoryEntry")),
                    "With 'stale_decision' only: the seat's decision that answered the version sent (who made it "
                    "is its 'actor' and 'source'), null when none did.",
                ),
                "current": _said(ref("SeatView"), "With 'stale_decision' only: the seat's view as the game stands."),
            },
            required=["error"],
            description="Every refusal. A refused request changes nothing.",
            examples=ERROR_EXAMPLES,
        ),
        "Game": object_schema(
            {
                "id": _said(_STRING, "The game's public id, as in /games/{game_id}."),
                "status": {"type": "string", "enum": words["game_statuses"]},
                "version": _said(
                    _VERSION,
                    "The number of steps applied so far, every step counted: decisions, chance outcomes and "
                    "out-of-turn arrangements. It is what a history entry's 'seq' and 'after' count.",
                ),
                "decision_version": _said(
                    _VERSION,
                    "The version at which the decision pending became pending: send it with a decision "
                    "(it is the same as decision.version). It equals 'version' except after an arrangement made "
                    "while the decision pends: an arrangement is a step (version + 1) but answers no decision, "
                    "so decision_version stays.",
                ),
                "deadline": _nullable(_TIME),
                "seed_commitment": _said(_STRING, "SHA-256 of the seed, shown from the start."),
                "seed": _said(_nullable(_STRING), "Revealed once the game is over; check it against the commitment."),
            },
            examples=[GAME_EXAMPLE],
        ),
        "Seat": object_schema(
            {
                "position": _COUNT,
                "colour": _nullable(colour),
                "name": _said(_nullable(_STRING), "null until the seat's player has joined."),
                "computer": _said(
                    _nullable({"type": "string", "enum": list(COMPUTER_LEVELS)}), "A computer player's level."
                ),
                "autopilot": _said(_BOOLEAN, "The computer decides for this seat until its player is back."),
            },
            examples=[SEATS_EXAMPLE[0]],
        ),
        "Card": card,
        "Player": object_schema(
            {
                "seat": _COUNT,
                "colour": colour,
                "gold": _INTEGER,
                "display": _list(card_or_hole, "The seat's team, slot 1 first; null is a hole left by a removal."),
                "can_arrange": _said(_BOOLEAN, "Whether this seat may still reorder its team (until the first roll)."),
            }
        ),
        "Auction": object_schema(
            {
                "kind": {"type": "string", "enum": words["auction_kinds"]},
                "number": _said(_COUNT, "1-based within its kind (within one break for substitute auctions)."),
                "bidders": _list(colour, "Bidding order, opener first."),
                "active": _list(colour, "Still in, in bidding order."),
                "face_up": _list(card_or_hole, "The lot's cards everyone sees."),
                "cards_held": _said(by_colour, "How many hidden cards each bidder holds."),
                "high_bid": _nullable(_INTEGER),
                "high_bidder": _nullable(colour),
                "turn": _said(_nullable(colour), "Who bids next; null while the lot is dealt."),
                "discards_left": _said(_COUNT, "How many more passers must discard a card."),
                "my_cards": _said(
                    _nullable(_list(card_or_hole)), "The viewer's own hidden cards; null when the viewer does not bid."
                ),
            },
            description="The auction under way: the lot (face-up cards and the bidders' hidden cards) and the bids.",
        ),
        "Chair": object_schema(
            {
                "position": _said(_INTEGER, "The space; 0 is START."),
                "status": {"type": "string", "enum": words["chair_statuses"]},
            }
        ),
        "LastRoll": object_schema({"colour": colour, "face": _COUNT, "code": code}),
        "Race": object_schema(
            {
                "number": _COUNT,
                "finish": _said(_COUNT, "The finish space of this race."),
                "prizes": _list(_INTEGER, "Gold for 1st, 2nd, 3rd."),
                "first": colour,
                "turn": colour,
                "awaiting": _said(
                    {"type": "string", "enum": words["awaiting"]},
                    "What the race waits for: a seat's roll, the die (chance), a devil's push, or nothing (done).",
                ),
                "rolls": _COUNT,
                "chairs": {
                    "type": "object",
                    "propertyNames": colour,
                    "additionalProperties": ref("Chair"),
                    "description": "The track: each seat's chair.",
                },
                "arrivals": _list(colour, "Finished, in order."),
                "fallen": _list(colour, "In the pond."),
                "last_roll": _nullable(ref("LastRoll")),
            },
            description="The race under way (kept through the break after it, 'awaiting' then 'done').",
        ),
        "Result": object_schema(
            {
                "number": _COUNT,
                "ranking": colours,
                "prizes": _list(_INTEGER),
                "pond": colours,
                "gold": _said(by_colour, "Every seat's gold after this race."),
            }
        ),
        "Observation": object_schema(
            {
                "viewer": _said(_nullable(colour), "The seat this view is for; null for a spectator."),
                "ruleset": {"type": "string", "enum": words["rulesets"]},
                "phase": {"type": "string", "enum": words["phases"]},
                "to_move": _said(
                    _nullable({"anyOf": [colour, {"const": "chance"}]}),
                    "The seat that decides now, 'chance' between a step and its chance outcome, null once over.",
                ),
                "decision": _said(
                    _nullable({"type": "string", "enum": words["decision_kinds"]}),
                    "What the seat to move decides (see Decision.kind).",
                ),
                "start_player": _nullable(colour),
                "players": _list(ref("Player")),
                "deck_size": _COUNT,
                "discard_size": _COUNT,
                "reshuffles": _COUNT,
                "auction": _nullable(ref("Auction")),
                "race": _nullable(ref("Race")),
                "results": _list(ref("Result"), "Every race run so far."),
                "last_placed": _nullable(colour),
                "standings": _said(_nullable(colours), "Best first; only once the game is over."),
            },
            description="What the viewer may know of the game (the engine's observation): teams, gold, the auction "
            "and its lot, the race and its track, results and standings; a spectator sees no secret.",
            examples=[auction_example, race_example],
        ),
        "Decision": object_schema(
            {
                "kind": _said(
                    _nullable({"type": "string", "enum": words["decision_kinds"]}),
                    "bid: 'bid N' or 'pass'; roll: 'roll'; push: 'push <colour>' or 'push none'; remove: "
                    "'remove <colour>:<slot> …' (one per display); chance: the server draws, nobody decides. "
                    "An arrangement is never pending: it is sent out of turn (see SeatView.arrange).",
                ),
                "colour": _said(_nullable(colour), "The seat that decides."),
                "version": _said(_VERSION, "Send this with the decision (game.decision_version)."),
                "deadline": _nullable(_TIME),
                "yours": _BOOLEAN,
                "legal": _list(_STRING, "For the seat that decides only: every decision it may send, in the notation."),
            },
            description="The decision pending.",
            examples=[decision_example],
        ),
        "GameView": object_schema(
            {
                "game": ref("Game"),
                "seats": _list(ref("Seat")),
                "observation": _said(_nullable(ref("Observation")), "null before the game begins."),
                "decision": _said(_nullable(ref("Decision")), "null unless the game is running."),
            },
            examples=[
                {
                    "game": GAME_EXAMPLE,
                    "seats": SEATS_EXAMPLE,
                    "observation": {
                        **auction_example,
                        "viewer": None,
                        "auction": {**auction_example["auction"], "my_cards": None},
                    },
                    "decision": {**decision_example, "yours": False, "legal": []},
                }
            ],
        ),
        "SeatView": object_schema(
            {
                "game": ref("Game"),
                "seats": _list(ref("Seat")),
                "observation": _nullable(ref("Observation")),
                "decision": _nullable(ref("Decision")),
                "seat": object_schema({"position": _COUNT, "colour": _nullable(colour), "name": _STRING}),
                "arrange": object_schema(
                    {"allowed": _BOOLEAN, "codes": _list(code, "The team's order now, slot 1 first.")},
                    description="Whether the seat may reorder its team now, out of turn: send "
                    "'arrange' followed by the codes in the new order, as 'codes' writes them "
                    "(for instance 'arrange +5 +2 +3 goof'), with any version.",
                ),
            },
            examples=[
                {
                    "game": GAME_EXAMPLE,
                    "seats": SEATS_EXAMPLE,
                    "observation": auction_example,
                    "decision": decision_example,
                    "seat": seat_example,
                    "arrange": {"allowed": False, "codes": []},
                }
            ],
        ),
        "HistoryEntry": object_schema(
            {
                "seq": _said(
                    _VERSION,
                    "The game's version right after this step: steps are numbered as the game's version counts "
                    "them. Numbers skip where a chance step showed nothing public (a card dealt face down).",
                ),
                "at": _TIME,
                "actor": _said(
                    {"type": "string", "enum": words["actors"]},
                    "Who decided: the seat's player, chance, the deadline's default, the seat's standing order, "
                    "the autopilot, a computer player, a moderator.",
                ),
                "source": _said(
                    {"type": "string", "enum": words["sources"]},
                    "How it came: the web page, an email reply, the timer, a moderator, the server itself, the API.",
                ),
                "colour": _said(_nullable(colour), "The seat decided for; null for chance."),
                "decision": _said(
                    _nullable(_STRING), "A seat's decision in the notation; null for chance (a drawn card is secret)."
                ),
                "events": _list(
                    {"type": "object", "required": ["type"], "properties": {"type": _STRING}},
                    "What the step did, in public terms. A roll's outcome is the chance step after it.",
                ),
                "text": _list(_STRING, "One sentence per event, in the seat's language."),
            },
            examples=[ENTRY_EXAMPLE, CHANCE_EXAMPLE],
        ),
        "History": object_schema(
            {
                "entries": _list(ref("HistoryEntry")),
                "more": _BOOLEAN,
                "after": _said(_VERSION, "The last entry's seq: ask again with after=<after> while 'more' is true."),
            },
            description="Every decision a seat made, whoever made it for the seat, and every chance step with "
            "something public, oldest first, 200 at a time.",
            examples=[{"entries": [ENTRY_EXAMPLE, CHANCE_EXAMPLE], "more": False, "after": 42}],
        ),
        "DecisionRequest": object_schema(
            {
                "decision": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": DECISION_MAX,
                    "description": "A decision in the notation, as decision.legal lists them: 'bid 12', 'pass', "
                    "'roll', 'push blue', 'push none', 'remove red:3 blue:1', or, out of turn, "
                    "'arrange' and the team's codes in the new order ('arrange +5 +2 +3 goof', as "
                    "arrange.codes writes them).",
                    "examples": ["bid 12", "pass", "roll", "push blue", "arrange +5 +2 +3 goof"],
                },
                "version": _said(
                    _VERSION,
                    "decision.version: the decision this one answers. An arrangement takes any version: it "
                    "answers no pending decision, so it is never stale.",
                ),
            },
            examples=DECISION_REQUEST_EXAMPLES,
        ),
        "DecisionAccepted": object_schema(
            {
                "accepted": _STRING,
                "changed": _said(
                    _BOOLEAN, "False for an arrangement in the order the team already has: nothing was recorded."
                ),
                "game": object_schema(
                    {
                        "status": {"type": "string", "enum": words["game_statuses"]},
                        "version": _VERSION,
                        "decision_version": _VERSION,
                    }
                ),
            },
            examples=[
                {
                    "accepted": "bid 12",
                    "changed": True,
                    "game": {"status": "running", "version": 8, "decision_version": 8},
                }
            ],
        ),
    }
    built["StreamEvent"] = object_schema(
        {
            "version": _said(_VERSION, "The game's version this event shows; it is also the event's id."),
            "view": _said(ref("SeatView"), "The seat's view at that version, as GET /seat answers it."),
            "entries": _list(
                ref("HistoryEntry"),
                "The history entries since the event before (or since Last-Event-ID), oldest first; none in a "
                "first event without Last-Event-ID.",
            ),
            "more": _said(_BOOLEAN, "More entries came than one event carries (200): read /seat/history."),
        },
        description="The data of one event of /seat/events.",
    )
    for name, example in part_examples(auction_example, race_example).items():
        built[name]["examples"] = [example]
    return built
