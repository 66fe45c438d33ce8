"""Settings: players and names, brightness, sleep, buzzer, and each game's house rules.

Every change is saved at once (atomically, by firmware.settings), so a power cut never
leaves half a settings file.
"""

from core.games import GAMES, ORDER, game_class
from firmware import buttons as b
from firmware.screen import MenuScreen, is_step
from firmware.screens.textentry import TextEntryScreen

BRIGHTNESS_STEPS = (16, 64, 128, 192, 255)
SLEEP_STEPS = (0, 60, 120, 300, 600, 1800)  # seconds; 0 = never


def _next(steps, value, step):
    """The neighbour of `value` in `steps` (values between steps snap to one)."""
    i = 0
    while i < len(steps) - 1 and steps[i] < value:
        i += 1
    return steps[max(0, min(len(steps) - 1, i + step))]


class SettingsScreen(MenuScreen):
    """LEFT/RIGHT change the selected value; OK opens the rows that lead further."""

    title = "Settings"

    def enter(self):
        s = self.app.settings
        sleep = s.get("sleep_s")
        rows = [
            ("Players   %d" % s.get("players"), self._names, self._players),
            ("Names...", self._names, None),
            ("Bright    %d%%" % (s.get("brightness") * 100 // 255), None, self._brightness),
            ("Sleep     %s" % (("%dm" % (sleep // 60)) if sleep else "never"), None, self._sleep),
            ("Buzzer    %s" % ("on" if s.get("buzzer") else "off"), None, self._buzzer),
        ]
        for name in ORDER:
            if game_class_options(name):
                rows.append(("Rules: " + GAMES[name][2], self._rules(name), None))
        self.rows = rows
        self.set_entries([(r[0], r[1] or (lambda: None)) for r in rows])

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind):
            change = self.rows[self.menu.index][2]
            if change is not None:
                change(-1 if button == b.LEFT else 1)
                self.enter()
            return
        MenuScreen.on_button(self, kind, button)

    def _players(self, step):
        s = self.app.settings
        s.set("players", max(1, min(8, s.get("players") + step)))

    def _brightness(self, step):
        s = self.app.settings
        s.set("brightness", _next(BRIGHTNESS_STEPS, s.get("brightness"), step))
        self.app.apply_display_settings()

    def _sleep(self, step):
        s = self.app.settings
        s.set("sleep_s", _next(SLEEP_STEPS, s.get("sleep_s"), step))

    def _buzzer(self, step):
        s = self.app.settings
        s.set("buzzer", not s.get("buzzer"))
        self.app.beep()

    def _names(self):
        self.app.push(NamesScreen(self.app))

    def _rules(self, name):
        return lambda: self.app.push(RulesScreen(self.app, name))


def game_class_options(name):
    try:
        return game_class(name).OPTIONS
    except Exception:  # noqa: BLE001 - a game missing from this build has no rules
        return {}


class NamesScreen(MenuScreen):
    title = "Names"

    def enter(self):
        s = self.app.settings
        entries = []
        for p in range(1, 9):
            entries.append(("P%d  %s" % (p, s.player_name(p)), self._edit(p)))
        self.set_entries(entries)

    def _edit(self, p):
        def edit():
            self.app.push(TextEntryScreen(
                self.app, "Name of P%d" % p, self.app.settings.player_name(p),
                lambda text: self.app.settings.set_player_name(p, text), length=6))
        return edit


class RulesScreen(MenuScreen):
    """A game's house rules (the options its rule spec makes optional): LEFT/RIGHT."""

    def __init__(self, app, name):
        MenuScreen.__init__(self, app, title="Rules " + GAMES[name][2])
        self.name = name

    def enter(self):
        options = self.app.settings.game_options(self.name)
        self.keys = sorted(game_class_options(self.name))
        self.set_entries([("%s %s" % (k[:9], options[k]), lambda: None) for k in self.keys])

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and self.keys:
            key = self.keys[self.menu.index]
            self.app.settings.step_game_option(self.name, key, -1 if button == b.LEFT else 1)
            self.enter()
            return
        MenuScreen.on_button(self, kind, button)
