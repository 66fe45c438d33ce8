"""Stack the Deck: a question with two answers, OK and BACK each doing something
("Save changes?": OK saves, BACK discards). Loaded only when an edit asks."""

from firmware.drivers import buttons as b
from firmware.screens.confirm import ConfirmScreen


class Ask(ConfirmScreen):
    def __init__(self, app, question, on_yes, on_no=None, yes="OK: save", no="BACK: no"):
        ConfirmScreen.__init__(self, app, question, on_yes, yes, no)
        self.on_no = on_no

    def on_button(self, kind, button):
        if kind == b.SHORT and button == b.BACK and self.on_no is not None:
            self.app.pop()
            self.on_no()
        else:
            ConfirmScreen.on_button(self, kind, button)
