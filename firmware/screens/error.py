"""Shown after an unexpected exception; the app restarts into the saved game."""

from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen


class ErrorScreen(Screen):
    def __init__(self, app, error):
        Screen.__init__(self, app)
        name = type(error).__name__
        self.lines = ui.wrap("%s: %s" % (name, error))[:4]
        self.since = app.hw.clock.ticks_ms()

    def on_button(self, kind, button):
        if kind == b.SHORT and button in (b.OK, b.BACK):
            self.app.start()

    def tick(self, now_ms):
        if self.app.hw.clock.ticks_diff(now_ms, self.since) >= self.app.RESTART_AFTER_MS:
            self.app.start()

    def awake(self):
        return True

    def draw(self, fb):
        ui.bar(fb, "Oops - error")
        for i, line in enumerate(self.lines):
            ui.text(fb, line, 0, 10 + i * 9)
        ui.text(fb, "Saved in error.log", 0, 47)
        ui.text(fb, "OK: restart", 0, 56)
