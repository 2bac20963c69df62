"""Edition 3 of the Diceland maps: the layouts current until edition 4 (2026-11-24), kept
unchanged so that games begun or logged with them replay exactly (``engine.diceland.maps``)."""
