from django.conf import settings

from games.selectors.options import LANGUAGE_CHOICES
from versailles_site.env import DEV_MAILBOX_BACKEND

# A switch on these would post the link's secret as "next"; seat pages have
# the seat's own language setting instead.
PRIVATE_PREFIXES = ("/s/", "/u/")


def site(request):
    # The dev mailbox link shows only where the dev mailbox is in use.
    return {
        "dev_mailbox": settings.DEBUG and settings.EMAIL_BACKEND == DEV_MAILBOX_BACKEND,
        "language_choices": LANGUAGE_CHOICES,
        "language_switch": not request.path.startswith(PRIVATE_PREFIXES),
        "follow_seconds": settings.PAGE_FOLLOW_SECONDS,
    }
