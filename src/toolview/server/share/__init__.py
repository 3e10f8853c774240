"""Share a session safely: one self-contained document, and a review of what it hides.

``build.build_share`` draws the document (``toolview share`` and the live
page's Share action call it), ``review.Review`` redacts each observation and
keeps what it hid, by call and field (``safety.noted``: no second scan), and
``words.UserWords`` hides the user's own words (``--redact``,
``--strip-home``). See docs/share.md.
"""
