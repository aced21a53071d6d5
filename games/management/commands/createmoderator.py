"""Create (or promote) a moderator: a staff user in the moderators group."""

import getpass

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError

from games.services.moderation import MODERATORS_GROUP


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
        user = User.objects.filter(username=username).first()
        # A typo in the name must not silently take over someone's account.
        if user is not None and password is not None and not reset_password:
            raise CommandError(
                f"user {username} already exists; nothing was changed. To replace their password, "
                "add --reset-password; to make them a moderator with their own password, leave out --password."
            )
        change_password = user is None or reset_password
        if change_password:
            if password is None:
                password = getpass.getpass("Password: ")
                if password != getpass.getpass("Password (again): "):
                    raise CommandError("the passwords differ")
            if len(password) < 8:
                raise CommandError("use at least 8 characters")
        created = user is None
        if user is None:
            user = User(username=username, email=email)
        user.is_staff = True
        if change_password:
            user.set_password(password)
        if email:
            user.email = email
        user.save()
        user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
        done = "created" if created else "updated"
        kept = "" if change_password else " (password unchanged)"
        self.stdout.write(f"{done} moderator {username}{kept}")
