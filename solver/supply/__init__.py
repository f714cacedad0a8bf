"""What a player can supply toward a payment: the pool and the sources grouped into classes with
counts, and what the engine does not model."""
