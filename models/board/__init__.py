"""Boards: board JSON (SPEC §4) to a frozen game state and back (``load``), and the consistency
check of a loaded board (``status``)."""
