"""Gunicorn settings: gunicorn -c versailles_site/gunicorn_conf.py versailles_site.wsgi

Only what keeps secrets out of the logs is set here; bind, workers and the
rest come from the command line or GUNICORN_CMD_ARGS, which override this.
"""

# Named rather than imported: gunicorn loads it once the working directory
# (the project) is on the import path.
logger_class = "versailles_site.gunicorn_logging.RedactingLogger"
# Off by default in gunicorn; on so operators see requests (with links hidden).
accesslog = "-"
