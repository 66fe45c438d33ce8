"""About: what this is, the board, the free memory and the saved game.

Written with few names (MicroPython interns every name and short string for good):
the heap figure asked of gc in place. CPython (the simulator) has no heap figure to
give: the line says so rather than leaving a gap where the memory should be."""

from core.games import GAMES
from firmware import ui
from firmware.screen import Screen


class AboutScreen(Screen):
    def draw(self, fb):
        ui.bar(fb, "About", 0, "v0.1")
        ui.text(fb, "Tabletop companion", 0, 9)
        for i, line in enumerate(ui.wrap(self.app.hw.board_name)[:2]):
            ui.text(fb, line, 0, 18 + i * 9)
        import gc
        gc.collect()
        try:
            ui.text(fb, "free memory %d KB" % (gc.mem_free() // 1024), 0, 36)
        except AttributeError:
            ui.text(fb, "free memory: n/a (PC)", 0, 36)  # CPython: the simulator
        session = self.app.session
        ui.text(fb, "saved: " + (GAMES[session.name][2] if session else "none"), 0, 45)
        ui.text(fb, "BACK: home", 0, 56)
