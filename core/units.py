"""Quantities: the one pint registry of the process, game scales, and boundary checks.

Every part of hexwar, and every plugin, uses the registry defined here::

    from hexwar.core.units import Q_, ureg

It is pint's *application registry* (``pint.get_application_registry()``), extended once,
idempotently, with the definitions in ``units.txt``. Plugins must never create their own
``pint.UnitRegistry()``: quantities from two registries cannot be combined.

Conventions
-----------
* Lengths on the ground: metres (``"m"``). A hex is not a unit; hex counts stay ``int`` and each
  system declares its :class:`Scale` (hex = 50 m in Firefight 2.0, 100 m in MBT 4.3).
* Heights: each system says how much one "height" (level) is (MBT 12.1: about 25 ft;
  Firepower 8.2.2: about 3 ft); :attr:`Scale.height_unit` carries it.
* Water depth: inches (``"inch"``; Firepower 11.2.1.1 gives ford depths in inches).
* Weights: ``"tonne"`` (metric, 1000 kg). pint's ``"ton"`` is the US short ton (907.18 kg).
* Tabletop distance (miniatures): ``"table_inch"`` (``tin``), a separate dimension converted to
  ground length only inside the ``tabletop`` context, e.g.
  ``with ureg.context("tabletop", ground_per_inch=Q_(20, "m")): Q_(6, "tin").to("m")``.

Quantities live at API and file boundaries. Hot loops convert once with :func:`as_float` and then
work with plain floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pint

from hexwar.core.errors import HexwarError

__all__ = [
    "Q_",
    "DimensionalityError",
    "Quantity",
    "Scale",
    "UnitsError",
    "as_float",
    "parse_quantity",
    "require_dimension",
    "setup_registry",
    "ureg",
]

DimensionalityError = pint.DimensionalityError

_DEFINITIONS = Path(__file__).with_name("units.txt")


class UnitsError(HexwarError, ValueError):
    """A value has the wrong physical dimension, or is a bare number where a quantity is needed."""


def _tabletop_context(registry: Any) -> Any:
    """MBT 23.0 (miniatures): one table inch stands for ``ground_per_inch`` of ground."""
    ctx = pint.Context("tabletop", defaults={"ground_per_inch": registry.Quantity(20, "m")})

    def table_to_ground(ureg: Any, value: Any, **kwargs: Any) -> Any:
        return value.m_as("table_inch") * kwargs["ground_per_inch"]

    def ground_to_table(ureg: Any, value: Any, **kwargs: Any) -> Any:
        return ureg.Quantity(float(value / kwargs["ground_per_inch"]), "table_inch")

    ctx.add_transformation("[table_length]", "[length]", table_to_ground)
    ctx.add_transformation("[length]", "[table_length]", ground_to_table)
    return ctx


def setup_registry(registry: Any) -> Any:
    """Add hexwar's definitions to ``registry`` (idempotent) and return it."""
    if "table_inch" not in registry:
        registry.load_definitions(str(_DEFINITIONS))
    if "tabletop" not in registry._contexts:
        registry.add_context(_tabletop_context(registry))
    return registry


ureg: Any = setup_registry(pint.get_application_registry())  # type: ignore[no-untyped-call]
"""The one unit registry of the process (pint's application registry, extended)."""

Q_: Any = ureg.Quantity
"""Shortcut constructor: ``Q_(100, "m")``."""

Quantity = pint.Quantity
"""The quantity type, for annotations and ``isinstance`` checks."""


def _registry() -> Any:
    """The concrete registry behind the application-registry wrapper."""
    return ureg.get() if hasattr(ureg, "get") else ureg


def _describe(value: object) -> str:
    if isinstance(value, pint.Quantity):
        return f"{value:~P} (dimension {value.dimensionality})"
    return f"{value!r} (a plain {type(value).__name__}, no unit)"


def require_dimension(value: object, dimension: str, name: str) -> Any:
    """Check that ``value`` is a quantity of ``dimension`` (e.g. ``"[length]"``) and return it.

    Raises :class:`UnitsError` naming the argument, the required dimension, what was given, and
    how to write it correctly. Bare numbers are rejected: a number without a unit is ambiguous.
    """
    if not isinstance(value, pint.Quantity):
        raise UnitsError(
            f"`{name}` requires a quantity of dimension {dimension} but was given "
            f"{_describe(value)}; write it with a unit, e.g. Q_({value!r}, \"<unit>\") "
            "using hexwar.core.units.Q_"
        )
    if value._REGISTRY is not _registry():
        raise UnitsError(
            f"`{name}` is a quantity from a different pint registry; build it with "
            "hexwar.core.units.Q_ (plugins must not create their own UnitRegistry)"
        )
    if not value.check(dimension):
        raise UnitsError(
            f"`{name}` requires a quantity of dimension {dimension} but was given "
            f"{_describe(value)}"
        )
    return value


def parse_quantity(text: object, dimension: str, name: str) -> Any:
    """Read a quantity from a data file (``"50 m"``, ``"25 ft"``, ``"40 s"``, ``"60 tonne"``)
    and check its dimension. Bare numbers are rejected. Raises :class:`UnitsError`."""
    if isinstance(text, pint.Quantity):
        return require_dimension(text, dimension, name)
    if not isinstance(text, str):
        raise UnitsError(
            f"`{name}` needs a quantity with a unit such as \"50 m\", got {text!r}"
        )
    try:
        value = ureg.Quantity(text)
    except (pint.errors.UndefinedUnitError, pint.errors.DefinitionSyntaxError, AttributeError,
            TypeError, ValueError, SyntaxError) as exc:
        raise UnitsError(f"`{name}`: cannot read {text!r} as a quantity ({exc})") from None
    return require_dimension(value, dimension, name)


def as_float(q: object, unit: str) -> float:
    """The magnitude of quantity ``q`` in ``unit`` as a plain float, for hot loops.

    A bare number is an error (its unit would be a guess); so is an incompatible dimension.
    """
    if not isinstance(q, pint.Quantity):
        raise UnitsError(
            f"as_float needs a quantity convertible to {unit!r} but was given {_describe(q)}"
        )
    try:
        return float(q.m_as(unit))
    except pint.DimensionalityError as exc:
        raise UnitsError(f"cannot express {_describe(q)} in {unit!r}") from exc


@dataclass(frozen=True)
class Scale:
    """The real-world scale a game system plays at.

    ``hex_size`` is the distance between the centres of adjacent hexes; ``height_unit`` is the
    length of one "height" (level) in the system's line-of-sight rules; ``turn_length`` the real
    time one turn stands for, or ``None`` when the rules do not say; ``rule`` cites where the
    scale is stated (e.g. ``"Firefight 2.0"``).
    """

    system: str
    hex_size: Any
    height_unit: Any
    turn_length: Any | None
    notes: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        require_dimension(self.hex_size, "[length]", "hex_size")
        require_dimension(self.height_unit, "[length]", "height_unit")
        if self.turn_length is not None:
            require_dimension(self.turn_length, "[time]", "turn_length")
        if as_float(self.hex_size, "m") <= 0:
            raise UnitsError(f"`hex_size` must be positive, got {self.hex_size:~P}")
        if as_float(self.height_unit, "m") <= 0:
            raise UnitsError(f"`height_unit` must be positive, got {self.height_unit:~P}")

    @property
    def hex_size_m(self) -> float:
        """Hex size in metres, as a float."""
        return as_float(self.hex_size, "m")

    @property
    def height_unit_m(self) -> float:
        """One height in metres, as a float."""
        return as_float(self.height_unit, "m")

    def hexes_to_length(self, hexes: float) -> Any:
        """Ground distance covered by ``hexes`` hexes (centre to centre)."""
        return (hexes * self.hex_size).to("m")

    def length_to_hexes(self, length: object) -> float:
        """How many hexes ``length`` spans (a float; round as the rules say)."""
        require_dimension(length, "[length]", "length")
        return as_float(length, "m") / self.hex_size_m

    def heights_to_length(self, heights: float) -> Any:
        """Vertical distance of ``heights`` heights (levels)."""
        return (heights * self.height_unit).to("m")

    def length_to_heights(self, length: object) -> float:
        """How many heights (levels) ``length`` is."""
        require_dimension(length, "[length]", "length")
        return as_float(length, "m") / self.height_unit_m
