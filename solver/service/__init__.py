"""The service around the engine: the line protocol and its decoder, the typed API, the schema,
sessions and the board cache, the HTTP server, the command line, rendering, the demo, the playground
and the parallel runners.  The engine never imports this package."""
