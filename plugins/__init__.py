"""Game systems and their optional rules, each a pluggy plugin registered through the
``hexwar.plugins`` entry-point group."""
