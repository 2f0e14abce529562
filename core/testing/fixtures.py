"""pytest fixtures for plugin authors' tests. Enable them in a ``conftest.py``::

    pytest_plugins = ["hexwar.core.testing.fixtures"]

This is the only module of :mod:`hexwar.core.testing` that imports pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hexwar.core.testing import make_game


@pytest.fixture
def game_factory() -> Iterator[Callable[..., Any]]:
    """Build games from scenario text or a path: ``game_factory(path_or_text, seed=1, options=())``
    (:func:`hexwar.core.testing.make_game`)."""
    yield make_game


@pytest.fixture
def random_players() -> Callable[[Any, int], dict[str, Any]]:
    """``random_players(game, seed)``: a RandomController for every side of ``game``."""
    from hexwar.core.engine.controllers import RandomController

    def make(game: Any, seed: int = 0) -> dict[str, Any]:
        return {side: RandomController(side, seed) for side in game.state.sides}

    return make
