"""The project-wide API machinery: the router every app registers with, the one
exception handler and error schema, the request parsers and the OpenAPI schema class."""
