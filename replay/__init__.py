"""The replay viewer: a match's frames per perspective (API) and the page that steps through
them."""
