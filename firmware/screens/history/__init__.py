"""History: the list of past games, here; a game's summary (summary.py), the words
both use (words.py). Imported when History opens; imports the archive.

History: the past games (firmware/archive/store.py), newest first; OK opens one.

Each game on two lines: number, game, players and the result in a word ("12 Deck 3p
won"), then who (the names the game was played with, sized for 10 characters: "ANN",
"ANN+BOB" on a tie), the scores of a game left unfinished ("12 8 -4") or the damage
("damaged: 4 of 48"). The index is read a row at a time (archive.Pager): only the rows
on the screen are kept, whatever the number of games. Archived games are read-only. A
game in play that is over is moved to the archive when History opens (the table has
left its end screen).

Opening History checks the index against the files (archive_read.Index.sound: one
listing and one CRC-32 over the index); where they disagree the index is mended from
the files (firmware.archive.fix.mend) and the screen says what was mended. Opening a
game checks its transcript against its row (a CRC-32 of that one file); a transcript
changed since is re-read first, and said.

Heap on the board: History reads with firmware.archive.read alone. firmware.archive.store
(keeping, repairs, the replay of a transcript through its game's rules) is loaded only
for a game to archive, a repair or a rebuild, and let go right after, with whatever it
loaded. When History opens, the home menu's rows and every module loaded since start
that no page of History needs go (the game in play's rules stay); a game's summary
(history_game) goes when the list is back; and the app lets all of History go at home.
"""

import sys

from firmware.archive import read as ar
from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.history.words import head, who

# What the list needs (the rest goes when History opens: _trim)
HERE = ("firmware.archive.read", "firmware.screens.history", "firmware.screens.history.words")
GAME = "firmware.screens.history.summary"

ROWS = 3  # games on the screen, two lines each, under the title
PITCH = 18  # pixels from one game to the next (two text lines and a gap)
class HistoryScreen(Screen):
    def __init__(self, app):
        Screen.__init__(self, app)
        self.index = 0
        self.top = 0
        self.shown = {}  # row number -> Row, only those on the screen
        self.pager = None
        self.said = None

    def enter(self):
        if self.pager is None:
            self._open()
        elif GAME in sys.modules:  # back from a game's summary
            _trim(self.app)
        self._fill()
        if self.said:
            self.app.toast(self.said, 4000)
            self.said = None

    def _open(self):
        app = self.app
        _trim(app)  # before a game is archived: the replay has the heap
        self.arch = arch = ar.Index(app.hw.storage)
        said = ar.take_said()
        session = app.session
        if session is not None and session.game is not None and ar.ended(session.game):
            session = None
            said = ar.join(said, self._rare("keep"))
        session = None
        try:
            if not arch.sound():
                said = ar.join(said, self._rare("check"))
            self.pager = ar.Pager(arch)
        except ar.Damaged:
            said = ar.join(said, self._rare("rebuild"))
            self.pager = ar.Pager(arch)
        except OSError as e:
            said = ar.join(said, "Archive: " + ar.why(e))
            self.pager = None
        self.said = said

    def _rare(self, what, seq=0):
        """firmware.archive.store.for_history(app, what, seq), or for "keep"
        firmware.archive.keep's (the replay, then the store: never both in the heap), the
        modules let go after (with what they loaded: the replay's rules) on a board."""
        try:
            if what == "keep":
                from firmware.archive.keep import for_history
                return for_history(self.app)
            from firmware.archive import store as archive
            return archive.for_history(self.app, what, seq)
        finally:
            archive = for_history = None
            _trim(self.app)

    def count(self):
        return self.pager.count if self.pager is not None else 0

    def _fill(self):
        """Read the rows on the screen (only those): a damaged one rebuilds the index."""
        n = self.count()
        if self.index < self.top:
            self.top = self.index
        elif self.index >= self.top + ROWS:
            self.top = self.index - ROWS + 1
        for k in list(self.shown):  # forget the rows scrolled away
            if not self.top <= k < self.top + ROWS:
                del self.shown[k]
        try:
            for i in range(self.top, min(n, self.top + ROWS)):
                if i not in self.shown:
                    self.shown[i] = self.pager.row(i)
        except (ar.Damaged, ValueError):
            self.said = ar.join(self.said, self._rare("rebuild"))
            self.index = self.top = 0
            self._reopen()
        except OSError as e:
            self.said = ar.join(self.said, "Archive: " + ar.why(e))
            self.pager = None
            self.shown = {}

    def _reopen(self):
        """The index was mended: read again (the cursor kept where it can be)."""
        try:
            self.pager = ar.Pager(self.arch)
            self.shown = {}
            n = self.count()
            if self.index >= n:
                self.index = max(0, n - 1)
            self.top = min(self.top, self.index)
            for i in range(self.top, min(n, self.top + ROWS)):
                self.shown[i] = self.pager.row(i)
        except (ar.Damaged, ValueError, OSError) as e:
            self.said = ar.join(self.said, "Archive: " + ar.why(e))
            self.pager = None
            self.shown = {}

    def _file_sound(self, r):
        try:
            return self.arch.file_sound(r)
        except OSError:
            return True  # opened from its row as it is; the flash said nothing new

    def on_button(self, kind, button):
        n = self.count()
        if button in (b.UP, b.DOWN) and is_step(kind) and n:
            self.index = (self.index + (-1 if button == b.UP else 1)) % n
            self._fill()
            if self.said:
                self.app.toast(self.said, 4000)
                self.said = None
            self.app.redraw()
        elif button == b.OK and kind == b.SHORT and n:
            r = self.shown.get(self.index)
            if r is not None and not self._file_sound(r):
                self.said = ar.join(self.said, self._rare("reread", r.seq))
                self._reopen()
                r = self.shown.get(self.index)
                if self.said:
                    self.app.toast(self.said, 4000)
                    self.said = None
            if r is not None:
                from firmware.screens.history.summary import game_screen
                self.app.push(game_screen(self.app, r))
        else:
            Screen.on_button(self, kind, button)

    def draw(self, fb):
        n = self.count()
        ui.bar(fb, "History", right_text="%d game%s" % (n, "" if n == 1 else "s"))
        if not n:
            ui.center(fb, "No games yet", 24)
            ui.center(fb, "Games are kept here", 36)
            ui.center(fb, "when the next starts", 45)
            return
        for k in range(ROWS):
            i = self.top + k
            r = self.shown.get(i)
            if r is None:
                break
            y = 9 + k * PITCH
            if i == self.index:
                ui.marker(fb, 0, y)
            ui.text(fb, head(r), ui.CHAR, y)
            ui.text(fb, who(r, ui.COLS - 2), ui.CHAR, y + ui.LINE)
        if n > ROWS:
            span = ROWS * PITCH
            h = max(3, span * ROWS // n)
            pos = 9 + (span - h) * self.top // max(1, n - ROWS)
            fb.vline(ui.W - 1, pos, h, 1)


def _trim(app):
    """On a board: only what History's list needs stays loaded, and the game in play's
    rules (app.forget_modules); the home menu's rows go with their module (home builds
    them again when shown)."""
    if sys.implementation.name == "micropython":
        app.screens[0].entries = None
        app.forget_modules(HERE)
