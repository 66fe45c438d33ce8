"""The home menu's rows and what they open (firmware.screens.home is the screen): loaded
when the menu is shown, dropped on MicroPython when a game screen goes over it, so that
under a game in play the home screen holds no code but its own small class."""

import sys

from core.games import GAMES, ORDER
from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

NAME = "firmware.screens.home_menu"


def unfinished(game):
    """A saved game still to finish. A Stress match is one until it is won: its `over`
    ends only one game of the match."""
    match_winner = getattr(game, "match_winner", None)
    if match_winner is not None:
        return match_winner() is None
    return not game.over


# Players a new game of these starts with, whatever the last game had: the table's
# size (settings "players", kept by the other games) is not Stress's, played in twos.
GAME_PLAYERS = {"stress": 2}


def resume_label(title):
    """The saved game's row, its name whole in the 20 columns a menu row has: 'Resume
    Stack 31', 'Resume Stress', and 'Go on Stack the Deck' ('Resume Stack the Deck' is
    one column too long)."""
    label = "Resume " + title
    return label if len(label) <= ui.Menu.LABEL_COLS else "Go on " + title


def new_game_question(title):
    """Asked before a new game starts over a saved one: the saved game is archived
    (firmware.archive.keep.before_new), never lost; the new game starts only when it is."""
    return "Start a new game? The saved %s game goes to History." % title


def rows(home):
    """Build the home screen's rows. The cursor stays on its item when the rows change,
    and a game and its Resume row count as one item: back from a game the cursor is on
    Resume, after the game ended on that game's row (OK plays again), never on another
    game's row."""
    app = home.app
    entries = []
    keys = []
    session = app.session
    if session is not None and unfinished(session.game):
        entries.append((resume_label(GAMES[session.name][2]), lambda: _resume(home)))
        keys.append("resume " + session.name)
    for name in ORDER:
        entries.append((GAMES[name][2], _opener(app, name)))
        keys.append(name)
    entries.append(("Settings", lambda: _open(app, "settings", "SettingsScreen")))
    keys.append("settings")
    entries.append(("About", lambda: _open(app, "about", "AboutScreen")))
    keys.append("about")
    entries.append(("History", lambda: _open(app, "history", "HistoryScreen")))
    keys.append("history")
    was = home.keys
    old = was[home.menu.index] if home.menu.index < len(was) else None
    home.keys = keys
    home.set_entries(entries)
    if old is not None:
        game = old[7:] if old.startswith("resume ") else old
        want = old
        if "resume " + game in keys and "resume " + game not in was:
            want = "resume " + game  # back from that game: its Resume row
        if want not in keys:
            want = game  # the game ended: its own row
        if want in keys:
            home.menu.index = keys.index(want)


def _under_game(app):
    """A game screen goes over home: its rows, this module and the games' table it
    reads go (MicroPython), the cursor stays (home.keys, home.menu)."""
    app.screens[0].entries = None
    if sys.implementation.name == "micropython":
        from firmware.modules import forget_module
        forget_module(NAME)
        forget_module("core.games")


def _resume(home):
    from firmware.screens import game_screen
    app = home.app
    screen = game_screen(app, app.session)
    _under_game(app)
    app.push(screen)


def _opener(app, name):
    def open_game():
        session = app.session
        if session is not None and unfinished(session.game):
            from firmware.screens.confirm import ConfirmScreen
            app.push(ConfirmScreen(
                app, new_game_question(GAMES[session.name][2]),
                lambda: app.push(NewGameScreen(app, name))))
        else:
            app.push(NewGameScreen(app, name))
    return open_game


def _open(app, module, cls):
    screen = getattr(__import__("firmware.screens." + module, None, None, (cls,)), cls)
    app.push(screen(app))


def _before_new(app):
    """firmware.archive.keep.before_new: the game in play goes to the archive. The archive is
    not loaded when there is no game on flash. On MicroPython, once the game is archived
    every module loaded since start goes (app.forget_modules: the archive, the old
    game's rules, this menu's), so the new game's rules load (Session.new) into a heap
    that holds no other game's."""
    from firmware.session import JOURNAL
    if not app.hw.storage.exists(JOURNAL):
        return True, None  # nothing to keep (what before_new answers then)
    before = set(sys.modules)
    from firmware.archive.keep import before_new
    answer = before_new(app)
    before_new = None
    if answer[0]:
        app.forget_modules()
    else:  # the game stays in play: what the archive loaded goes
        from firmware.modules import forget_new_modules
        forget_new_modules(before)
    return answer


class NewGameScreen(Screen):
    """Players (LEFT/RIGHT), then OK starts the game with the house rules from settings."""

    def __init__(self, app, name):
        Screen.__init__(self, app)
        self.name = name
        # the game's player limits from core.games: its rules load only when it starts
        # (after the game in play is archived and its rules let go: _before_new)
        self.lo = GAMES[name][3]
        self.hi = GAMES[name][4]
        self.players = min(max(GAME_PLAYERS.get(name) or app.settings.get("players"),
                               self.lo), self.hi)

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT, b.UP, b.DOWN) and is_step(kind):
            step = -1 if button in (b.LEFT, b.DOWN) else 1
            n = self.players + step
            if self.lo <= n <= self.hi:
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
                                  self.app.settings.rules(self.name),
                                  [self.app.settings.name(p) for p in range(1, self.players + 1)])
        except (IllegalAction, OSError) as e:
            self.app.toast(str(e))
            return
        self.app.session = session
        if self.name not in GAME_PLAYERS:  # the table's size, for its next game
            self.app.settings.set("players", self.players)
            self.app.settings.save()
        screen = game_screen(self.app, session)
        _under_game(self.app)
        self.app.replace(screen)
        if said:
            self.app.toast(said, 4000)

    def draw(self, fb):
        ui.bar(fb, GAMES[self.name][2])
        ui.text(fb, "Players", 0, 14)
        ui.big_center(fb, "< %d >" % self.players, 26, 2)
        ui.text(fb, "OK: start", 0, 56)
