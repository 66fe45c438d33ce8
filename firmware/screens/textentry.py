"""Typing a short name with six buttons: a letter board.

The name is shown large and whole (up to 10 letters, the settings' NAME_MAX: 118 px at
scale 2); under it, every character it may hold, in four rows of seven that wrap both
ways:

    A B C D E F G
    H I J K L M N
    O P Q R S T U
    V W X Y Z - _      (_ is a space)

The arrows move over the board (held, they run: the REPEAT events), OK adds the
character under the cursor, BACK deletes the last one (on an empty name it leaves
without saving), a long OK saves (an empty name: the seat's own, P1). The cursor stays
where it was, so a double letter is one more OK. Any letter is at most 5 moves away:
"ANN" is OK, DOWN, LEFT, OK, OK and a long OK.
"""

from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

BOARD = ("ABCDEFG", "HIJKLMN", "OPQRSTU", "VWXYZ- ")
COLUMNS = 7
CELL_W = 16  # pixels per cell
CELL_H = 9
SPACE_MARK = "_"


class TextEntryScreen(Screen):
    def __init__(self, app, who, text, on_done, length=10):
        Screen.__init__(self, app)
        self.who = who
        self.length = length
        self.text = text.upper()[:length]
        self.row = 0
        self.col = 0
        self.on_done = on_done

    @property
    def chars(self):
        """The name typed so far (a list of characters)."""
        return list(self.text)

    def selected(self):
        return BOARD[self.row][self.col]

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            self.row = (self.row + (1 if button == b.DOWN else -1)) % len(BOARD)
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            self.col = (self.col + (1 if button == b.RIGHT else -1)) % COLUMNS
        elif button == b.OK and kind == b.SHORT:
            if len(self.text) >= self.length:
                self.app.beep(220, 150)
                return
            if self.text or self.selected() != " ":  # no leading space
                self.text += self.selected()
        elif button == b.OK and kind == b.LONG:
            text = self.text.strip()
            self.app.pop()
            self.on_done(text)  # after: what it says belongs to the screen below
            return
        elif button == b.BACK and kind == b.SHORT:
            if not self.text:
                self.app.pop()  # nothing typed: leave, nothing saved
                return
            self.text = self.text[:-1]
        elif button == b.BACK:
            Screen.on_button(self, kind, button)  # a long BACK: home, nothing saved
            return
        else:
            return
        self.app.redraw()

    def draw(self, fb):
        ui.bar(fb, "Name " + self.who, 0, "hold OK: save" if ui.COLS >= 20 else "hold OK")
        text = self.text
        # The name large, whole at any length: 10 letters are 118 px; the mark where
        # the next character goes only while there is room for one.
        slot = 14 if len(text) < self.length else 0
        tw = ui.big_width(text, 2) + 3 if text else 0
        x0 = (ui.W - tw - slot) // 2
        ui.big(fb, text, x0, 9, 2)
        if slot:
            fb.hline(x0 + tw, 25, slot, 1)
        left = (ui.W - COLUMNS * CELL_W) // 2
        inset = (CELL_W - ui.CHAR + 1) // 2
        for r in range(len(BOARD)):
            y = ui.H - (len(BOARD) - r) * CELL_H
            for c in range(COLUMNS):
                ch = BOARD[r][c]
                x = left + c * CELL_W
                on = r == self.row and c == self.col
                if on:
                    fb.fill_rect(x, y, CELL_W, CELL_H, 1)
                ui.text(fb, SPACE_MARK if ch == " " else ch, x + inset, y + 1, 0 if on else 1)
