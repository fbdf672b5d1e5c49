"""The pure rules core: cards, hand rankings and the game engines.

No Discord, SQLite or asyncio here: state + action -> new state + events.
"""
