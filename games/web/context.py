from django.conf import settings

from versailles_site.env import DEV_MAILBOX_BACKEND


def site(request):
    # The dev mailbox link shows only where the dev mailbox is in use.
    return {
        "dev_mailbox": settings.DEBUG and settings.EMAIL_BACKEND == DEV_MAILBOX_BACKEND,
    }
