"""Edition 4 of the Diceland maps: the layouts current until edition 5 (2026-11-25), kept
unchanged so that games begun or logged with them replay exactly (``engine.diceland.maps``)."""
