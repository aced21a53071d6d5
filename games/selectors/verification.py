"""Recomputing every chance outcome of a finished game from its revealed seed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import engine
from games.models import ActionRecord, Game
from games.narrate import colour_name
from games.randomness import pick_index


def game_by_reference(reference: str) -> Game | None:
    """The game a command line names, by its public id or else its row id."""
    found = Game.objects.filter(public_id=reference).first()
    if found is None and reference.isdigit():
        found = Game.objects.filter(pk=int(reference)).first()
    return found


def is_over(game: Game) -> bool:
    return game.status == Game.Status.OVER


@dataclass
class Report:
    commitment_matches: bool
    chance_steps: int = 0
    mismatches: list[str] = field(default_factory=list)
    state_matches: bool = False

    @property
    def ok(self) -> bool:
        return self.commitment_matches and self.state_matches and not self.mismatches


def game_verify(*, game: Game) -> Report:
    """Replay the log; at each chance step, check the recorded outcome is the
    one the seed gives. Only meaningful once the seed is revealed (game over)."""
    ruleset = engine.Ruleset.from_json(game.ruleset)
    seed_hash = hashlib.sha256(bytes.fromhex(game.seed)).hexdigest()
    report = Report(commitment_matches=seed_hash == game.seed_commitment)
    seat_colours = list(game.seats.order_by("position").values_list("colour", flat=True))
    colours = [c for c in seat_colours if c]
    if len(colours) != len(seat_colours):
        raise ValueError("a game is verified once every seat has taken a colour")
    state = engine.new_game(ruleset, colours)
    # A plain query, not .iterator(): on PostgreSQL that opens a server-side
    # cursor (DECLARE), and a page view must run nothing but SELECTs.
    for record in ActionRecord.objects.filter(game=game).order_by("seq").only("seq", "seat", "action"):
        try:
            action = engine.parse(record.action, ruleset)
        except engine.NotationError as error:
            report.mismatches.append(
                _("step %(step)d: the log's %(action)r is not an action (%(error)s)")
                % {"step": record.seq, "action": record.action, "error": error.translated(_, colour_name)}
            )
            return report
        if record.seat == engine.CHANCE:
            outcomes = engine.chance_outcomes(state)
            report.chance_steps += 1
            expected = outcomes[pick_index(game.seed, game.public_id, record.seq, len(outcomes))]
            if expected != action:
                report.mismatches.append(
                    _("step %(step)d: log says %(action)r, seed gives %(expected)r")
                    % {"step": record.seq, "action": record.action, "expected": engine.format_action(expected)}
                )
        try:
            state = engine.apply(state, record.seat, action)
        except engine.EngineError as error:
            # A changed log stops fitting the rules; the replay ends here and
            # the final state will not match.
            report.mismatches.append(
                _("step %(step)d: the log's %(action)r cannot be applied here (%(error)s)")
                % {"step": record.seq, "action": record.action, "error": error.translated(_, colour_name)}
            )
            return report
    report.state_matches = engine.state_to_json(state) == game.state
    return report
