"""The OpenAPI 3.1 document of ``manasolver serve``, built from the same definitions as the
JSON Schema (:mod:`~manasolver.solver.service.schema.jsonschema`).

OpenAPI 3.1 takes JSON Schema 2020-12 as it is, so the schema's ``$defs`` become
``components.schemas`` with their references moved there; the paths are the service's routes,
each with the query and answer definitions it takes and gives.  Built in the process, from the
package, with no network: ``GET /openapi.json`` answers it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from manasolver.solver.service.schema.jsonschema import DIALECT, json_schema

__all__ = ["openapi"]

_COMPONENTS = "#/components/schemas/"


def _moved(value: Any) -> Any:
    """``#/$defs/X`` references rewritten to ``#/components/schemas/X``, everywhere in ``value``."""
    if isinstance(value, dict):
        return {k: (_COMPONENTS + v[len("#/$defs/"):] if k == "$ref" and isinstance(v, str) else _moved(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [_moved(v) for v in value]
    return value


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _COMPONENTS + name}


def _json(name: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(name)}}}


_REFUSED = {
    "400": "the body is not UTF-8 or not JSON, or not an object",
    "403": "a foreign Host or Origin",
    "404": "no such path",
    "405": "the method is not allowed on this path",
    "408": "the request was too slow",
    "411": "a body without a Content-Length",
    "413": "the body is too large",
    "415": "the body is not declared as JSON",
    "503": "too many connections",
}


def _refusals() -> dict[str, Any]:
    return {code: _json("ErrorAnswer", f"a request that never reached the engine: {why}")
            for code, why in _REFUSED.items()}


def openapi(version: str, routes: Iterable[str] | None = None) -> dict[str, Any]:
    """The OpenAPI document, for the installed ``version``; ``routes`` (default: every route
    described here) are the paths the server answers, and only those are in the document."""
    schema = json_schema()
    components = _moved(schema["$defs"])
    query_op = {
        "summary": "Answer one query",
        "description": "One query object in, its answer object out. Errors of input are answers "
                       "(status 200) with an \"error\" object.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Query")}}},
        "responses": {"200": _json("Answer", "the query's answer"), **_refusals()},
    }
    lines = ("JSON lines: one query object a line in, one answer a line out, in order; every line "
             "is answered, a bad one with an error object naming it (\"line N\").")
    batch_op = {
        "summary": "Answer many queries",
        "description": "JSON lines or a JSON array of queries in; JSON lines out, in order, streamed.",
        "requestBody": {"required": True, "content": {
            "application/x-ndjson": {"schema": {"type": "string", "description": lines}},
            "application/json": {"schema": {"type": "array", "items": _ref("Query")}},
        }},
        "responses": {"200": {"description": "one answer a line, in the order of the queries",
                              "content": {"application/x-ndjson": {"schema": {
                                  "type": "string", "description": "one Answer object a line"}}}},
                      **_refusals()},
    }
    search = {"operationId": "cards", "summary": "Card names for the playground page",
              "parameters": [
                  {"name": "q", "in": "query", "schema": {"type": "string"},
                   "description": "a card name or part of one, as typed (case and accents aside; a misspelt "
                                  "name finds the names close to it)"},
                  {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1},
                   "description": "the most names answered"},
                  {"name": "zone", "in": "query",
                   "schema": {"type": "string", "enum": ["battlefield", "command", "hand", "graveyard"]},
                   "description": "where the card goes: only cards that can be there are offered "
                                  "(battlefield: permanent cards and tokens); every name when not given"}],
              "responses": {"200": _json("CardSearch", "the cards found"),
                            "400": _json("ErrorAnswer", "a bad q, limit or zone")}}
    known: dict[str, Any] = {
        "/v1/query": {"post": {"operationId": "query", **query_op}},
        "/": {"post": {"operationId": "rootQuery", **query_op},
              "get": {"operationId": "playground", "summary": "The playground page; its files "
                                                              "are under /static/",
                      "responses": {"200": {"description": "the page",
                                            "content": {"text/html": {"schema": {"type": "string"}}}},
                                    "404": _json("ErrorAnswer", "the page is not built in this version")}}},
        "/v1/batch": {"post": {"operationId": "batch", **batch_op}},
        "/healthz": {"get": {"operationId": "health", "summary": "Liveness",
                             "responses": {"200": _json("Health", "the server is up")}}},
        "/openapi.json": {"get": {"operationId": "openapi", "summary": "This document",
                                  "responses": {"200": {"description": "the OpenAPI document",
                                                        "content": {"application/json": {
                                                            "schema": {"type": "object"}}}}}}},
        "/v1/cards": {"get": search},
        "/v1/examples": {"get": {"operationId": "examples", "summary": "The bundled example boards",
                                 "responses": {"200": _json("Examples", "the boards and the demo's questions")}}},
    }
    paths = {p: known.get(p, {"get": {"summary": "a route of this server", "responses": {
        "200": {"description": "its answer"}}}}) for p in (known if routes is None else routes)}
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": DIALECT,
        "info": {
            "title": "manasolver",
            "version": version,
            "summary": "Payment and legality engine for Magic: The Gathering costs",
            "description": "The JSON protocol over HTTP (manasolver serve). Each query's answers are "
                           "in components.schemas as answer.<query>.",
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "http://127.0.0.1:8765", "description": "manasolver serve (the default port)"}],
        "paths": paths,
        "components": {"schemas": components},
    }


def openapi_bytes(version: str, routes: Iterable[str] | None = None) -> bytes:
    """The document as the bytes ``GET /openapi.json`` answers."""
    return json.dumps(openapi(version, routes)).encode("utf-8")
