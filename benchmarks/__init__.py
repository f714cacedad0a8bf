"""The benchmarks (``manasolver bench``).

``boards`` (boards and costs of real cards), ``cases`` (the plan and the record of one case),
``measure`` (our engine, batch, start-up, options), ``phase`` (the phase.rs driver) and ``peer``
(our cases through it), ``report`` (figures, markdown, plots), ``runner`` (the command);
``parser_coverage``, ``startup_installed`` and ``answers`` (the answer snapshot that compares two
versions of the code) run on their own.
"""
