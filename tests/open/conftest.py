from tests.moderation.conftest import _fast_passwords, mod_client, moderator  # noqa: F401 - the fixtures
