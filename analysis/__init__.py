"""Balance reports over a run directory (see docs/ARCHITECTURE.md)."""
