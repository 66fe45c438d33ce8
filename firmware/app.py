"""The app loop: take input events, hand them to the top screen, redraw what changed.

One loop, no threads. Power and screen care live here: after the dim timeout of no input
(settings "dim_s") the screen dims, after the sleep timeout ("sleep_s") it turns off. A
press on a dimmed screen acts as a press: the screen brightens and the press does what it
says (a dimmed screen is still readable, and across a table nobody can tell it from a lit
one). Only a screen that is off takes a first press to wake: that press (its release, its
SHORT or LONG) does nothing else, and the screen comes back on the game's board, the
player to move, with whatever was open above it (a picker, a dialog, a menu of the game)
closed: nothing entered is lost (an entry is journalled once it is confirmed) and the
next player never acts on a half-made choice of the last one. An unexpected exception is
logged to `error.log`, shown on an error screen, and the app restarts into the saved
game: it never leaves a frozen screen.

Between a press and its pixels there is only the answer: the frame goes out first, then
the journal is written (submit), and the garbage of the press is collected on a later,
idle turn (no button down, nothing to draw), never before the frame. An idle turn
allocates nothing, and App.run sleeps between turns until an input comes or the next
deadline (idle_ms) instead of spinning.
"""

import gc
import sys

from core.errors import IllegalAction
from firmware.drivers import buttons as b
from firmware import ui
from firmware.modules import forget_module
# Loaded with the app, not when needed: the crash handler must show its screen even
# when the error was a MemoryError and an import would fail.
from firmware.screens.error import ErrorScreen


class App:
    DIM_CONTRAST = 1
    TOAST_MS = 2500
    LOOP_MS = 10  # the loop's pace while a screen runs by itself (a countdown)
    IDLE_MAX_MS = 1000  # the longest sleep between two idle turns
    RESTART_AFTER_MS = 8000

    def __init__(self, hw, settings, journal):
        self.hw = hw
        self.journal = journal
        self.fb = hw.display
        self.settings = settings
        self.screens = []
        self._resident = None  # the modules loaded at start (see forget_modules)
        self._game_modules = ()
        self.session = None
        self.report = None  # what the journal or settings said on start, shown once
        self._dirty = True
        self._drawn = None  # the screen whose frame the framebuffer holds (None: none)
        self._box = 0  # where the message it holds was drawn (y * 256 + height; 0: none)
        self._toast = None  # the lines of the message showing, or None
        self._toast_of = None  # (the screen it belongs to, its toast_scope(), its end)
        self._held = None  # (session, screens) of an entry not yet written (submit)
        self._last_input = hw.clock.ticks_ms()
        self.dimmed = False  # read by screens and tests; set by the loop only
        self.asleep = False
        self._swallow = -1  # the button whose press woke the screen
        self._collect = False  # a press was answered: collect on the next idle turn
        self.crashes = 0
        self.frames = 0
        # What screens remember while the device is on (where a picker was left):
        # per app, so a power cycle forgets it, as on the board.
        self.memory = {}

    # Screens -----------------------------------------------------------------

    @property
    def screen(self):
        return self.screens[-1]

    @property
    def session(self):
        return self._session

    @session.setter
    def session(self, session):
        # The rules modules a game in play needs stay loaded with it (forget_modules).
        self._session = session
        self._game_modules = [n for n in sys.modules if n.startswith("core.")] \
            if session is not None else ()

    # A toast belongs to the screen it was raised on: any change of screen (a push,
    # a pop, home) drops it, so a message never covers the next screen or a dialog.

    def push(self, screen):
        self._toast = None
        self.screens.append(screen)
        screen.enter()
        self.redraw()

    def pop(self):
        self._toast = None
        if len(self.screens) > 1:
            self.screens.pop()
            if len(self.screens) == 1:
                self.forget_modules()
            self.screen.enter()
        self.redraw()

    def replace(self, screen):
        self.screens.pop()
        self.push(screen)

    def home(self):
        self._toast = None
        del self.screens[1:]
        self.forget_modules()
        self.screen.enter()
        self.redraw()

    def redraw(self, part=False):
        """Draw the top screen again on this turn: whole, or (part) by its update()
        when the framebuffer holds its last frame (Screen.update)."""
        self._dirty = True
        if not part:
            self._drawn = None

    def toast(self, text, ms=None):
        """A message for a moment (refusals, saves), on the screen now on top and only
        there: where that screen's toast_place() says, the bottom by default."""
        self._toast = ui.wrap(text, ui.COLS - 1)[:2]  # inside the frame
        owner = self.screens[-1] if self.screens else None
        self._toast_of = (owner, owner.toast_scope() if owner else None,
                          self.hw.clock.ticks_add(self.hw.clock.ticks_ms(), ms or self.TOAST_MS))
        self.redraw()

    def toast_text(self):
        """The lines of the message showing now (None when there is none): for tests."""
        return self._toast

    def refuse(self, reason):
        """Say why an entry was refused (the rules' own words) with a low beep."""
        self.toast(reason)
        self.beep(220, 150)

    def submit(self, session, action, beep=True):
        """Apply an entry to the game in play; a refusal is shown. True when taken.
        Draw first, then write: the line waits in RAM while the screens answer the
        press (a picker closes, the action line moves), then that one final frame goes
        to the panel and the journal is written (a flash write may erase a block), in
        the same loop turn (_write_held). When the flash refuses, the entry is taken
        back, the screens of the moment of the entry come back and show the refusal."""
        try:
            session.push(action, defer=True)
        except IllegalAction as e:
            self.refuse(e.reason)
            return False
        if beep:
            self.beep()
        if not self._held:
            self._held = (session, self.screens[:])
        return True

    def _write_held(self):
        """The press was answered: its frame goes out, then the entry it made is written."""
        held = self._held
        if held:
            self._held = None
            if not self.asleep:
                self.render()
            try:
                held[0].flush()
            except IllegalAction as e:
                self.screens = held[1]
                self.refuse(e.reason)

    def undo_last(self, session):
        """Take back the last entry and say which; None when there is nothing to undo."""
        try:
            action = session.undo()
        except IllegalAction as e:
            self.toast(e.reason)
            return None
        # "undone: ANN's play 7H": whose entry it was, then what (format without the
        # player). An action that names no player was made by the player to move, who
        # is to move again once it is undone.
        game = session.game
        p = action[0] or getattr(game, "to_move", -1) + 1
        self.toast("undone: %s's %s" % (self.settings.name(p), game.format(
            (None,) + tuple(action[1:]))) if p else "undone: " + game.format(action))
        return action

    def resume_saved(self):
        """The game on flash back in play (as at power-up: Session.resume), for the
        archive when a game it was to keep stays (the archive never imports the
        session: no import circle)."""
        from firmware.session import Session
        self.session = Session.resume(self.journal)[0]

    def player_label(self, p):
        """'P2' or 'P2 ANN': the seat always, the name when one was given."""
        name = self.settings.name(p)
        seat = "P%d" % p
        return seat if name == seat else seat + " " + name

    def beep(self, freq=1760, ms=40):
        if self.settings.get("buzzer") and self.hw.buzzer is not None:
            self.hw.buzzer.beep(freq, ms)

    # Start and restart ---------------------------------------------------------

    def start(self):
        """Home screen, then straight back into the saved game if there is one.

        Never raises: whatever fails while the saved game is loaded (a MemoryError in a
        long resume too) ends on the home screen with a message saying so; the journal
        is moved aside (game.badN), never deleted, and a new game can start."""
        import gc
        from firmware.screens.home import HomeScreen
        from firmware.session import Session

        if self._resident is None:
            self._resident = set(sys.modules)
        self.screens = []
        self.session = None  # home must not offer a game that is not loaded
        report = None
        gc.collect()
        j = self.journal
        st = j.storage
        try:
            if st.exists(j.name) or st.exists(j.name + ".new") or st.exists(j.name + ".old"):
                session, report = Session.resume(j)
            else:  # no saved game: what a resume finds, without loading its modules
                session = j.details = None
                j.size = j.count = j.header_count = 0
            gc.collect()
            if session is not None:
                from firmware.screens import game_screen
                screen = game_screen(self, session)
        except Exception as e:  # noqa: BLE001 - never a dead board
            # The saved game could not be loaded: log why, keep the journal aside
            session = None
            gc.collect()
            self._log(e)
            aside = None
            try:
                aside = j.set_aside()
            except Exception:  # noqa: BLE001
                pass
            report = "Saved game not loaded (%s)" % type(e).__name__
            if aside:
                report += ": kept as " + aside
        self.session = session
        self.push(HomeScreen(self))  # after the resume: it offers only a loaded game
        if session is not None:
            self.push(screen)
        if self.report:
            report = (report + " / " + self.report) if report else self.report
        self.report = None
        if report:  # after the push: a toast belongs to the screen it shows on
            self.toast(report, 6000)
        self.apply_display_settings()

    def forget_modules(self, shown=()):
        """Back on the home screen (MicroPython only): drop the modules loaded since
        start that nothing shown needs any more (game screens, settings pages, History,
        other games' rules), so the heap holds the home menu and the game in play
        (its rules modules stay while it is loaded). A module is imported again, from
        flash, when it is next needed. `shown`: the modules of a screen over home that
        stay (History lets the rest go when it opens)."""
        if self._resident is None or sys.implementation.name != "micropython":
            return
        # a closed screen must not stay alive through them
        self._toast = self._toast_of = self._drawn = None
        keep = self._resident
        game = self._game_modules
        for name in list(sys.modules):
            if name in keep or name in game or name in shown:
                continue
            if getattr(sys.modules[name], "_said", None) is not None:
                continue  # firmware.archive.store holds a message for History
            forget_module(name)

    def apply_display_settings(self):
        self.fb.contrast(self.settings.contrast())

    # The loop ------------------------------------------------------------------

    def run(self, on_idle=None):
        """Forever. `on_idle` (a simulated board's hook, None on a real one) runs once
        per loop turn; its presses come from it, so the loop then waits at most
        LOOP_MS."""
        try:
            self.start()
        except Exception as e:  # noqa: BLE001 - the error screen, never the REPL
            self.crash(e)
        while True:
            self.step_safely()
            ms = self.idle_ms()
            if on_idle is not None:
                on_idle()
                ms = min(ms, self.LOOP_MS)
            self.wait(ms)

    def wait(self, ms):
        """Sleep up to `ms`, or until an input edge comes (the pin IRQ fills the ring),
        in steps of 1 ms (time.sleep_ms: a low-power wait for an event on the RP2040;
        the virtual clock's advances exactly in the simulator): a press is seen within
        a millisecond, and an idle screen costs a check of two counters per step."""
        if ms <= 0:
            return
        clock = self.hw.clock
        c = self.hw.buttons.ring.counts  # head, tail: equal while no edge waits
        end = clock.ticks_add(clock.ticks_ms(), ms)
        while c[0] == c[1] and clock.ticks_diff(end, clock.ticks_ms()) > 0:
            clock.sleep_ms(1)

    def idle_ms(self):
        """How long the loop may wait for input after a turn (step): 0 when a collection
        is to do, else until the next deadline: the screen's own (Screen.due_ms:
        LOOP_MS while it runs by itself, a countdown), a frame it holds back or a note
        of the buzzer (LOOP_MS), the buttons' (ButtonMachine.wait_us: a contact that
        moves, a button held), a message's end; at most IDLE_MAX_MS (dimming and the
        screen going off come that late at most)."""
        screen = self.screen
        moving = self.hw.buttons.machine.wait_us()
        if self._collect and not self._dirty and moving < 0:
            return 0
        wait = screen.due_ms()
        if wait < 0 or wait > self.IDLE_MAX_MS:
            wait = self.IDLE_MAX_MS
        if (not screen.ready() or (self.hw.buzzer is not None and self.hw.buzzer.busy)) \
                and self.LOOP_MS < wait:
            wait = self.LOOP_MS
        if 0 <= moving < wait * 1000:
            wait = (moving + 999) // 1000
        if self._toast is not None:
            clock = self.hw.clock
            ms = clock.ticks_diff(self._toast_of[2], clock.ticks_ms())
            if ms < wait:
                wait = ms
        return wait if wait > 0 else 0

    def step_safely(self):
        try:
            self.step()
            self.crashes = 0
        except Exception as e:  # noqa: BLE001 - the device must never freeze
            self.crash(e)

    def step(self):
        clock = self.hw.clock
        buttons = self.hw.buttons
        events, calls = buttons.poll(clock.ticks_us())
        now = clock.ticks_ms()
        for kind, button in events:
            self._last_input = now
            if self._swallow == button:
                # Everything that belongs to the waking press (its release, its SHORT
                # or LONG, which may come after the release) is swallowed; a new press
                # acts.
                if kind != b.PRESS:
                    continue
                self._swallow = -1
            if self.asleep:
                # On again, on the game's board (the player to move) with what was
                # open above it closed (module docstring)
                self.asleep = self.dimmed = False
                screens = self.screens
                for i in range(1, len(screens) - 1):
                    if self._session is not None and \
                            getattr(screens[i], "session", None) is self._session:
                        del screens[i + 1:]
                        screens[i].enter()
                        self._toast = None
                        break
                self.fb.poweron()
                self.apply_display_settings()
                self.redraw()
                self._swallow = button if kind == b.PRESS else -1
                continue
            if self.dimmed:  # brightened, and the press acts
                self.dimmed = False
                self.apply_display_settings()
            self.screen.on_button(kind, button)
        for player, down, t_us in calls:
            self._last_input = now
            self.screen.on_call(player, down, t_us)
        self.screen.tick(now)
        if self.hw.buzzer is not None:
            self.hw.buzzer.update(now)
        # A message ends between presses: while a button is down (from its first edge)
        # it stays, so a press that changes the screen just then sends one frame.
        if self._toast is not None and clock.ticks_diff(now, self._toast_of[2]) >= 0 and \
                buttons.machine.wait_us() < 0:
            self._toast = None
            self.redraw()
        # Power and screen care: dim, then sleep, after the settings' idle times.
        if self.screen.awake():
            self._last_input = now
        else:
            idle = clock.ticks_diff(now, self._last_input)
            settings = self.settings
            off_ms = settings.get("sleep_s") * 1000
            dim_ms = settings.get("dim_s") * 1000
            if not self.asleep and off_ms and idle >= off_ms:
                self.asleep = True
                self.fb.poweroff()
            elif not self.dimmed and not self.asleep and dim_ms and idle >= dim_ms:
                self.dimmed = True
                self.fb.contrast(self.DIM_CONTRAST)
        self._write_held()
        if self._dirty and not self.asleep and self.screen.ready():
            self.render()
        if events or calls:
            self._collect = True
        elif self._collect and not self._dirty and buttons.machine.wait_us() < 0:
            # A press was answered and its frame is out: its garbage goes now, on an idle
            # turn, before the next press allocates among it (and with the collector's
            # count back at zero, so that no automatic collection lands between that
            # press and its frame). Long-lived objects (a history list that doubles, a
            # checkpoint) then find room low in a clean heap instead of in the holes left
            # between garbage: on a board it is fragmentation, not size, that ends a long
            # game. Button and call stamps are taken by the IRQ, so this delays no
            # decision.
            self._collect = False
            gc.collect()

    def render(self):
        """The top screen and its message to the panel: drawn whole, or after
        redraw(True) by the screen's update() over its last frame, when that frame had
        no message or one in the same box (a box is opaque: drawn again over the update,
        it covers all it covered before; a box that moves or goes leaves a whole draw)."""
        fb = self.fb
        screen = self.screen
        place = None
        lines = self._toast
        if lines is not None:
            of = self._toast_of
            if of[0] is screen and screen.toast_scope() == of[1]:
                place = screen.toast_place()
            else:
                self._toast = None  # its view is gone: so is the message
        box = 0
        if place:
            h = len(lines) * 9 + 2
            y = 0 if place == "top" else ui.H - h
            box = y * 256 + h
        if screen is not self._drawn or self._box and self._box != box or not screen.update(fb):
            fb.fill(0)
            screen.draw(fb)
        self._drawn = screen
        self._box = box
        if place:
            fb.fill_rect(0, y, ui.W, h, 0)
            fb.rect(0, y, ui.W, h, 1)
            for i, line in enumerate(lines):
                ui.center(fb, line, y + 2 + i * 9)
        fb.show()
        self.frames += 1
        self._dirty = False

    # When something goes wrong -----------------------------------------------------

    def crash(self, error):
        self.crashes += 1
        self._log(error)
        try:
            self.asleep = True  # as on a dark screen: nothing drawn, the press's entry written
            self._write_held()
        except Exception as e:  # noqa: BLE001
            self._log(e)
        if self.crashes > 3:
            # Crashing again and again: the saved game itself may be the cause.
            try:
                self.journal.set_aside()
            except Exception as e:  # noqa: BLE001
                self._log(e)
            self.session = None
        try:
            import gc
            gc.collect()
            self.screens = [ErrorScreen(self, error)]
            self.asleep = False
            self.fb.poweron()
            self.render()
        except Exception as e:  # noqa: BLE001
            self._log(e)

    def _log(self, error):
        storage = self.hw.storage
        try:
            if storage.size("error.log") > 8192:  # the oldest errors go
                storage.remove("error.log")
            storage.append("error.log", format_error(error))
        except Exception:  # noqa: BLE001 - logging must not crash the crash handler
            pass


def format_error(error):
    """The exception with its traceback as text, on MicroPython and CPython."""
    try:
        import io
        out = io.StringIO()
        if hasattr(sys, "print_exception"):
            sys.print_exception(error, out)
        else:
            import traceback
            traceback.print_exception(type(error), error, error.__traceback__, file=out)
        return out.getvalue()  # pyright: ignore[reportAttributeAccessIssue]
    except Exception:  # noqa: BLE001
        return "%s: %s\n" % (type(error).__name__, error)
