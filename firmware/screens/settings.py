"""Settings: players and names, brightness, dimming, sleep, buzzer, and house rules.

LEFT/RIGHT change the selected value, OK opens the rows that lead further. Every
change is saved at once (atomically, by firmware.settings), so a power cut never
leaves half a settings file.
"""

from core.errors import IllegalAction
from core.games import GAMES, ORDER, game_class
from firmware import buttons as b
from firmware.screen import MenuScreen, is_step
from firmware.screens.textentry import TextEntryScreen

TIME_STEPS = (0, 15, 30, 60, 120, 300, 600, 1800, 3600)  # seconds; 0 = never
BRIGHTNESS_STEPS = (16, 64, 128, 192, 255)  # the panel's contrast


def step_in(steps, value, step):
    """The neighbour of `value` in `steps` (a value between steps snaps to one)."""
    i = 0
    while i < len(steps) - 1 and steps[i] < value:
        i += 1
    return steps[max(0, min(len(steps) - 1, i + step))]


def seconds(s):
    if not s:
        return "never"
    return "%ds" % s if s < 60 else "%dm" % (s // 60)


class SettingsScreen(MenuScreen):
    title = "Settings"

    def enter(self):
        s = self.app.settings
        rows = [
            ("Players    %d" % s.get("players"), self._players),
            ("Names...", None),
            ("Bright     %d%%" % (s.get("brightness") * 100 // 255), self._brightness),
            ("Dim after %s" % seconds(s.get("dim_s")), self._dim),
            ("Sleep     %s" % seconds(s.get("sleep_s")), self._sleep),
            ("Buzzer     %s" % ("on" if s.get("buzzer") else "off"), self._buzzer),
        ]
        opens = [None, self._names, None, None, None, None]
        for name in ORDER:
            if game_options(name):
                rows.append(("Rules " + GAMES[name][2], None))
                opens.append(self._rules(name))
        self.changers = [r[1] for r in rows]
        self.set_entries([(rows[i][0], opens[i] or _nothing) for i in range(len(rows))])

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind):
            change = self.changers[self.menu.index]
            if change is not None:
                change(-1 if button == b.LEFT else 1)
                self.app.settings.save()
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

    def _names(self):
        self.app.push(NamesScreen(self.app))

    def _rules(self, name):
        return lambda: self.app.push(RulesScreen(self.app, name))


def _nothing():
    """OK on a row that is changed with LEFT/RIGHT does nothing."""


def game_options(name):
    try:
        return game_class(name).OPTIONS
    except IllegalAction:  # a game left out of this build has no rules to set
        return {}


class NamesScreen(MenuScreen):
    title = "Names"

    def enter(self):
        s = self.app.settings
        self.set_entries([("P%d  %s" % (p, s.name(p)), self._edit(p)) for p in range(1, 9)])

    def _edit(self, p):
        def done(text):
            self.app.settings.set_name(p, text)
            self.app.settings.save()

        def edit():
            self.app.push(TextEntryScreen(self.app, "Name of P%d" % p, self.app.settings.name(p),
                                          done, length=6))
        return edit


class RulesScreen(MenuScreen):
    """A game's house rules (the options its rule spec allows). LEFT/RIGHT change the
    selected one; the game itself refuses a value it does not accept."""

    def __init__(self, app, name):
        MenuScreen.__init__(self, app, title="Rules")
        self.name = name
        self.title = GAMES[name][2]

    def enter(self):
        options = self.app.settings.game_options(self.name)
        self.keys = [k for k in sorted(options) if isinstance(options[k], int)]
        self.set_entries([("%s %s" % (k[:10], options[k]), _nothing) for k in self.keys])

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and self.keys:
            self._step(self.keys[self.menu.index], -1 if button == b.LEFT else 1)
            return
        MenuScreen.on_button(self, kind, button)

    def _step(self, key, direction):
        settings = self.app.settings
        before = settings.rules(self.name).get(key)
        settings.step_game_option(self.name, key, direction)
        value = settings.game_options(self.name)[key]
        try:  # the game itself is the judge of its options
            game_class(self.name)(game_class(self.name).MIN_PLAYERS, {key: value})
        except IllegalAction as e:
            settings.set_rule(self.name, key, before)
            self.app.toast(e.reason)
            return
        settings.save()
        self.enter()
