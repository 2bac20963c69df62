"""Edition 1 of the Diceland maps: the layouts before the tuning of 2026-11-24, kept unchanged
so that games begun or logged with them replay exactly (``engine.diceland.maps``)."""
