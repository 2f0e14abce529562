# hexwar's pytest fixtures for plugin authors: game_factory, random_players
pytest_plugins = ["hexwar.core.testing.fixtures"]
