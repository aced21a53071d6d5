"""games.models is a package of small modules; the rest of the code imports
every model from the package itself, so each must be named there."""

from django.apps import apps

import games.models


def test_every_model_of_the_games_app_is_exported_by_games_models():
    exported = {getattr(games.models, name, None) for name in games.models.__all__}
    missing = [model.__name__ for model in apps.get_app_config("games").get_models() if model not in exported]
    assert not missing, f"not exported by games.models: {missing}"


def test_every_name_games_models_exports_exists():
    absent = [name for name in games.models.__all__ if not hasattr(games.models, name)]
    assert not absent, absent
