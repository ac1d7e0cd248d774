"""The games REST API: uploads, matches, imports, exports and the log schema."""
