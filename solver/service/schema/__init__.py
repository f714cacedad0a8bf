"""The protocol's typed definitions and the documents generated from them.

:mod:`~manasolver.solver.service.schema.types` defines every query, answer and board object as a
``TypedDict``; :mod:`~manasolver.solver.service.schema.jsonschema` turns them into the JSON Schema
(``docs/schema.json``) and :mod:`~manasolver.solver.service.schema.openapi` into the OpenAPI document that
``manasolver serve`` answers at ``GET /openapi.json``.  ``python -m manasolver.solver.service.schema
--write docs/`` writes the committed files; ``--check docs/`` says whether they are current.
"""
