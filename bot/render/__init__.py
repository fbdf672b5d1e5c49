"""Cards, hands, tables and charts as text and PNG images, shared by all cogs.

Pure functions of their inputs (Pillow only, no Discord calls, no downloaded assets):

- :mod:`bot.render.text`: ``cards_text``, ``format_chips``, ``seats_table`` (``SeatRow``);
- :mod:`bot.render.images`: ``render_hand``, ``render_showdown`` (PNG bytes);
- :mod:`bot.render.charts`: ``render_balance_chart`` (PNG bytes).
"""

from bot.render.charts import render_balance_chart
from bot.render.images import render_hand, render_showdown
from bot.render.text import SeatRow, cards_text, format_chips, seats_table

__all__ = [
    "SeatRow",
    "cards_text",
    "format_chips",
    "render_balance_chart",
    "render_hand",
    "render_showdown",
    "seats_table",
]
