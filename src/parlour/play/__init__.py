"""Playing in the terminal: a game loop driven by an input function, and a record stepper.

Both take their input as a function and print to a rich Console, so tests drive
them with scripted answers. They use the core API only, never a game's internals.
"""
