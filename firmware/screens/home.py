"""The home menu: the three games, settings, about (and the saved game, if any)."""

from core.games import GAMES, ORDER
from firmware import buttons as b
from firmware import ui
from firmware.screen import MenuScreen, Screen, is_step


def unfinished(game):
    """A saved game still to finish. A Stress match is one until it is won: its `over`
    ends only one game of the match."""
    match_winner = getattr(game, "match_winner", None)
    if match_winner is not None:
        return match_winner() is None
    return not game.over


class HomeScreen(MenuScreen):
    """The cursor stays on its item when the rows change, and a game and its Resume
    row count as one item: back from a game the cursor is on Resume, after the game
    ended on that game's row (OK plays again), never on another game's row."""

    title = "Card companion"
    keys = ()

    def enter(self):
        entries = []
        keys = []
        session = self.app.session
        if session is not None and unfinished(session.game):
            entries.append(("Resume " + GAMES[session.name][2], self._resume))
            keys.append("resume " + session.name)
        for name in ORDER:
            entries.append((GAMES[name][2], self._opener(name)))
            keys.append(name)
        entries.append(("Settings", self._settings))
        keys.append("settings")
        entries.append(("About", self._about))
        keys.append("about")
        entries.append(("History", self._history))
        keys.append("history")
        was = self.keys
        old = was[self.menu.index] if self.menu.index < len(was) else None
        self.keys = keys
        self.set_entries(entries)
        if old is not None:
            game = old[7:] if old.startswith("resume ") else old
            want = old
            if "resume " + game in keys and "resume " + game not in was:
                want = "resume " + game  # back from that game: its Resume row
            if want not in keys:
                want = game  # the game ended: its own row
            if want in keys:
                self.menu.index = keys.index(want)

    def on_button(self, kind, button):
        if button == b.BACK:
            return  # nowhere to go back to from home
        MenuScreen.on_button(self, kind, button)

    def _resume(self):
        from firmware.screens import game_screen
        self.app.push(game_screen(self.app, self.app.session))

    def _opener(self, name):
        def open_game():
            session = self.app.session
            if session is not None and unfinished(session.game):
                from firmware.screens.confirm import ConfirmScreen
                self.app.push(ConfirmScreen(
                    self.app, "Start a new game? The saved %s game is lost." % GAMES[session.name][2],
                    lambda: self.app.push(NewGameScreen(self.app, name))))
            else:
                self.app.push(NewGameScreen(self.app, name))
        return open_game

    def _history(self):
        from firmware.screens.history import HistoryScreen
        self.app.push(HistoryScreen(self.app))

    def _settings(self):
        from firmware.screens.settings import SettingsScreen
        self.app.push(SettingsScreen(self.app))

    def _about(self):
        from firmware.screens.about import AboutScreen
        self.app.push(AboutScreen(self.app))


def _before_new(app):
    """firmware.archive.before_new, its module unloaded again after it (on MicroPython:
    the archive's code need not sit in the heap through the whole game) unless it was
    loaded already or keeps a message for History."""
    import sys
    from firmware.modules import forget_new_modules
    before = set(sys.modules)
    from firmware.archive import before_new
    answer = before_new(app)
    if getattr(sys.modules.get("firmware.archive"), "_said", None) is None:
        forget_new_modules(before)
    return answer


class NewGameScreen(Screen):
    """Players (LEFT/RIGHT), then OK starts the game with the house rules from settings."""

    def __init__(self, app, name):
        Screen.__init__(self, app)
        from core.games import game_class
        self.name = name
        self.cls = game_class(name)
        players = app.settings.get("players")
        self.players = min(max(players, self.cls.MIN_PLAYERS), self.cls.MAX_PLAYERS)

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT, b.UP, b.DOWN) and is_step(kind):
            step = -1 if button in (b.LEFT, b.DOWN) else 1
            n = self.players + step
            if self.cls.MIN_PLAYERS <= n <= self.cls.MAX_PLAYERS:
                self.players = n
                self.app.redraw()
        elif button == b.OK and kind == b.SHORT:
            self._start()
        else:
            Screen.on_button(self, kind, button)

    def _start(self):
        from core.errors import IllegalAction
        from firmware.screens import game_screen
        from firmware.session import Session
        go, said = _before_new(self.app)  # the game in play goes to the archive
        if not go:
            self.app.toast(said)
            return
        try:
            session = Session.new(self.app.journal, self.name, self.players,
                                  self.app.settings.rules(self.name))
        except (IllegalAction, OSError) as e:
            self.app.toast(str(e))
            return
        self.app.session = session
        self.app.settings.set("players", self.players)
        self.app.settings.save()
        self.app.replace(game_screen(self.app, session))
        if said:
            self.app.toast(said, 4000)

    def draw(self, fb):
        ui.bar(fb, GAMES[self.name][2])
        ui.text(fb, "Players", 0, 14)
        ui.big_center(fb, "< %d >" % self.players, 26, 2)
        ui.text(fb, "OK: start", 0, 56)
