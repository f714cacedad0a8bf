"""The upper floors of manasolver: the source graph, the payment backends,
policies, queries, the JSON protocol and the command line."""
