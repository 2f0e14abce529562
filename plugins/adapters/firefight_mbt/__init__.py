"""The Firefight/MBT adapter (docs/cross-system.md, docs/decisions.md CORE-71..CORE-75)."""
