"""The base of a system's typed facade over its own hooks.

A system declares its own hooks (``firefight_fire_modifiers``...) in a hookspecs module and calls
them only through a subclass of :class:`SystemHooks`, one method per hook, named as the hook
without the system's prefix::

    class FirefightHooks(SystemHooks):
        specs = hookspecs
        prefix = "firefight_"

        def fire_modifiers(self, attack: Attack) -> list[Modifier]:
            hook = self.hook.firefight_fire_modifiers
            if hook not in self.live:
                return []
            return collect(hook(game=self.game, attack=attack))

    FirefightHooks.of(game).fire_modifiers(attack)

The facade is built once per game (it lives in the game's stash) and knows which hooks some
enabled plugin implements (:attr:`SystemHooks.live`), so a hot path skips a hook no one
implements at the cost of one set lookup. A subclass that lacks a method for one of its specs, or
has a method for a hook that is not specified, is a ``TypeError`` when the class is defined: the
facade is the complete list of the hooks the system calls (:meth:`SystemHooks.called`), which
``check_plugin_contract`` uses to warn about a rule implementing a hook its system never calls.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from hexwar.core.kit.stash import StashKey
from hexwar.core.markers import PROJECT

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

F = TypeVar("F", bound="SystemHooks")
_SPEC_MARK = f"{PROJECT}_spec"  # the attribute pluggy's HookspecMarker sets on a spec


def spec_names(specs: ModuleType, prefix: str) -> list[str]:
    """The hooks a hookspecs module declares with ``prefix``, in definition order."""
    return [n for n, obj in vars(specs).items()
            if n.startswith(prefix) and inspect.isfunction(obj) and hasattr(obj, _SPEC_MARK)]


class SystemHooks:
    """Typed calls into one system's own hooks for one game."""

    #: the module with the system's hook specifications
    specs: ClassVar[ModuleType]
    #: the prefix of the system's hooks, ``"firefight_"``
    prefix: ClassVar[str]
    #: where :meth:`of` keeps the facade in ``game.stash`` (one key per facade class)
    _key: ClassVar[StashKey[Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "specs") and not hasattr(cls, "prefix"):
            return  # an abstract intermediate class
        if not isinstance(getattr(cls, "specs", None), ModuleType) or not getattr(cls, "prefix", ""):
            raise TypeError(f"{cls.__name__} needs both 'specs' (the hookspecs module) and "
                            "'prefix' (such as 'firefight_')")
        hooks = spec_names(cls.specs, cls.prefix)
        if not hooks:
            raise TypeError(f"{cls.specs.__name__} specifies no hook named {cls.prefix}...")
        methods = _public_methods(cls)
        missing = [h for h in hooks if h.removeprefix(cls.prefix) not in methods]
        if missing:
            raise TypeError(f"{cls.__name__} has no method for hook(s) {', '.join(missing)}")
        stray = sorted(methods - {h.removeprefix(cls.prefix) for h in hooks})
        if stray:
            raise TypeError(f"{cls.__name__} has method(s) {', '.join(stray)} for no hook of "
                            f"{cls.specs.__name__} (helpers are named with a leading '_')")
        cls._key = StashKey(f"{cls.__module__}.{cls.__qualname__}")

    def __init__(self, game: Game) -> None:
        self.game = game
        #: the manager's hook relay: ``self.hook.firefight_fire_modifiers``
        self.hook: Any = game.pm.hook
        live = set()
        for name in spec_names(self.specs, self.prefix):
            caller = getattr(self.hook, name, None)
            if caller is not None and caller.get_hookimpls():
                live.add(caller)
        #: the hook callers that some enabled plugin implements
        self.live: frozenset[Any] = frozenset(live)

    @classmethod
    def of(cls: type[F], game: Game) -> F:
        """The facade of ``game``, built on first use."""
        # the stash's dict itself: a system's helpers ask for their facade at every rule
        facade: F | None = game.stash._data.get(cls._key)  # type: ignore[assignment]
        if facade is None:
            facade = cls(game)
            game.stash[cls._key] = facade
        return facade

    @classmethod
    def called(cls) -> frozenset[str]:
        """The full names of the hooks this system calls (every one it specifies)."""
        return frozenset(spec_names(cls.specs, cls.prefix))

    def implemented(self) -> frozenset[str]:
        """The names of this system's hooks that some enabled plugin implements."""
        return frozenset(c.name for c in self.live)


def _public_methods(cls: type[SystemHooks]) -> set[str]:
    """The public plain methods ``cls`` defines or inherits below :class:`SystemHooks`."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is SystemHooks or not issubclass(klass, SystemHooks):
            continue
        names |= {n for n, v in vars(klass).items()
                  if inspect.isfunction(v) and not n.startswith("_")}
    return names


def collect(results: Iterable[Iterable[Any] | None]) -> list[Any]:
    """The results of every implementation of a list-returning hook, in one list."""
    out: list[Any] = []
    for r in results:
        if r:
            out.extend(r)
    return out
