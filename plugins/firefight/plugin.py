"""firefight system plugin (placeholder until registered)."""
