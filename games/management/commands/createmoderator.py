"""Create (or promote) a moderator: a staff user in the moderators group."""

import getpass
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.selectors.moderation import user_exists
from games.services.moderation import moderator_make

# Said instead of a traceback when there is nobody to ask (a script, a
# container's exec without -t, a CI job).
NO_TERMINAL = (
    "no terminal to ask for the password; nothing was changed. Pass it with --password-file FILE "
    "(its first line), --password-file - (the first line of standard input, e.g. "
    "`printf '%s\\n' \"$PASSWORD\" | manage.py createmoderator NAME --password-file -`), or --password."
)


class Command(BaseCommand):
    help = "Creates a moderator who signs in with a password at /mod/."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--password", help="the password itself (other users of the machine may see it); otherwise you are asked"
        )
        parser.add_argument(
            "--password-file", metavar="FILE",
            help="read the password from the first line of FILE; '-' reads it from standard input",
        )
        parser.add_argument(
            "--reset-password", action="store_true",
            help="replace the password of an existing user (otherwise an existing user keeps theirs)",
        )

    def handle(self, *args, username, email, password, password_file, reset_password, **options):
        if password is not None and password_file:
            raise CommandError("give --password or --password-file, not both; nothing was changed")
        if password_file:
            password = _first_line(password_file)
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
                password = _ask()
            if len(password) < 8:
                raise CommandError("use at least 8 characters")
        created = moderator_make(username=username, email=email, password=password if change_password else None)
        done = "created" if created else "updated"
        kept = "" if change_password else " (password unchanged)"
        self.stdout.write(f"{done} moderator {username}{kept}")


def _first_line(path: str) -> str:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read the password file: {error.strerror}; nothing was changed") from None
    line = text.splitlines()[0] if text else ""
    if not line:
        raise CommandError("the password file's first line is empty; nothing was changed")
    return line


def _ask() -> str:
    if not sys.stdin.isatty():
        raise CommandError(NO_TERMINAL)
    try:
        password = getpass.getpass("Password: ")
        again = getpass.getpass("Password (again): ")
    except EOFError:
        raise CommandError(NO_TERMINAL) from None
    if password != again:
        raise CommandError("the passwords differ")
    return password
