"""Casting a spell or activating an ability, up to the payment (CR 601.2a-f, 602.2): the cost as
announced and totalled, alternative and additional costs, modifiers from the board, abilities, and
timing."""
