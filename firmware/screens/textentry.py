"""Typing a short name with six buttons.

UP/DOWN change the letter under the cursor (held: they run), LEFT/RIGHT move the
cursor, OK saves, BACK leaves without saving. A space at the end is trimmed.
"""

from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

ALPHABET = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"


class TextEntryScreen(Screen):
    def __init__(self, app, title, text, on_done, length=8):
        Screen.__init__(self, app)
        self.title = title
        self.chars = list(text.upper()[:length].ljust(length))
        self.cursor = 0
        self.on_done = on_done

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            ch = self.chars[self.cursor]
            i = ALPHABET.find(ch)
            i = (i + (1 if button == b.UP else -1)) % len(ALPHABET)
            self.chars[self.cursor] = ALPHABET[i]
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            step = -1 if button == b.LEFT else 1
            self.cursor = (self.cursor + step) % len(self.chars)
        elif button == b.OK and kind == b.SHORT:
            text = "".join(self.chars).strip()
            if text:
                self.on_done(text)  # first, so the screen below shows the new name
            self.app.pop()
            return
        elif button == b.BACK and kind == b.SHORT:
            self.app.pop()
            return
        else:
            return
        self.app.redraw()

    def draw(self, fb):
        ui.bar(fb, self.title)
        text = "".join(self.chars)
        x0 = (ui.W - ui.big_width(text, 2)) // 2
        ui.big(fb, text, x0, 20, 2)
        fb.fill_rect(x0 + self.cursor * 16, 38, 16, 2, 1)
        fb.text("OK:save BACK:no", 0, 56)
