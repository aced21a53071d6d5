from django.conf import settings


def site(request):
    # The dev mailbox link shows only where the dev mailbox is in use.
    return {
        "dev_mailbox": settings.DEBUG and settings.EMAIL_BACKEND == "games.devmail.MailboxBackend",
    }
