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

    def handle(self, *args, username, email, password, **options):
        if password is None:
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("the passwords differ")
        if len(password) < 8:
            raise CommandError("use at least 8 characters")
        user, created = User.objects.get_or_create(username=username, defaults={"email": email})
        user.is_staff = True
        user.set_password(password)
        if email:
            user.email = email
        user.save()
        user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
        self.stdout.write(f"{'created' if created else 'updated'} moderator {username}")
