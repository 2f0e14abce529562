"""firepower game system."""
