"""Search: a thread's redacted text, and the patterns run over it in processes of their own."""
