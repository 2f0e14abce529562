"""The Firefight/Firepower adapter (docs/cross-system.md, docs/decisions.md CORE-91..CORE-95)."""
