"""The hardware layer (hardware.py, let go once it has opened the rest) and its drivers:
SSD1306 display, buttons, buzzer, clock; the fonts' glyph data. Imports storage and boards only; everything above imports it."""
