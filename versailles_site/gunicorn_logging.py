"""Gunicorn's access and error logs, with link and reply-address secrets hidden."""

from gunicorn.glogging import Logger

from games.log_filters import HideSeatTokens

# One instance, so that setup() on a configuration reload adds nothing twice.
_hide_secrets = HideSeatTokens()


class RedactingLogger(Logger):
    """The access log prints the request line and the Referer, either of
    which may be a seat link; the error log may name the URL of a request
    that failed. Gunicorn's loggers do not propagate to Django's handlers."""

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.addFilter(_hide_secrets)
