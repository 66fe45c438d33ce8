"""Stack the Deck's screens: the scoreboard (scoreboard.py) opens the round sheet
(sheet.py: the sheet, a player's entries and the round they write to; by counters,
counts.py, or stack by stack, stack.py) and the ended rounds (rounds.py); view.py
draws what they share. Imported only when a Stack the Deck game is opened (firmware.screens
imports it; it imports core, the session's game and firmware.ui)."""
