"""Feed one raw email (a reply) through the same path the inbound webhook uses."""

import sys

from django.core.management.base import BaseCommand

from games.services.inbound import inbound_process, inbound_store


class Command(BaseCommand):
    help = "Reads a raw email from standard input and processes it as an inbound reply."

    def handle(self, *args, **options):
        data = sys.stdin.buffer.read()
        raw = data.decode("utf-8", "replace")
        stored = inbound_store(raw=raw, enqueue=False)
        if stored is None:
            self.stdout.write("this message was received before; nothing to do")
            return
        status = inbound_process(inbound_id=stored.pk)
        stored.refresh_from_db()
        self.stdout.write(f"{status}: {stored.result}")
