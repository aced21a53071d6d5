"""The settings of the test run itself: the site's own, except that on
PostgreSQL the test database is emptied with DELETE between tests that
commit (tests/postgresql_delete_flush explains why). Servers, workers and
commands a test starts name the site's settings, versailles_site.settings.
"""

from versailles_site.settings import *  # noqa: F403
from versailles_site.settings import DATABASES

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "tests.postgresql_delete_flush"
