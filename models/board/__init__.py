"""Boards: board JSON to a frozen game state (``load``, with the schema and the checks of
single values in ``schema`` and the cards of a board in ``cards``), a state back to JSON (``dump``),
and the consistency check of a loaded board (``status``)."""
