"""Create (or promote) a moderator: a staff user in the moderators group."""

import getpass

from django.core.management.base import BaseCommand, CommandError

from games.selectors.moderation import user_exists
from games.services.moderation import moderator_make


class Command(BaseCommand):
    help = "Creates a moderator who signs in with a password at /mod/."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--password", help="for scripts; otherwise you are asked")
        parser.add_argument(
            "--reset-password", action="store_true",
            help="replace the password of an existing user (otherwise an existing user keeps theirs)",
        )

    def handle(self, *args, username, email, password, reset_password, **options):
        exists = user_exists(username)
        # A typo in the name must not silently take over someone's account.
        if exists and password is not None and not reset_password:
            raise CommandError(
                f"user {username} already exists; nothing was changed. To replace their password, "
                "add --reset-password; to make them a moderator with their own password, leave out --password."
            )
        change_password = not exists or reset_password
        if change_password:
            if password is None:
                password = getpass.getpass("Password: ")
                if password != getpass.getpass("Password (again): "):
                    raise CommandError("the passwords differ")
            if len(password) < 8:
                raise CommandError("use at least 8 characters")
        created = moderator_make(username=username, email=email, password=password if change_password else None)
        done = "created" if created else "updated"
        kept = "" if change_password else " (password unchanged)"
        self.stdout.write(f"{done} moderator {username}{kept}")
