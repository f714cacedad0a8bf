"""The ``options`` query (SPEC §5): every maximal pool of mana the player can have at once, and the
pool doublers that act on it."""
