"""The web card table (``parlour serve``): an authoritative server that sends each seat only
what it may know, SQLite persistence, bots, spectators, and the static browser client.

Needs the ``web`` extra (fastapi, uvicorn); nothing here is imported by the engine.
"""
