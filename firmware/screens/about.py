"""About: what this is, the board, memory and the saved game."""

from firmware import ui
from firmware.screen import Screen

VERSION = "0.1"


class AboutScreen(Screen):
    def draw(self, fb):
        ui.bar(fb, "About")
        ui.text(fb, "Companion v" + VERSION, 0, 9)
        for i, line in enumerate(ui.wrap(self.app.hw.board_name)[:2]):
            ui.text(fb, line, 0, 18 + i * 9)
        free = _mem_free()
        if free is not None:
            ui.text(fb, "heap free %dk" % (free // 1024), 0, 36)
        game = self.app.session.name if self.app.session else "none"
        ui.text(fb, "saved: " + game, 0, 45)
        ui.text(fb, "BACK: home", 0, 56)


def _mem_free():
    try:
        import gc
        gc.collect()
        return gc.mem_free()
    except (ImportError, AttributeError):
        return None
