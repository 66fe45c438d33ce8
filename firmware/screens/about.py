"""About: what this is, the board, memory and the saved game.

Written with few names (MicroPython interns every name and short string for good):
the version is in the longer literal, the heap figure asked of gc in place."""

from firmware import ui
from firmware.screen import Screen


class AboutScreen(Screen):
    def draw(self, fb):
        ui.bar(fb, "About")
        ui.text(fb, "Companion v0.1", 0, 9)
        for i, line in enumerate(ui.wrap(self.app.hw.board_name)[:2]):
            ui.text(fb, line, 0, 18 + i * 9)
        try:
            import gc
            gc.collect()
            ui.text(fb, "heap free %dk" % (gc.mem_free() // 1024), 0, 36)
        except (ImportError, AttributeError):
            pass
        ui.text(fb, "saved: " + (self.app.session.name if self.app.session else "none"), 0, 45)
        ui.text(fb, "BACK: home", 0, 56)
