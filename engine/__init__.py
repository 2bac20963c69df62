"""dicehall's rules engine: pure game logic with no I/O, no clock, no Flask and no Redis.

One package per game (``engine/<game>/``), the shared contract (:mod:`engine.contract`),
verifiable dice (:mod:`engine.dice`), the JSON codec (:mod:`engine.codec`), replay
(:mod:`engine.replay`) and the registry of games by short name (:mod:`engine.games`).
"""
