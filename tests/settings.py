"""The settings of the test run itself: the site's own, except that on
PostgreSQL the test database is emptied with DELETE between tests that
commit (tests/postgresql_delete_flush explains why), and passwords are
hashed by Django's fastest hasher, as Django's own testing documentation
advises: the site's takes half a second a password on purpose, and every
moderator a test makes or signs in paid it. The site's hashers stay on the
list, so a password a command or server of the site set still checks.
Servers, workers and commands a test starts name the site's settings,
versailles_site.settings.
"""

from django.conf import global_settings

from versailles_site.settings import *  # noqa: F403
from versailles_site.settings import DATABASES

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "tests.postgresql_delete_flush"

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
