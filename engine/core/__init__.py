"""The shared core every game plugs into: registry, replay, chance, schema, command line."""
