"""Casting a spell or activating an ability, up to the payment (CR 601.2a-f, 602.2): the request
built from a decoded query (build), the cost as announced and totalled (announce), alternative
and additional costs (alternatives), modifiers from the board (modifiers), abilities (abilities),
and timing (timing)."""
