"""Settings: players and names, brightness, dimming, sleep, buzzer, and house rules.

LEFT/RIGHT change the selected value (its row alone is drawn again), OK opens the rows
that lead further ("..."). Every change is saved at once (atomically, by
firmware.settings), so a power cut never leaves half a settings file; a flash that is
full or read-only says so ("flash full: not saved") and the change holds until the
device is switched off.

Every row is a label and a value in words and units, the value never cut:
"Dim after  30 s", "Debounce  20 ms", "Tie win  0.5 ms" (the long label where the
screen is wide enough: "Tie window  0.5 ms").
"""

from core.games import GAMES, ORDER
from firmware.drivers import buttons as b
from firmware.settings import store as settings_store  # loaded while the pages are open
from firmware import ui
from firmware.screen import MenuScreen, is_step
from firmware.settings.rules import OFFERED, game_options, rule_row, step_game_option

TIME_STEPS = (0, 15, 30, 60, 120, 180, 300, 600, 1800, 3600)  # seconds; 0 = never
BRIGHTNESS_STEPS = (16, 64, 128, 192, 255)  # the panel's contrast
ARCHIVE_STEPS = (32, 64, 128, 256, 384, 512, 768, 1024)  # KB of flash for past games


def step_in(steps, value, step):
    """The neighbour of `value` in `steps` (a value between steps snaps to one)."""
    i = 0
    while i < len(steps) - 1 and steps[i] < value:
        i += 1
    if steps[i] != value and step > 0:
        step -= 1  # between two steps: up goes to the upper one
    return steps[max(0, min(len(steps) - 1, i + step))]


def seconds(s):
    """A time in words: 'never', '30 s', '2 min', '1 h'."""
    if not s:
        return "never"
    if s % 3600 == 0:
        return "%d h" % (s // 3600)
    if s % 60 == 0:
        return "%d min" % (s // 60)
    return "%d s" % s


def width():
    """Characters in a row: the menu's (its cursor mark in front), less one blank
    column at the right, so a value ("50%", "on") never touches the scroll mark at the
    panel's edge."""
    return ui.Menu.LABEL_COLS - 1


def row(label, value, short=None):
    """`label` left, `value` right, in one menu row; the short label when the long one
    does not fit, the value never cut."""
    w = width()
    if len(label) + 1 + len(value) > w and short is not None:
        label = short
    room = w - len(value) - 1
    if len(label) > room:
        label = label[:max(0, room)]
    return label + " " * (w - len(label) - len(value)) + value


def saved(app):
    """Say so when the last change could not be saved (the flash full or read-only)."""
    problem = app.settings.problem
    if problem:
        app.toast(problem)


class SettingsScreen(MenuScreen):
    title = "Settings"

    def enter(self):
        s = self.app.settings
        rows = [
            (row("Players", "%d" % s.get("players")), self._players, _nothing),
            ("Names...", None, self._names),
            (row("Brightness", "%d%%" % (s.get("brightness") * 100 // 255), "Bright"),
             self._brightness, _nothing),
            (row("Dim after", seconds(s.get("dim_s")), "Dim"), self._dim, _nothing),
            (row("Sleep after", seconds(s.get("sleep_s")), "Sleep"), self._sleep, _nothing),
            (row("Buzzer", "on" if s.get("buzzer") else "off"), self._buzzer, _nothing),
        ]
        if any(OFFERED.get(name) for name in ORDER):
            rows.append(("House rules...", None, self._rules))
        rows.append((row("Archive", "%d KB" % s.get("archive_kb")), self._archive, _nothing))
        self.changers = [r[1] for r in rows]
        self.set_entries([(r[0], r[2]) for r in rows], True)  # a step: its row alone

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind):
            change = self.changers[self.menu.index]
            if change is not None:
                change(-1 if button == b.LEFT else 1)
                self.app.settings.save()
                saved(self.app)
                self.enter()
            return
        MenuScreen.on_button(self, kind, button)

    def _players(self, step):
        s = self.app.settings
        s.set("players", s.get("players") + step)

    def _brightness(self, step):
        s = self.app.settings
        s.set("brightness", step_in(BRIGHTNESS_STEPS, s.get("brightness"), step))
        self.app.apply_display_settings()

    def _dim(self, step):
        s = self.app.settings
        s.set("dim_s", step_in(TIME_STEPS, s.get("dim_s"), step))

    def _sleep(self, step):
        s = self.app.settings
        s.set("sleep_s", step_in(TIME_STEPS, s.get("sleep_s"), step))

    def _buzzer(self, step):
        s = self.app.settings
        s.set("buzzer", not s.get("buzzer"))
        self.app.beep()

    def _archive(self, step):
        s = self.app.settings
        s.set("archive_kb", step_in(ARCHIVE_STEPS, s.get("archive_kb"), step))

    def _names(self):
        self.app.push(NamesScreen(self.app))

    def _rules(self):
        self.app.push(HouseRulesScreen(self.app))


def _nothing():
    """OK on a row that is changed with LEFT/RIGHT does nothing."""


class NamesScreen(MenuScreen):
    title = "Names"

    def enter(self):
        s = self.app.settings
        self.set_entries([("P%d  %s" % (p, s.name(p)), self._edit(p)) for p in range(1, 9)], True)

    def _edit(self, p):
        app = self.app

        def done(text):
            app.settings.set_name(p, text)
            app.settings.save()
            self.enter()  # the new name in its row
            saved(app)

        def edit():
            name = app.settings.name(p)
            if name == "P%d" % p:
                name = ""  # the seat is no name to edit: start blank
            from firmware.screens.textentry import TextEntryScreen  # the Names page only
            app.push(TextEntryScreen(app, "P%d" % p, name, done,
                                     length=settings_store.NAME_MAX))
        return edit


class HouseRulesScreen(MenuScreen):
    """The games that have house rules; OK opens one."""

    title = "House rules"

    def enter(self):
        self.set_entries([(GAMES[name][2], self._open(name)) for name in ORDER
                          if OFFERED.get(name)])

    def _open(self, name):
        return lambda: self.app.push(RulesScreen(self.app, name))


class RulesScreen(MenuScreen):
    """A game's house rules (the options its rule spec allows), in words and units.
    LEFT/RIGHT step the selected one along its ladder; the game itself refuses a value
    it does not accept, and the rule stays where it was."""

    def __init__(self, app, name):
        MenuScreen.__init__(self, app, title=GAMES[name][2])
        self.name = name

    def enter(self):
        options = game_options(self.app.settings, self.name)  # this game's rules only
        keys = [k for k in OFFERED.get(self.name, ()) if k in options]
        self.keys = keys
        self.set_entries([(rule_row(k, options[k], width()), _nothing) for k in keys], True)

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and self.keys:
            self._step(self.keys[self.menu.index], -1 if button == b.LEFT else 1)
            return
        MenuScreen.on_button(self, kind, button)

    def _step(self, key, direction):
        settings = self.app.settings
        why = step_game_option(settings, self.name, key, direction)
        if why is not None:
            self.app.toast(why)
            return
        settings.save()
        saved(self.app)
        self.enter()

