"""What a player can supply toward a payment: the model (model), its building (build), the
resources other than mana sources (resources), and what the engine does not model (unmodelled)."""
