"""The core: the game/state protocol, options, errors, records, chance and views.

Depends on the standard library only.
"""
