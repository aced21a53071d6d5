"""Play a whole game with simple automatic players and print what happened."""

from __future__ import annotations

import random

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from games.engine import apply, get_ruleset, is_over, new_game, to_move
from games.engine.events import events
from games.narrate import describe
from games.players.autoplay import sensible_action

# Without --verbose the account keeps to money, placings and mishaps.
_HEADLINES = {
    "start_player",
    "auction_open",
    "auction_won",
    "unsold",
    "last_team",
    "race_start",
    "race_over",
    "remove",
    "game_over",
}


def _is_headline(event: dict) -> bool:
    if event["type"] in _HEADLINES:
        return True
    # Falling into the pond is news even in the short account.
    return event["type"] in ("roll", "push") and event.get("status") == "pond"


class Command(BaseCommand):
    help = "Plays a complete game with automatic players and prints an account of it."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--ruleset", default="classic")
        parser.add_argument("--verbose", action="store_true", help="print every bid and roll too")

    def handle(self, *args, players, seed, ruleset, verbose, **options):
        try:
            rules = get_ruleset(ruleset)
        except KeyError as error:
            raise CommandError(str(error)) from None
        if not rules.min_players <= players <= rules.max_players:
            raise CommandError(
                _("%(name)s is for %(low)d to %(high)d players")
                % {"name": rules.name, "low": rules.min_players, "high": rules.max_players}
            )

        rng = random.Random(seed)
        state = new_game(rules, rules.colours[:players])
        steps = 0
        while not is_over(state):
            seat = to_move(state)
            action = sensible_action(state, rng)
            if seat is None or action is None:
                raise CommandError(f"a game that is not over has nobody to move at step {steps}")
            after = apply(state, seat, action)
            for event in events(state, seat, action, after):
                if verbose or _is_headline(event):
                    self._print(event)
            state = after
            steps += 1
        self.stdout.write(_("(%(steps)d steps, seed %(seed)d)") % {"steps": steps, "seed": seed})

    def _print(self, event: dict) -> None:
        text = describe(event)
        if event["type"] in ("race_start", "auction_open", "game_over"):
            self.stdout.write("")
        if event["type"] == "game_over":
            self.stdout.write(self.style.SUCCESS(text))
        else:
            self.stdout.write(text)
