from tests.moderation.conftest import mod_client, moderator  # noqa: F401 - the fixtures
