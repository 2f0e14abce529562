"""MBT data cards (MBT 1.3): loading, checking and fast lookups.

A card is one TOML file (format: ``data/cards/README.md``) with per-field provenance
(:mod:`hexwar.core.provenance`). :func:`load_cards` reads the shipped folder and then any user
folders; a user card with the same ``card.name`` replaces the shipped one.

Lookups used in the hot path (AP factor by range, armour basis, hit location by roll) read plain
tuples and dicts built once per card.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from hexwar.core.errors import DataError
from hexwar.core.provenance import Records, load_records
from hexwar.core.tables import Band, parse_band

SHIPPED = Path(__file__).resolve().parent / "data" / "cards"
#: the Advanced Game's leg unit cards (stand-ins; docs/mbt-advanced.md)
SHIPPED_ADVANCED = Path(__file__).resolve().parent / "data" / "advanced" / "cards"
ANGLES = ("Front", "Front-Side", "Rear-Side", "Rear")
ELEVATIONS = ("Level", "Rising", "Falling")
#: Top-level sections of a card file (data/cards/README.md); a rule module that reads a new section
#: adds its name here, so that a misspelt section is still reported.
CARD_SECTIONS = {"source", "note", "turn_costs", "card", "target", "weapons", "hit_location", "armor",
                 "speeds", "movement_costs", "height_costs"}
#: hit-location columns checked only for falling shots (MBT 7.4.5.2.3) or air fire (MBT 20.1.3.2.2.1)
FALLING_COLUMNS = {"TTG": "TT", "HDG": "HD"}
AIR_COLUMNS = {"TTA": "TT", "HDA": "HD"}
TURRET_LOCATIONS = frozenset({"TF", "TS", "TR", "TT"})
HULL_LOCATIONS = frozenset({"HF", "HS", "HR", "HD"})
DAMAGE_COLUMNS = (("no_dam", "No Dam"), ("cmp_hit", "Cmp Hit"), ("knk_out", "Knk Out"),
                  ("brw_up", "Brw Up"))


@dataclass(frozen=True)
class AmmoLine:
    """One "Type Ammo Fired" line of a weapon (MBT 7.4.1.2): AP and PV by range band, damage."""

    type: str
    energy: str
    bands: tuple[Band, ...]
    ap: tuple[int | None, ...]
    pv: tuple[int | None, ...]
    damage: tuple[tuple[int, int, str], ...]

    def band_index(self, rng: int) -> int | None:
        """The RANGE IN HEXES sub-column holding ``rng`` (MBT 7.4.1.3)."""
        for i, b in enumerate(self.bands):
            if rng in b:
                return i
        return None

    def ap_at(self, rng: int) -> int | None:
        """AP factor at ``rng`` (MBT 7.4.1.3); ``None`` below the minimum or beyond the maximum
        range (MBT 4.7.2: a blank band)."""
        i = self.band_index(rng)
        return None if i is None else self.ap[i]

    def pv_at(self, rng: int) -> int | None:
        """Penetration value at ``rng``, read under the AP factor's band (MBT 7.4.6.4)."""
        i = self.band_index(rng)
        return None if i is None else self.pv[i]

    def band_label(self, rng: int) -> str:
        i = self.band_index(rng)
        return "-" if i is None else str(self.bands[i])

    @property
    def max_range(self) -> int:
        """MBT 4.7.2: the last band holding a number."""
        last = max(i for i, v in enumerate(self.ap) if v is not None)
        hi = self.bands[last].hi
        assert hi is not None
        return hi

    @property
    def min_range(self) -> int:
        """MBT 4.7.2: the first band that holds a number starts the usable ranges."""
        first = min(i for i, v in enumerate(self.ap) if v is not None)
        lo = self.bands[first].lo
        return 1 if lo is None else lo

    def damage_of(self, roll: int) -> str:
        """MBT 7.4.7: the damage column whose band holds ``roll``."""
        for lo, hi, result in self.damage:
            if lo <= roll <= hi:
                return result
        return "No Dam"


@dataclass(frozen=True)
class Weapon:
    """A weapon of the FIRING INFORMATION section (MBT 7.4.1.1)."""

    name: str
    kind: str  # "gun" or "atgm"
    main_gun: bool
    mount: str  # "turret" or "hull"
    arc: str
    stab: int | None
    cls: int | None
    max_rof: int
    trn: int
    ammo: Mapping[str, AmmoLine]
    speeds: Mapping[str, int] = field(default_factory=dict)
    gp: Mapping[str, Any] = field(default_factory=dict)

    @property
    def movement_line(self) -> str:
        """The firer line of the Movement Modifiers chart (MBT 7.4.2.2): Stab. or Class."""
        if self.kind == "atgm":
            return f"class-{self.cls if self.cls is not None else 1}"
        return f"stab-{self.stab if self.stab is not None else 0}"

    def ammo_line(self, ammo: str) -> AmmoLine:
        """The "Type Ammo Fired" line chosen for a shot (MBT 7.4.1.2)."""
        try:
            return self.ammo[ammo]
        except KeyError:
            raise DataError(f"the {self.name} fires {', '.join(self.ammo)}, not {ammo!r}") from None


@dataclass(frozen=True)
class Card:
    """A vehicle data card, as plain values."""

    name: str
    id: str
    nation: str
    side: str
    kind: str
    points: tuple[int, int, int]
    stacking: int
    crew: int
    size: int
    gp_defense: int
    ca_defense: int
    weapons: tuple[Weapon, ...]
    hit_location: Mapping[str, tuple[tuple[str, int, int], ...]]
    falling_location: Mapping[str, tuple[tuple[str, int, int], ...]]
    air_location: Mapping[str, tuple[tuple[str, int, int], ...]]
    armor: Mapping[tuple[str, str, str, str], int]
    mf: Fraction
    road: Fraction
    path_cost: Fraction
    turn_costs: tuple[int, ...]
    move_costs: Mapping[str, int | None]
    height_costs: Mapping[int, int | None]
    records: Records = field(repr=False, compare=False, hash=False)

    @property
    def type_name(self) -> str:
        return f"mbt:{self.name}"

    @property
    def main_gun(self) -> Weapon | None:
        return next((w for w in self.weapons if w.main_gun), None)

    @property
    def missiles(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.kind == "atgm")

    @property
    def trn(self) -> int:
        """TRN: hexsides the turret may turn in the Adjust Turrets Step (MBT 9.2.1)."""
        g = self.main_gun or (self.weapons[0] if self.weapons else None)
        return g.trn if g is not None else 0

    def weapon(self, name: str) -> Weapon:
        for w in self.weapons:
            if w.name == name:
                return w
        raise DataError(f"{self.name} has no weapon {name!r} (it has "
                        f"{', '.join(w.name for w in self.weapons)})")

    def locate(self, angle: str, roll: int, *, falling: bool = False,
               air: bool = False) -> tuple[str, bool]:
        """MBT 7.4.5.2.2-7.4.5.2.3: the hit location for ``roll`` at ``angle``; the second value
        is True when a TTG/HDG (or air) column superseded the normal one ("Above" angle)."""
        if air or falling:
            for loc, lo, hi in (self.air_location if air else self.falling_location).get(angle, ()):
                if lo <= roll <= hi:
                    return loc, True
        for loc, lo, hi in self.hit_location.get(angle, ()):
            if lo <= roll <= hi:
                return loc, False
        return "miss", False

    def armor_basis(self, energy: str, elevation: str, angle: str, loc: str) -> int:
        """MBT 7.4.6.1-7.4.6.3: armour basis; ``angle`` is "Above" for TT/HD hits from above."""
        key = (energy, elevation, angle, loc)
        try:
            return self.armor[key]
        except KeyError:
            raise DataError(f"card {self.id} {self.name} has no armour basis for {energy} "
                            f"{elevation} {angle}/{loc}") from None

    def source(self, dotted: str) -> str:
        return self.records.sources.get(dotted, "")


def _band(text: Any, where: str) -> Band:
    try:
        return parse_band(str(text))
    except (DataError, ValueError) as exc:
        raise DataError(f"bad band {text!r}: {exc}", key=where) from None


def _opt_int(v: Any, where: str, path: str) -> int | None:
    if v == "-" or v is None:
        return None
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise DataError(f"expected a whole number or \"-\", got {v!r}", path=path, key=where)


def _cost(v: Any, where: str, path: str) -> int | None:
    if v == "P":
        return None
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    raise DataError(f"a movement cost is a whole number or \"P\", got {v!r}", path=path, key=where)


def _fraction(v: Any, where: str, path: str) -> Fraction:
    try:
        return Fraction(str(v))
    except (ValueError, ZeroDivisionError):
        raise DataError(f"expected a number or a fraction like \"1/3\", got {v!r}", path=path,
                        key=where) from None


def _loc_table(rows: Mapping[str, Any], where: str,
               path: str) -> tuple[dict[str, tuple[tuple[str, int, int], ...]], ...]:
    normal: dict[str, tuple[tuple[str, int, int], ...]] = {}
    falling: dict[str, tuple[tuple[str, int, int], ...]] = {}
    air: dict[str, tuple[tuple[str, int, int], ...]] = {}
    for angle, cols in rows.items():
        if angle not in ANGLES:
            raise DataError(f"unknown hit angle {angle!r} (angles: {', '.join(ANGLES)})", path=path,
                            key=f"{where}.{angle}")
        n: list[tuple[str, int, int]] = []
        f: list[tuple[str, int, int]] = []
        a: list[tuple[str, int, int]] = []
        for loc, text in cols.items():
            b = _band(text, f"{where}.{angle}.{loc}")
            if b.lo is None or b.hi is None or b.lo < 1 or b.hi > 100:
                raise DataError(f"roll band {text!r} must lie within 1-100", path=path,
                                key=f"{where}.{angle}.{loc}")
            item = (loc, b.lo, b.hi)
            if loc in FALLING_COLUMNS:
                f.append((FALLING_COLUMNS[loc], b.lo, b.hi))
            elif loc in AIR_COLUMNS:
                a.append((AIR_COLUMNS[loc], b.lo, b.hi))
            else:
                n.append(item)
        for group, name in ((n, "normal"), (f, "falling"), (a, "air")):
            group.sort(key=lambda x: x[1])
            for (l1, _a1, h1), (l2, a2, _h2) in pairwise(group):
                if a2 <= h1:
                    raise DataError(f"{angle}: {name} locations {l1} and {l2} overlap", path=path,
                                    key=f"{where}.{angle}")
        normal[angle], falling[angle], air[angle] = tuple(n), tuple(f), tuple(a)
    return normal, falling, air


#: MBT 14.1.2.2: an independent machinegun's location: a position and "O" (open) or "C" (either)
MG_LOCATION = re.compile(r"^(TT|TF|TS|TR|HD|HF|HS|HR)([OC])$")


def _check_machinegun(w: Mapping[str, Any], wk: str, path: str) -> None:
    """MBT 14.1.2.2: an independent machinegun is an HMG or an MG with a location code, is no
    main gun (a coaxial one is part of the main gun, MBT 14.1.2) and fires GP (MBT 14.4.1) only
    (MBTD-149: the text gives a vehicle's machineguns no AP fire)."""
    if w.get("machinegun") not in ("HMG", "MG"):
        raise DataError(f"machinegun is \"HMG\" or \"MG\", not {w.get('machinegun')!r} "
                        "(MBT 14.1.2.2)", path=path, key=f"{wk}.machinegun")
    if not MG_LOCATION.match(str(w.get("location", ""))):
        raise DataError(f"a machinegun's location is a position and O or C, like \"TTO\", not "
                        f"{w.get('location')!r} (MBT 14.1.2.2)", path=path, key=f"{wk}.location")
    if w.get("main_gun"):
        raise DataError("an independent machinegun is not the main gun (a coaxial one is part "
                        "of the main gun's values, MBT 14.1.2)", path=path, key=f"{wk}.main_gun")
    if not (w.get("gp") or {}).get("nm"):
        raise DataError("a machinegun needs its GP line (MBT 14.4.1)", path=path, key=f"{wk}.gp")
    if w.get("ammo"):
        raise DataError("an independent machinegun fires GP point effect fire only and has no AP "
                        "ammunition line (MBT 14.1.1.1, MBT 14.1.2; docs/decisions.md MBTD-149)",
                        path=path, key=f"{wk}.ammo")


#: MBT 14.3.2: the one-letter sights a weapon's "Sights" column may hold
SIGHT_LETTERS = "CDILORST"


def _check_sights(w: Mapping[str, Any], wk: str, path: str) -> None:
    """MBT 14.3.2: a weapon's sights are letters of C, D, I, L, O, R, S and T."""
    text = w.get("sights")
    if text is None:
        return
    bad = [ch for ch in str(text) if ch not in SIGHT_LETTERS]
    if not str(text) or bad:
        raise DataError(f"sights are letters of {', '.join(SIGHT_LETTERS)}, not {text!r} "
                        "(MBT 14.3.2)", path=path, key=f"{wk}.sights")


def card_from_records(rec: Records) -> Card:
    """Build and check a :class:`Card`; every problem names the file and the dotted key."""
    v = rec.values
    path = rec.path or "<card>"
    head = v.get("card", {})
    target = v.get("target", {})
    name = head.get("name")
    if not isinstance(name, str) or not name:
        raise DataError("card.name is missing", path=path, key="card.name")
    unknown = sorted(k for k in v if k not in CARD_SECTIONS)
    if unknown:
        raise DataError(f"unknown section {unknown[0]!r} (a card has: {', '.join(sorted(CARD_SECTIONS))}; "
                        "format: data/cards/README.md)", path=path, key=unknown[0])
    for flag, rule in (("path_restricted", "MBT 15.6"), ("enters_buildings", "MBT 15.4.1.2")):
        if not isinstance(head.get(flag, False), bool):
            # what a card's NOTES say, as flags (MBTD-184, MBTD-185)
            raise DataError(f"card.{flag} is true or false ({rule})", path=path,
                            key=f"card.{flag}")
    if str(head.get("kind", "vehicle")) == "vehicle":
        # a vehicle card must carry what the Basic Game reads: SPEEDS (MBT 8.2), HIT LOCATION CHARTS
        # (MBT 7.4.5) for every angle and ARMOR CHARTS (MBT 7.4.6)
        if not v.get("speeds", {}).get("normal"):
            raise DataError("a vehicle card needs its Normal speed (MBT 8.2)", path=path,
                            key="speeds.normal")
        missing = [a for a in ANGLES if a not in v.get("hit_location", {})]
        if missing:
            raise DataError(f"no hit location row for {', '.join(missing)} (MBT 7.4.5.2.1)",
                            path=path, key="hit_location")
        if not v.get("armor"):
            raise DataError("a vehicle card needs its ARMOR CHARTS (MBT 7.4.6)", path=path,
                            key="armor")
    weapons: list[Weapon] = []
    for wi, w in enumerate(v.get("weapons", [])):
        wk = f"weapons[{wi}]"
        bands = tuple(_band(b, f"{wk}.bands") for b in w.get("bands", []))
        if not bands:
            raise DataError("a weapon needs its range bands", path=path, key=f"{wk}.bands")
        ammo: dict[str, AmmoLine] = {}
        for ai, a in enumerate(w.get("ammo", [])):
            ak = f"{wk}.ammo[{ai}]"
            ap = tuple(_opt_int(x, f"{ak}.ap", path) for x in a.get("ap", []))
            pv = tuple(_opt_int(x, f"{ak}.pv", path) for x in a.get("pv", []))
            if len(ap) != len(bands) or len(pv) != len(bands):
                raise DataError(f"ap and pv need one entry per range band ({len(bands)})", path=path,
                                key=ak)
            if all(x is None for x in ap):
                raise DataError("an ammunition line needs at least one AP factor", path=path,
                                key=f"{ak}.ap")
            dmg: list[tuple[int, int, str]] = []
            for col, label in DAMAGE_COLUMNS:
                text = a.get("damage", {}).get(col)
                if text in (None, "-"):
                    continue
                b = _band(text, f"{ak}.damage.{col}")
                assert b.lo is not None and b.hi is not None
                dmg.append((b.lo, b.hi, label))
            dmg.sort()
            covered = [x for lo, hi, _ in dmg for x in range(lo, hi + 1)]
            if sorted(covered) != list(range(1, 101)):
                raise DataError("damage bands must cover 01-100 exactly once", path=path,
                                key=f"{ak}.damage")
            line = AmmoLine(str(a["type"]), str(a.get("energy", "KE")), bands, ap, pv, tuple(dmg))
            mr = a.get("max_range")
            if mr is not None and mr != line.max_range:
                raise DataError(f"max_range {mr} disagrees with the last band holding a number "
                                f"({line.max_range}, MBT 4.7.2)", path=path, key=f"{ak}.max_range")
            ammo[line.type] = line
        if "machinegun" in w:
            _check_machinegun(w, wk, path)
        _check_sights(w, wk, path)
        trn_text = str(w.get("trn", "1T"))
        digits = "".join(ch for ch in trn_text if ch.isdigit())
        weapons.append(Weapon(
            name=str(w["name"]), kind=str(w.get("kind", "gun")), main_gun=bool(w.get("main_gun")),
            mount=str(w.get("mount", "turret")), arc=str(w.get("arc", "turret")),
            stab=w.get("stab"), cls=w.get("class"), max_rof=int(w.get("max_rof", 1)),
            trn=int(digits) if digits else 6, ammo=ammo,
            speeds={str(k): int(x) for k, x in w.get("speeds", {}).items()}, gp=w.get("gp", {}),
        ))
    normal, falling, air = _loc_table(v.get("hit_location", {}), "hit_location", path)
    armor: dict[tuple[str, str, str, str], int] = {}
    for energy, elevs in v.get("armor", {}).items():
        for elev, angles in elevs.items():
            if elev not in ELEVATIONS:
                raise DataError(f"unknown elevation {elev!r} (Level, Rising, Falling; MBT 7.4.6.2)",
                                path=path, key=f"armor.{energy}.{elev}")
            if energy not in ("KE", "CE"):
                raise DataError(f"unknown ammunition energy {energy!r} (KE or CE; MBT 7.4.6.1)",
                                path=path, key=f"armor.{energy}")
            for angle, locs in angles.items():
                if angle not in (*ANGLES, "Above"):
                    raise DataError(f"unknown hit angle {angle!r} (angles: {', '.join(ANGLES)}, "
                                    "Above; MBT 7.4.6.2)", path=path,
                                    key=f"armor.{energy}.{elev}.{angle}")
                for loc, val in locs.items():
                    armor[(energy, elev, angle, loc)] = int(val)
    speeds = v.get("speeds", {})
    pts = head.get("points", [0, 0, 0])
    if not (isinstance(pts, list) and len(pts) == 3):
        raise DataError("points must be a triple like [80, 40, 20] (MBT 9.4.2.1)", path=path,
                        key="card.points")
    return Card(
        name=name, id=str(head.get("id", "")), nation=str(head.get("nation", "")),
        side=str(head.get("side", "")), kind=str(head.get("kind", "vehicle")),
        points=(int(pts[0]), int(pts[1]), int(pts[2])), stacking=int(head.get("stacking", 2)),
        crew=int(head.get("crew", 4)), size=int(target.get("size", 0)),
        gp_defense=int(target.get("gp_defense", 0)), ca_defense=int(target.get("ca_defense", 0)),
        weapons=tuple(weapons), hit_location=normal, falling_location=falling, air_location=air,
        armor=armor, mf=_fraction(speeds.get("normal", 0), "speeds.normal", path),
        road=_fraction(speeds.get("road", "1"), "speeds.road", path),
        path_cost=_fraction(speeds.get("path", "1"), "speeds.path", path),
        turn_costs=tuple(int(x) for x in v.get("turn_costs", [0, 1, 2])),
        move_costs={str(k): _cost(x, f"movement_costs.{k}", path)
                    for k, x in v.get("movement_costs", {}).items()},
        height_costs={int(k): _cost(x, f"height_costs.{k}", path)
                      for k, x in v.get("height_costs", {}).items()},
        records=rec,
    )


def load_card(path: str | Path) -> Card:
    return card_from_records(load_records(path))


def card_dirs_from_env() -> tuple[str, ...]:
    """User card folders from ``HEXWAR_MBT_CARDS`` (separated by the OS path separator)."""
    raw = os.environ.get("HEXWAR_MBT_CARDS", "")
    return tuple(p for p in raw.split(os.pathsep) if p)


def _files(d: str) -> list[Path]:
    p = Path(d)
    if p.is_file():
        return [p]
    if p.is_dir():
        return sorted(p.glob("*.toml"))
    raise DataError("no such card folder or file", path=d)


@lru_cache(maxsize=16)
def _load(files: tuple[tuple[str, int, int], ...]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for f, _stamp, _size in files:
        card = load_card(f)
        cards[card.name] = card  # a user card replaces the shipped card of the same name
    return cards


def load_cards(dirs: Iterable[str | Path] = ()) -> dict[str, Card]:
    """Every card by name: the shipped cards, replaced or extended by ``dirs`` (in order), then by
    ``HEXWAR_MBT_CARDS``. Cached while the files are unchanged."""
    folders = (str(SHIPPED), str(SHIPPED_ADVANCED), *(str(Path(d).resolve()) for d in dirs),
               *card_dirs_from_env())
    files = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for d in folders for f in _files(d))
    return _load(files)


def derived(card: Card) -> dict[Any, Any]:
    """Values worked out from the card alone, kept with the card object: a card is frozen once
    loaded, so they never change, and they go when the card goes (docs/decisions.md MBTD-190)."""
    got: dict[Any, Any] | None = card.__dict__.get("_derived")
    if got is None:
        got = {}
        object.__setattr__(card, "_derived", got)  # not a field: no part of eq, hash or repr
    return got


def card_names(cards: Mapping[str, Card]) -> Sequence[str]:
    return sorted(cards)


# -- numbers the rulebook discloses about the cards (docs/decisions.md MBTD-1) -----------------

#: (card name, fact, value, rule). A fact names what to read on the card, independently of where
#: a user's transcription puts it: ("ap", weapon, ammo, range), ("pv", ...), ("max_range", weapon,
#: ammo), ("min_range", weapon, ammo), ("stab", weapon), ("rof", weapon), ("trn", weapon),
#: ("damage", weapon, ammo, roll), ("speed", weapon, column), ("gp", weapon, "nm"|"mv", range),
#: ("gp_effect", weapon), ("dep_el", weapon), ("mf",), ("size",), ("gp_defense",),
#: ("ca_defense",), ("stacking",), ("points",), ("armor", energy, elevation, angle, location),
#: ("location", angle, roll), ("falling_location", angle, roll), ("move_cost", terrain),
#: ("height_cost", heights).
CARD_DISCLOSED: tuple[tuple[str, tuple[Any, ...], Any, str], ...] = (
    ("T-80A", ("ap", "125mm", "APFSDS", 14), 14, "MBT 7.4.1.3"),
    ("T-80A", ("ap", "125mm", "HEAT", 14), 11, "MBT 7.4.1.3"),
    ("T-80A", ("pv", "125mm", "APFSDS", 14), 80, "MBT 7.4.6.4"),
    ("T-80A", ("max_range", "125mm", "APFSDS"), 40, "MBT 4.7.2"),
    ("T-80A", ("max_range", "125mm", "HEAT"), 32, "MBT 4.7.2"),
    ("T-80A", ("stab", "125mm"), 2, "MBT 7.4.2.2"),
    ("T-80A", ("damage", "125mm", "APFSDS", 54), "Knk Out", "MBT 7.4.7"),
    ("T-80A", ("gp", "125mm", "nm", 18), 17, "MBT 14.4.1"),
    ("T-80A", ("gp", "125mm", "mv", 18), 9, "MBT 14.4.1"),
    ("T-80A", ("min_range", "Songster", "ATGM"), 2, "MBT 4.7.2"),
    ("T-80A", ("speed", "Songster", "1-3"), 24, "MBT 14.2.2.2.3"),
    ("T-80A", ("speed", "Songster", "4+"), 12, "MBT 14.2.2.2.3"),
    ("T-80A", ("mf",), 6, "MBT 8.2"),
    ("T-80A", ("size",), -1, "MBT 7.4.2.3.2"),
    ("T-80A", ("armor", "KE", "Level", "Front", "TF"), 85, "MBT 7.4.6.3"),
    ("T-80A", ("gp_defense",), 8, "MBT 14.4.3.1"),
    ("T-80A", ("stacking",), 2, "MBT 12.2.1"),
    ("T-80A", ("points",), (80, 40, 20), "MBT 9.4.2.1"),
    ("T-72M1", ("ap", "125mm", "APFSDS", 5), 18, "MBT 7.4.8"),
    ("T-72M1", ("pv", "125mm", "APFSDS", 5), 88, "MBT 7.4.8"),
    ("T-72M1", ("rof", "125mm"), 1, "MBT 7.4.8"),
    ("T-72M1", ("damage", "125mm", "APFSDS", 60), "Knk Out", "MBT 7.4.8"),
    ("Leopard 1A4", ("size",), 0, "MBT 7.4.8"),
    ("Leopard 1A4", ("location", "Front", 25), "TF", "MBT 7.4.8"),
    ("Leopard 1A4", ("armor", "KE", "Level", "Front", "TF"), 58, "MBT 7.4.8"),
    ("Leopard 2", ("dep_el", "120mm"), (8, 10), "MBT 17.3.1"),
    ("M1", ("gp_effect", "105mm"), "EF=KNK OUT if GP DEF=1-5", "MBT 14.4.4.2.3.3"),
    ("M1", ("location", "Front", 63), "HF*", "MBT 13.2.2.3"),
    ("M1", ("ca_defense",), 7, "MBT 15.4.3.1"),
    ("M1A1", ("trn", "120mm"), 2, "MBT 9.2.1"),
    ("M1A1", ("points",), (100, 50, 25), "MBT Scenario D.1"),
    ("M1A1", ("move_cost", "clear"), 1, "MBT 8.4.3"),
    ("M1A1", ("height_cost", 1), 1, "MBT 8.4.3"),
    # the leg cards of Scenario One's squads (FRG-4B, USSR-11B): GP defense NM in rough 4
    # (MBT 14.4.3.2.1), a squad 2 stacking points (MBT 15.3.3.2), SPEED "2(1)" (MBT 15.1.1)
    *((name, fact, value, rule)
      for name in ("Squad Standard Infantry [PZF-44]",
                   "Squad Light Panzergrenadier Infantry [PZF-44 & Milan]",
                   "Squad Heavy Motorized Rifle Infantry [RPG-7 V/D]",
                   "Squad Heavy Motorized Rifle Infantry [RPG-7 V/D & SA-7B]")
      for fact, value, rule in ((("gp_defense",), 4, "MBT 14.4.3.2.1"),
                                (("stacking",), 2, "MBT 15.3.3.2"),
                                (("mf",), 2, "MBT 15.1.1"))),
)


def _weapon_index(card: Card, name: str) -> int:
    return next(i for i, w in enumerate(card.weapons) if w.name == name)


def card_fact(card: Card, fact: tuple[Any, ...]) -> tuple[Any, str]:
    """The card's value for a disclosed fact, and the dotted key whose source backs it ("" when
    the value follows from bands rather than one field)."""
    kind, *args = fact
    raw = card.records.values
    if kind in ("ap", "pv"):
        weapon, ammo, rng = args
        w = card.weapon(weapon)
        line = w.ammo_line(ammo)
        i = line.band_index(rng)
        ai = list(w.ammo).index(ammo)
        value = line.ap_at(rng) if kind == "ap" else line.pv_at(rng)
        return value, f"weapons[{_weapon_index(card, weapon)}].ammo[{ai}].{kind}[{i}]"
    if kind in ("max_range", "min_range"):
        weapon, ammo = args
        line = card.weapon(weapon).ammo_line(ammo)
        ai = list(card.weapon(weapon).ammo).index(ammo)
        key = f"weapons[{_weapon_index(card, weapon)}].ammo[{ai}].max_range" if kind == "max_range" \
            else f"weapons[{_weapon_index(card, weapon)}].min_range"
        return (line.max_range if kind == "max_range" else line.min_range), key
    if kind in ("stab", "rof", "trn", "dep_el"):
        (weapon,) = args
        wi = _weapon_index(card, weapon)
        w = card.weapon(weapon)
        if kind == "stab":
            return w.stab, f"weapons[{wi}].stab"
        if kind == "rof":
            return w.max_rof, f"weapons[{wi}].max_rof"
        if kind == "trn":
            return w.trn, f"weapons[{wi}].trn"
        return tuple(raw["weapons"][wi].get("dep_el", ())), f"weapons[{wi}].dep_el"
    if kind == "damage":
        weapon, ammo, roll = args
        return card.weapon(weapon).ammo_line(ammo).damage_of(roll), ""
    if kind == "speed":
        weapon, col = args
        return card.weapon(weapon).speeds.get(col), f"weapons[{_weapon_index(card, weapon)}].speeds.{col}"
    if kind == "gp":
        weapon, line_name, rng = args
        wi = _weapon_index(card, weapon)
        gp = raw["weapons"][wi].get("gp", {})
        bands = [parse_band(b) for b in raw["weapons"][wi]["bands"]]
        i = next(j for j, b in enumerate(bands) if rng in b)
        return gp.get(line_name, [])[i], f"weapons[{wi}].gp.{line_name}[{i}]"
    if kind == "gp_effect":
        (weapon,) = args
        wi = _weapon_index(card, weapon)
        return raw["weapons"][wi].get("gp", {}).get("effect"), f"weapons[{wi}].gp.effect"
    if kind == "mf":
        return card.mf, "speeds.normal"
    if kind in ("size", "gp_defense", "ca_defense"):
        return getattr(card, kind), f"target.{kind}"
    if kind == "stacking":
        return card.stacking, "card.stacking"
    if kind == "points":
        return card.points, "card.points"
    if kind == "armor":
        energy, elev, angle, loc = args
        return card.armor_basis(energy, elev, angle, loc), f"armor.{energy}.{elev}.{angle}.{loc}"
    if kind in ("location", "falling_location"):
        angle, roll = args
        for loc, lo, hi in (card.hit_location if kind == "location" else card.falling_location)[angle]:
            if lo <= roll <= hi:
                return loc, ""
        return "miss", ""
    if kind == "move_cost":
        (terrain,) = args
        return card.move_costs.get(terrain), f"movement_costs.{terrain}"
    if kind == "height_cost":
        (n,) = args
        return card.height_costs.get(n), f"height_costs.{n}"
    raise ValueError(f"unknown card fact {fact!r}")


def check_card_disclosures(cards: Mapping[str, Card]) -> list[str]:
    """Every card number the rulebook discloses, compared with the cards in use (a user's included):
    a different value, or a disclosed value marked ``estimated``, is a problem."""
    from hexwar.core.provenance import is_estimated

    problems: list[str] = []
    for name, fact, expected, rule in CARD_DISCLOSED:
        card = cards.get(name)
        if card is None:
            problems.append(f"{name}: no card (disclosed by {rule})")
            continue
        try:
            value, key = card_fact(card, fact)
        except (KeyError, StopIteration, IndexError, DataError) as exc:
            problems.append(f"{name} {fact}: cannot be read ({exc}); {rule} discloses {expected!r}")
            continue
        if isinstance(expected, tuple):
            value = tuple(value) if isinstance(value, list | tuple) else value
        if value != expected:
            problems.append(f"{name} {fact}: the card holds {value!r}, {rule} discloses {expected!r}"
                            f" ({card.records.path})")
        elif key and is_estimated(card.source(key)):
            problems.append(f"{name} {fact} = {value!r} is disclosed by {rule} but marked estimated "
                            f"({card.records.path} [{key}])")
    return problems
