"""A yes/no question. OK says yes, BACK says no. No message is ever drawn over it."""

from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen


class ConfirmScreen(Screen):
    def __init__(self, app, question, on_yes, yes="OK: yes", no="BACK: no"):
        Screen.__init__(self, app)
        self.lines = ui.wrap(question)[:5]
        self.on_yes = on_yes
        self.yes = yes
        self.no = no

    def on_button(self, kind, button):
        if kind != b.SHORT:
            return
        if button == b.OK:
            self.app.pop()
            self.on_yes()
        elif button == b.BACK:
            self.app.pop()

    def toast_place(self):
        return None  # nothing ever covers the question or "OK: yes / BACK: no"

    def draw(self, fb):
        for i, line in enumerate(self.lines):
            ui.center(fb, line, 4 + i * 9)
        ui.text(fb, self.yes, 0, 48)
        ui.text(fb, self.no, 0, 56)
