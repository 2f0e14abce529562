"""mbt system plugin (placeholder until registered)."""
