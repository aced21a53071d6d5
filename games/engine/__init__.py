"""The rules of Galopp Royal, pure: standard library only, no I/O, no clock, no
randomness. Chance is a player whose outcomes the caller chooses."""

from .actions import (
    Action,
    Arrange,
    Bid,
    Die,
    Draw,
    Pass,
    Push,
    Remove,
    Roll,
    StartPlayer,
    format_action,
    parse,
)
from .auction import lowest_bid
from .defaults import default_action
from .errors import EngineError, IllegalAction, NotationError
from .observe import Observation, observe
from .race import landing
from .rules import DecisionKind, apply, can_arrange, chance_outcomes, decision_kind, is_over, legal_actions
from .ruleset import CLASSIC, RULESETS, BearerKind, Ruleset, get_ruleset
from .serialize import log_from_json, log_to_json, replay, state_from_json, state_to_json
from .state import (
    CHANCE,
    HOLE,
    AuctionKind,
    Awaiting,
    ChairStatus,
    Phase,
    State,
    auction_key,
    new_game,
    standings,
    to_move,
)

__all__ = [
    "Action", "Arrange", "Bid", "Die", "Draw", "Pass", "Push", "Remove", "Roll", "StartPlayer",
    "format_action", "parse", "lowest_bid", "default_action", "EngineError", "IllegalAction",
    "NotationError", "Observation", "observe", "landing", "apply", "can_arrange", "chance_outcomes",
    "decision_kind", "is_over", "legal_actions", "CLASSIC", "RULESETS", "BearerKind", "Ruleset",
    "get_ruleset", "log_from_json", "log_to_json", "replay", "state_from_json", "state_to_json",
    "CHANCE", "HOLE", "State", "Phase", "AuctionKind", "ChairStatus", "Awaiting", "DecisionKind",
    "auction_key", "new_game", "standings", "to_move",
]
