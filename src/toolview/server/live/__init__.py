"""Live: the hubs that encode a thread's frames once, and the SSE and AG-UI follows.

Each frame is read, redacted and encoded once per hub, then written to every follower.
"""
