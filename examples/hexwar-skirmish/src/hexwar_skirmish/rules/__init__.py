"""Optional rules of Skirmish, one module per rule, each its own plugin."""
