"""Editions 5 and 6 of the Diceland maps: the layouts current until edition 7 (2026-11-25;
edition 6 played edition 5's maps as the sides of four boards), kept unchanged so that games
begun or logged with them replay exactly (``engine.diceland.maps``)."""
