"""hexwar core: hexes, maps, quantities, dice, the turn engine and the plugin host."""
