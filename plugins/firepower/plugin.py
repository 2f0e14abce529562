"""firepower system plugin (placeholder until registered)."""
