"""Recompute every die roll and draw of a finished game from its revealed seed."""

from django.core.management.base import BaseCommand, CommandError

from games.selectors.verification import game_by_reference, game_verify, is_over


class Command(BaseCommand):
    help = "Checks a finished game's chance outcomes against its revealed seed."

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's public id (as in its spectator link)")

    def handle(self, *args, game, **options):
        found = game_by_reference(game)
        if found is None:
            raise CommandError(f"no game {game!r}")
        if not is_over(found):
            raise CommandError("the seed is revealed only when the game is over")
        report = game_verify(game=found)
        self.stdout.write(f"seed:        {found.seed}")
        self.stdout.write(
            f"commitment:  {found.seed_commitment} ({'matches' if report.commitment_matches else 'DOES NOT MATCH'})"
        )
        self.stdout.write(f"chance steps recomputed: {report.chance_steps}")
        for line in report.mismatches:
            self.stdout.write(self.style.ERROR(line))
        self.stdout.write(f"final state {'matches' if report.state_matches else 'DOES NOT MATCH'} the stored state")
        if not report.ok:
            raise CommandError("verification failed")
        self.stdout.write(self.style.SUCCESS("every chance outcome follows from the seed"))
