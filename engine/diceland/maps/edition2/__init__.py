"""Edition 2 of the Diceland maps: the tuned layouts current until edition 3 (2026-11-24), kept
unchanged so that games begun or logged with them replay exactly (``engine.diceland.maps``)."""
