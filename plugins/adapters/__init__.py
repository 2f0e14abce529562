"""Adapters: plugins of ``kind = "adapter"`` that let units of two systems meet (docs/cross-system.md)."""
