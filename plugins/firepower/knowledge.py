"""What a Firepower controller may compute from its side's knowledge (``view.rules``).

A controller never holds the game (docs/decisions.md CORE-55). In the Basic Game every soldier on
the board is in plain sight, but the sequence units in the cup are not (Firepower 6.1), nor are
the dice: :class:`FirepowerRules` gives the soldiers the side's view shows, the public terrain,
and checks of the side's own Actions, and a fire context it returns throws no die (asking it to
roll is refused), so no controller reaches the game's dice through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.engine import state as state_module
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.kit.stash import StashKey
from hexwar.plugins.firepower.advanced_card import AdvancedCard

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.view import SideView
    from hexwar.core.types import Modifier
    from hexwar.plugins.firepower.advanced_terrain import AdvMap, Opening
    from hexwar.plugins.firepower.bridges import Bridge
    from hexwar.plugins.firepower.combat import FireContext
    from hexwar.plugins.firepower.soldiers import Soldier
    from hexwar.plugins.firepower.terrain import FpMap


def _no_roll(purpose: str) -> int:
    raise RulesError(f"a controller throws no dice ({purpose})")


class FirepowerRules:
    """The rules computations one side's controller may make (see the module docstring)."""

    def __init__(self, game: Game, view: SideView) -> None:
        from hexwar.plugins.firepower.state import fp_map

        self._game = game
        self._view = view
        #: the Basic terrain of the board (public)
        self.map: FpMap = fp_map(game)

    def soldiers(self) -> dict[str, Soldier]:
        """The soldiers on the board as the side's view shows them (Firepower 6.1: all of them)."""
        from hexwar.plugins.firepower.soldiers import soldiers_of

        # the view leaves out the other side's soldiers in tunnels (Firepower 8.8.8); its own
        # are shown, so the controller can move them
        return soldiers_of({u.id: u for u in self._view.known_units()}, tunnels=True)

    def column_of(self, h: Hex) -> int:
        from hexwar.plugins.firepower.state import column_of

        return column_of(self._game, h)

    def fold_column(self) -> int:
        """Firepower 7: the column of the fold, from the scenario."""
        from hexwar.plugins.firepower.victory import fold_column

        return fold_column(self._game)

    def _own(self, uid: Any) -> str:
        if not isinstance(uid, str) or uid not in self._view.own_units():
            raise RulesError(f"no soldier {uid!r} of this side")
        return uid

    def mf_left(self, phase: dict[str, Any], uid: str) -> int:
        """Firepower 6.2, 6.2.8: MF one of the side's soldiers may still spend this Impulse."""
        from hexwar.plugins.firepower.actions import mf_left

        return mf_left(self._game, phase, self._own(uid))

    def fire_context(self, uid: str, choice: dict[str, Any]) -> FireContext:
        """Firepower 6.3, 6.4: the context of an own soldier's fire or grenade, for working out hit
        numbers; it rolls no dice."""
        from hexwar.plugins.firepower.actions import fire_context

        ctx = fire_context(self._game, self._own(uid), choice)
        ctx.roll = _no_roll
        return ctx

    def preview_fire(self, uid: str, choice: dict[str, Any]) -> FireContext:
        """Firepower 6.3, Firepower 12: an own soldier's fire or fire at a hex run with the
        game's procedure (the Advanced steps when the Advanced Game is played) up to its first
        die roll: its hit number and modifiers, rolling nothing; RulesError if illegal."""
        from hexwar.plugins.firepower.actions import fire_procedure
        from hexwar.plugins.firepower.combat import preview

        ctx = self.fire_context(uid, choice)
        preview(ctx, fire_procedure(self._game, ctx.kind))
        return ctx

    def check_action(self, choice: dict[str, Any]) -> dict[str, Any]:
        """Firepower 6.2: what an Action of the side's own would do (raises when illegal)."""
        from hexwar.plugins.firepower.actions import check_action

        if isinstance(choice, dict) and "unit" in choice:
            self._own(choice["unit"])
        return check_action(self._game, choice)


    # -- the Advanced Game's terrain (public: the board and its buildings are known to all) ------
    def advanced(self) -> bool:
        """Whether the game has Advanced terrain files (Firepower 8.2)."""
        from hexwar.plugins.firepower.advanced_terrain import terrain_names

        return bool(terrain_names(self._game))

    def adv_map(self) -> AdvMap:
        from hexwar.plugins.firepower.advanced_terrain import adv_map

        return adv_map(self._game)

    def bridges(self) -> dict[Hex, Bridge]:
        """Firepower 8.9: the standing bridge units by hex, with their bridges (public
        counters; docs/decisions.md FPD-127)."""
        from hexwar.plugins.firepower.bridges import spans

        return {h: d.bridge for h, d in spans(self._game).items() if d.bridge is not None}

    def sight_map(self) -> FpMap:
        """The Basic terrain with the roadblocks' fence pictures (Firepower 8.8.5.4; FPD-115,
        FPD-121), for the AI's fence reading (cover, which side of a picture): public counters."""
        from dataclasses import replace

        from hexwar.plugins.firepower.defenses import roadblocks

        blocks = roadblocks(self._game)
        if not blocks:
            return self.map
        key = (id(self.map), tuple(sorted((str(h), p.a, p.b) for h, (p, _) in blocks.items())))
        got = _ROADBLOCK_MAPS.get(key)
        if got is None or got[0] is not self.map:
            fence = {**self.map.fence, **{h: p for h, (p, _) in blocks.items()}}
            got = _ROADBLOCK_MAPS[key] = (self.map, replace(self.map, fence=fence, _static={}))
            while len(_ROADBLOCK_MAPS) > 8:
                _ROADBLOCK_MAPS.pop(next(iter(_ROADBLOCK_MAPS)))
        return got[1]

    def defences(self) -> dict[Hex, tuple[str, int | None]]:
        """Firepower 8.8: the defensive units on the board (public: set up as counters), by hex:
        (type code, door hexside or None)."""
        from hexwar.plugins.firepower.defenses import defences

        return {h: (d.type.code, d.door) for h, d in defences(self._game).items()}

    def weapon_units(self) -> list[dict[str, Any]]:
        """Firepower 10.1: the weapon units on the board as both sides see them (counters)."""
        from hexwar.plugins.firepower.weapon_units import seen

        return seen(self._game)

    def terrain_block(self, a: tuple[Hex, int, int], b: tuple[Hex, int, int]) -> bool:
        """Firepower 8.2.3, 11.1.9, 12.1.1-12.1.2: whether walls, floors, closed openings or an
        obstacle higher than both ends block the line between two locations (hex, floor, head
        height above the floor); craters and door states are public."""
        from hexwar.plugins.firepower.advanced_terrain import blocked_at

        return blocked_at(self._game, a, b, why=False) is not None


    def side_cover_kind(self, h: Hex) -> str | None:
        """Firepower 10.4, 10.4.6: "tree", "stump" or "well" when hex ``h``'s cover is by
        sides (the map's trees, the scenario's stumps and wells: public), else None."""
        from hexwar.plugins.firepower.cover_sides import kind_at

        return kind_at(self._game, h)

    def place_concealment(self, h: Hex, *, posture: str, roof: bool = False,
                          tunnel: bool = False, deck: bool = False) -> Modifier | None:
        """Firepower 12.2.4: the modifier the Advanced L fire takes at a soldier at hex ``h``
        whose place conceals him (inside a building, in a tunnel, swimming or fording: the
        fire's own reading, ``concealment.place_concealment``), or None; the terrain and the
        ruined hexes are public (docs/decisions.md FPD-179)."""
        from hexwar.plugins.firepower.advanced_card import advanced_card
        from hexwar.plugins.firepower.advanced_fire import concealment_mod
        from hexwar.plugins.firepower.concealment import place_concealment

        card = advanced_card()
        if not card.applies("target_concealed", "L"):
            return None
        why = place_concealment(self._game, h, posture=posture, roof=roof, tunnel=tunnel,
                                deck=deck)
        return None if why is None else concealment_mod(card)

    def opening_names(self) -> dict[str, Opening]:
        """Firepower 8.2.5: the doors and windows of the buildings by the names the
        defender's set-up choice of closed ones takes (public terrain)."""
        from hexwar.plugins.firepower.advanced_terrain import adv_map
        from hexwar.plugins.firepower.hidden_setup import opening_name

        return {opening_name(self._game, o): o for o in adv_map(self._game).openings.values()}

    def opening_open(self, key: str) -> bool:
        """Firepower 8.2.5, 11.1.9, 11.1.10: whether the door or window of key ``key`` is open
        (unmarked or broken open; the markers are on the board for both sides)."""
        from hexwar.plugins.firepower.state import data

        return str((data(self._game).get("openings") or {}).get(key, "open")) != "closed"

    def sight_blocks(self, src: tuple[Hex, int, int], others: list[tuple[Hex, int, int]],
                     opened: frozenset[str] = frozenset(),
                     shut: frozenset[str] = frozenset()) -> list[bool]:
        """Firepower 12.1: the real Advanced line of sight (:func:`~hexwar.plugins.firepower.
        advanced_los.line_of_sight`, with the LOS CHART, smoke, tree heights) from one location
        (hex, floor, head above the floor) to each of ``others``, in one batch: the ends'
        building walls, floors and openings by their floors (:func:`~hexwar.plugins.firepower.
        advanced_terrain.wall_block`), the rest by the heights. Trees, hedges and smoke hinder
        (Firepower 12.2.6, 12.2.7), they do not block. Only public terrain is read.

        The batch form (docs/decisions.md FPD-99): what lies between two hexes does not depend
        on the ends' heights, so each pair's obstacles that can block (neither hindering nor
        absolute) are listed once per state of the terrain (smoke, craters, destroyed terrain)
        and kept for the game (:data:`SIGHT_CACHE`); a line is then judged by 12.1.1-12.1.4
        from that short list, and a line whose obstacles are all no higher than the lower end
        is clear at once (Firepower 12.1.3). The answers are the exact ones of
        :func:`~hexwar.plugins.firepower.advanced_los.line_of_sight` (a test checks).

        ``opened``: keys of closed doors and windows to count as open, for the AI's look ahead
        at opening one (Firepower 11.1.9; docs/decisions.md FPD-160); ``shut``: keys of open
        ones to count as closed, for its look ahead at closing one (FPD-182).

        Each answer is kept for the game while the terrain's state stays the same
        (:meth:`_sight_answers`, docs/decisions.md FPD-197): the AI asks the same lines again
        decision after decision while only soldiers move."""
        answers = self._sight_answers()
        out: list[bool | None] = [answers.get((src, o, opened, shut)) for o in others]
        if state_module.CHECK_STATE:  # the tests: every kept answer is the one made afresh
            _check_kept_sight(self, src, others, out, opened, shut)
        todo = [o for o, got in zip(others, out, strict=True) if got is None]
        if not todo:
            return out  # type: ignore[return-value]
        fresh = iter(self._sight_blocks_now(src, todo, opened, shut))
        for i, got in enumerate(out):
            if got is None:
                b = out[i] = next(fresh)
                answers[(src, others[i], opened, shut)] = b
        return out  # type: ignore[return-value]

    #: entries of the game's kept sight answers (FPD-197) before they are dropped
    SIGHT_ANSWERS_LIMIT = 200_000

    def _sight_answers(self) -> dict[tuple[Any, ...], bool]:
        """FPD-197: the game's answers of :meth:`sight_blocks` for one state of the terrain,
        made afresh when it changed. What a line meets is read from the board, the scenario and
        the system state (doors and windows, smoke, craters, ruins, destroyed terrain and
        defences, caves), never from the soldiers, who are its ends: so the state it is kept
        for is the system state without the entries every Action or draw rewrites and no line
        reads (:data:`SIGHT_VOLATILE`). Worked out once for this object (one decision's view,
        like the profiles' cache), bounded by :attr:`SIGHT_ANSWERS_LIMIT`."""
        got: dict[tuple[Any, ...], bool] | None = getattr(self, "_answers", None)
        if got is not None:
            return got
        data = self._game.state.data
        fp = data.get("firepower") or {}
        sig = state_module.fingerprint((
            sorted((k, v) for k, v in data.items() if k != "firepower"),
            sorted((k, v) for k, v in fp.items() if k not in SIGHT_VOLATILE)))
        kept = self._game.stash.get(SIGHT_ANSWERS)
        if kept is None or kept[0] != sig or len(kept[1]) > self.SIGHT_ANSWERS_LIMIT:
            kept = (sig, {})
            self._game.stash[SIGHT_ANSWERS] = kept
        self._answers = kept[1]
        return kept[1]

    def _sight_blocks_now(self, src: tuple[Hex, int, int], others: list[tuple[Hex, int, int]],
                          opened: frozenset[str], shut: frozenset[str]) -> list[bool]:
        """:meth:`sight_blocks` worked out (nothing kept of the answers)."""
        from hexwar.plugins.firepower.advanced_terrain import adv_map, floor_height, wall_block

        game = self._game
        # wall_block answers None at once for a hex outside every building: asked only of ends
        # in one (the map is the game's for this state, the batch changes nothing)
        building = adv_map(game).building
        cache = self._sight_cache()
        profiles, card = cache.profiles, cache.card
        smoke = self._smoke_hexes()
        h, f, head = src
        fh = floor_height(game, h, f) + head
        src_in = building(h) is not None
        out: list[bool] = []
        for o in others:
            oh, of, ohead = o
            if oh == h:
                out.append(False)
                continue
            if (src_in and wall_block(game, h, f, head, oh, of, opened, shut)) \
                    or (building(oh) is not None
                        and wall_block(game, oh, of, ohead, h, f, opened, shut)):
                out.append(True)
                continue
            th = floor_height(game, oh, of) + ohead
            prof = profiles.get((h, oh))
            if prof is None:
                prof = profiles[(h, oh)] = self._profile(h, oh)
            top, rng, obs = prof
            lo, hi = (fh, th) if fh <= th else (th, fh)
            if top <= lo:
                out.append(False)  # Firepower 12.1.3: nothing higher than the lower end
                continue
            blocked = False
            for height, da, db, fence, bottom in obs:
                if height <= lo:
                    continue  # Firepower 12.1.3
                if bottom is not None:  # Firepower 8.9: a deck, passed over or under (FPD-124)
                    from hexwar.plugins.firepower.bridges import slab_blocks

                    if slab_blocks(fh, th, rng, da, bottom, height):
                        blocked = True
                        break
                    continue
                if fence is not None and fence in smoke:
                    continue  # Firepower 12.2.7: smoke hides what else is in its hex
                if height > hi or height == hi:
                    blocked = True  # Firepower 12.1.1, 12.1.2
                    break
                # Firepower 12.1.4: the chart, by the distance from the higher end
                dist = da if fh >= th else db
                if dist > card.los_check(hi - lo, rng, hi - height).max_distance:
                    blocked = True
                    break
            out.append(blocked)
        return out

    def sight_blocks_traced(self, src: tuple[Hex, int, int],
                            others: list[tuple[Hex, int, int]]) -> list[bool]:
        """:meth:`sight_blocks` the straightforward way, each line traced whole by
        :func:`~hexwar.plugins.firepower.advanced_los.line_of_sight` (the reference its answers
        are checked against, and the benchmark's ``benchmarks/bench_firepower_sight.py``)."""
        from hexwar.plugins.firepower.advanced_los import line_of_sight
        from hexwar.plugins.firepower.advanced_terrain import floor_height, wall_block

        world: Any = getattr(self, "_traced_world", None)
        if world is None:
            world = self._traced_world = self._world_without_end_walls()
        game = self._game
        h, f, head = src
        fh = floor_height(game, h, f) + head
        out: list[bool] = []
        for oh, of, ohead in others:
            if oh == h:
                out.append(False)
            elif wall_block(game, h, f, head, oh, of) or wall_block(game, oh, of, ohead, h, f):
                out.append(True)
            else:
                th = floor_height(game, oh, of) + ohead
                out.append(line_of_sight(world, h, oh, fh, th, exhaustive=False).blocked)
        return out

    def _world_without_end_walls(self) -> Any:
        """The game's line-of-sight world without the absolute blocks of the ends' own walls,
        which :func:`~hexwar.plugins.firepower.advanced_terrain.wall_block` judges by the ends'
        floors (Firepower 12.1.5)."""
        from dataclasses import replace

        from hexwar.plugins.firepower.advanced_los import los_world

        world = los_world(self._game)
        hook = world.extra
        if hook is None:
            return world

        def extra(a: Hex, b: Hex, hexes: tuple[Hex, ...], ends: Any) -> list[Any]:
            return [o for o in hook(a, b, hexes, ends) if not o.absolute]
        return replace(world, extra=extra)

    def _sight_cache(self) -> _SightCache:
        """The game's cache of line profiles, emptied when the terrain's state changes."""
        from hexwar.plugins.firepower.state import data

        got: Any = getattr(self, "_sight", None)
        if got is not None:
            return got  # type: ignore[no-any-return]
        d = data(self._game)
        # smoke is read per line (it only hinders, and hides a fence in its hex); craters and
        # destroyed terrain change the ground and the trees, so the profiles go with them
        sig = repr((sorted((d.get("destroyed") or {}).items()), d.get("craters") or {}))
        cache = self._game.stash.get(SIGHT_CACHE)
        if cache is None or cache.sig != sig or len(cache.profiles) > 200_000:
            from hexwar.plugins.firepower.advanced_card import advanced_card

            cache = _SightCache(sig, {}, advanced_card())
            self._game.stash[SIGHT_CACHE] = cache
        self._sight = cache
        return cache

    def _smoke_hexes(self) -> frozenset[Hex]:
        got: frozenset[Hex] | None = getattr(self, "_smoke", None)
        if got is None:
            from hexwar.plugins.firepower.smoke import smoke_map

            got = self._smoke = frozenset(smoke_map(self._game))
        return got

    def _profile(self, a: Hex, b: Hex) -> Profile:
        """(highest obstacle, range, the obstacles that can block with their distances from
        ``a`` and ``b`` and, for a fence, its hex) of the line from hex ``a`` to hex ``b``
        without smoke (Firepower 12.1.1, 12.1.5): trees, hedges and smoke only hinder
        (Firepower 12.2.6, 12.2.7); the absolute blocks of the ends' walls are
        :func:`wall_block`'s."""
        from dataclasses import replace

        from hexwar.plugins.firepower.advanced_los import obstacles

        world: Any = getattr(self, "_sight_world", None)
        if world is None:
            world = self._sight_world = replace(self._world_without_end_walls(), smoke={})
        obs = tuple((o.height, a.distance(o.hex), b.distance(o.hex),
                     o.hex if o.kind == "fence" else None, o.bottom)
                    for o in obstacles(world, a, b) if not o.hinder and not o.absolute)
        top = max((x[0] for x in obs), default=-10_000)
        return top, a.distance(b), obs


#: (highest obstacle, range, (height, distance from a, from b, the hex of a fence or None, a
#: slab's bottom or None)...)
Profile = tuple[int, int, tuple[tuple[int, int, int, Hex | None, int | None], ...]]


@dataclass
class _SightCache:
    """Line profiles of one game for one state of its terrain (see ``sight_blocks``)."""

    sig: str
    profiles: dict[tuple[Hex, Hex], Profile]
    card: AdvancedCard


#: (map id, roadblocks) -> (the Basic map, it with the roadblocks' pictures): derived, not saved
_ROADBLOCK_MAPS: dict[tuple[int, tuple[tuple[str, int, int], ...]], tuple[FpMap, FpMap]] = {}

#: the game's line profiles (derived data: not saved, hashed or replayed)
SIGHT_CACHE = StashKey[_SightCache]("firepower sight profiles")
#: the game's answers of ``sight_blocks`` with the terrain state they hold for (FPD-197)
SIGHT_ANSWERS = StashKey[tuple[bytes | str, dict[tuple[Any, ...], bool]]](
    "firepower sight answers")
#: entries of ``state.data["firepower"]`` no line of sight reads, rewritten by every Action
#: (the Impulse Phase's bookkeeping), every draw (the cup, the count of phases) or a casualty
#: (the items dropped in his hex, Firepower 11.1.6.4): left out of the terrain state the sight
#: answers are kept for (FPD-197)
SIGHT_VOLATILE = frozenset({"phase", "cup", "drawn", "side_phases", "dropped"})


def _check_kept_sight(rules: FirepowerRules, src: tuple[Hex, int, int],
                      others: list[tuple[Hex, int, int]], kept: list[bool | None],
                      opened: frozenset[str], shut: frozenset[str]) -> None:
    """In check mode (``HEXWAR_CHECK_STATE=1``): the sight answers kept for the terrain's state
    (FPD-197) must be those worked out now, else the state they are kept for misses something
    a line reads (an entry wrongly in :data:`SIGHT_VOLATILE`, or sight read from elsewhere)."""
    asked = [(o, got) for o, got in zip(others, kept, strict=True) if got is not None]
    if not asked:
        return
    fresh = rules._sight_blocks_now(src, [o for o, _ in asked], opened, shut)
    for (o, got), now in zip(asked, fresh, strict=True):
        if got != now:
            raise state_module.StateTrackingError(
                f"the kept sight answer from {src} to {o} is {got}, worked out now {now}: the "
                "terrain state it was kept for misses what changed (docs/decisions.md FPD-197)")


def side_rules(game: Game, view: SideView) -> FirepowerRules:
    return FirepowerRules(game, view)
