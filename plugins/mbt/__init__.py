"""mbt game system."""
