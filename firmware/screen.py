"""A screen: what is shown and how it answers the buttons.

The app keeps a stack of screens; the top one gets the events and draws. A screen
redraws only when it asks (`self.app.redraw()`), so an idle screen sends nothing.
A press that changes one value may ask for `self.app.redraw(True)`: the screen's
update() then draws the change over its last frame, instead of the app clearing the
frame and drawing it whole.
"""

from firmware.drivers import buttons as b
from firmware import ui


class Screen:
    # Repeat the arrows while held; OK and BACK act on release (short) or long hold.
    def __init__(self, app):
        self.app = app

    def enter(self):
        """Shown (first time, or again after the screen above it closed)."""

    def on_button(self, kind, button):
        """A navigation event: kind PRESS/RELEASE/SHORT/LONG/REPEAT, button UP..BACK.
        By default BACK goes back, and a long BACK goes home from anywhere."""
        if button == b.BACK:
            if kind == b.SHORT:
                self.app.pop()
            elif kind == b.LONG:
                self.app.home()

    def on_call(self, player, down, t_us):
        """A raw Stress call-button edge (not debounced: the arbiter does that)."""

    def tick(self, now_ms):
        """Called every loop turn: timers and countdowns."""

    def draw(self, fb):
        """Draw the whole screen into the cleared framebuffer."""

    def update(self, fb):
        """After redraw(True), the framebuffer holding this screen's last frame: draw
        what changed over it (clear what may have changed and draw it again) and answer
        True, leaving exactly what draw() would; False: it is drawn whole."""
        return False

    def awake(self):
        """True while the screen must not dim or sleep (a countdown, an armed call)."""
        return False

    def due_ms(self):
        """Milliseconds until tick() must run again when no input comes (-1: only on
        input; the app loop sleeps until then). By default the loop's pace (App.LOOP_MS)
        while awake(), as a countdown needs; a screen that is awake but only waits for
        input (a match waiting for a call) may answer -1."""
        return self.app.LOOP_MS if self.awake() else -1

    def ready(self):
        """False while the screen will change again by itself within a loop turn or two
        (a Stress call whose winner is being timed): its frame waits, so the panel gets
        the one final frame of a press, not two."""
        return True

    def toast_place(self):
        """Where the app may show a message over this screen: "bottom", "top" (when the
        bottom holds something that must stay visible), or None (never: a dialog)."""
        return "bottom"

    def toast_scope(self):
        """What a message belongs to within this screen (a screen with several views
        answers its view): when the answer changes, the message goes."""
        return None


def is_step(kind):
    """Arrows move on a press and keep moving while held."""
    return kind == b.PRESS or kind == b.REPEAT


class MenuScreen(Screen):
    """A titled list; OK runs the selected item's action, BACK goes back. A cursor move
    draws only the rows it changed (ui.Menu.update)."""

    title = ""

    def __init__(self, app, entries=None, title=None):
        Screen.__init__(self, app)
        if title is not None:
            self.title = title
        self.entries = entries or []  # (label, callable)
        self.menu = ui.Menu([e[0] for e in self.entries])

    def set_entries(self, entries, part=False):
        """New rows (part: the title stays, so only the rows that changed are drawn)."""
        self.entries = entries
        self.menu.items = [e[0] for e in entries]
        if self.menu.index >= len(entries):
            self.menu.index = 0
        self.app.redraw(part)

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            self.menu.move(-1 if button == b.UP else 1)
            self.app.redraw(True)
        elif button == b.OK and kind == b.SHORT and self.entries:
            self.entries[self.menu.index][1]()
        else:
            Screen.on_button(self, kind, button)

    def draw(self, fb):
        ui.bar(fb, self.title)
        self.menu.draw(fb)

    def update(self, fb):
        # the title bar stays: a subclass that draws more than the bar and the list
        # (what the cursor or the rows may change) answers False
        return self.menu.update(fb)
