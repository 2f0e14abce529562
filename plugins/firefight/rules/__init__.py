"""Firefight II/III optional rules ([11]-[28]), one plugin module each."""
