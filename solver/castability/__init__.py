"""Castability over a deck: sampled games of a decklist, each one's land drops searched and
each board's payment solved exactly by the engine, added up into the probability of casting each spell
by turn.  :mod:`.deck` reads decklists, :mod:`.lands` reads how lands enter, :mod:`.board` asks the
engine and remembers, :mod:`.games` plays the games in chunks, :mod:`.run` adds the chunks up and shows
them, :mod:`.suggest` tries changes to the lands on the same games, :mod:`.command` is the command
line's subcommand.
"""
