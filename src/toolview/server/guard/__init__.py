"""The guards in front of every route: host check, cross-site, token access, connection limits."""
