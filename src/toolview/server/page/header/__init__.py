"""The thread page's header: the counts line, the facts (models, tokens, time; agent, project,
branch, start) and the toolbar with its keys — each read from its one home, never re-derived.

``counts_line`` words the session's ``SessionCounts`` and cost, ``facts`` draws the
facts from the counts and the index's card, ``toolbar`` the search, filters and keys.
"""
