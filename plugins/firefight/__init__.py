"""firefight game system."""
