from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from anymail.signals import inbound, tracking

        from games import mail_hooks

        inbound.connect(mail_hooks.on_inbound, dispatch_uid="games.inbound")
        tracking.connect(mail_hooks.on_tracking, dispatch_uid="games.tracking")
