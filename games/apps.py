from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Galopp Royal games")

    def ready(self) -> None:
        # Imported here, once the models are loaded: the receivers and tasks
        # reach the services, which need them.
        from anymail.signals import inbound, tracking

        from games import receivers, tasks  # noqa: F401  (tasks: registered for inline runs too)

        inbound.connect(receivers.on_inbound, dispatch_uid="games.inbound")
        tracking.connect(receivers.on_tracking, dispatch_uid="games.tracking")
