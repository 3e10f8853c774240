"""The index page: every thread as a card (its counts, title, activity), listed and streamed.

``directory`` keeps the cards, ``card_calls`` folds a card's calls from the
peeked records through the ledger, ``routes`` serves the page and its stream.
"""
