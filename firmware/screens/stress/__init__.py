"""Stress's screens: the referee, here; centre tops (centre.py), rare paths (rare.py),
the end (end.py). Imported only when a Stress game is opened; imports core and firmware.

Stress at the table: the device is the referee (rules in seeds/stress.md).

Views (one at a time, from the game's state and the screen's countdown):
  match     between games: the match score, the centre if known; OK: flip 3-2-1
  countdown 3-2-1 in big digits, a beep per second; at 0 `start` (or `resume` after a
            call) is pushed and the centre picker opens for the new tops (BACK skips)
  play      a game on, calls armed: the centre tops; LEFT/RIGHT choose Centre cards,
            Stall 3-2-1, P1 out ... Pn out; OK takes it
  call      who called first and by how much ("P1 by 0.9 ms", TIE), who takes the
            stacks; LEFT/RIGHT choose Confirm, False call, P1 takes ... Pn takes
  end       the match winner and the score; OK goes home

Calls: the raw edges of the call buttons (on_call, stamped in the pin interrupt) go
into the game at the loop turn's tick, in stamp order, as `@T PX down|up` with T
unwrapped by firmware.drivers.clock.TickUnwrapper, so the core's arbiter decides from the
stamps, never from the order the screen hears them. `start`/`resume` go in where the
countdown ends, between the edges stamped before and after it (rule STR-34). Only the
edges the referee needs go in (core.stress.arbiter.EdgeFilter: bounce that changes
nothing is left out, an opening is held back until it is clear that no bounce cancels
it), and the game decides exactly as if it had them all.

The journal: every line goes into the game at once, its journal record waits in the
session's RAM buffer (Session.push(defer=True)), and the buffer is written
(Session.flush) only
  - after the frame that shows the line (draw first, then write), and
  - when no press can change anything: no game on, or the call is decided (winner,
    margin and who takes the stacks can no longer change) or ruled by the table.
So a flash erase (tens of ms with interrupts off) never delays a call's timestamp. A
failed write takes its lines back out of the game (the game on the screen is the game
on flash) and shows why.

The loop's pace (due_ms): a turn every 10 ms only while a countdown runs or lines wait
that may be written; otherwise the loop sleeps to the next moment at which time alone
changes something (a call's tie window or slow window ending, an opening the filter
holds back falling due), or until an edge: an armed game waiting for a call takes one
turn a second, and a call is still timed from the IRQ's stamps.

BACK undoes the last line that makes sense in the view (not an edge: the buttons did
those); a long BACK writes what waits and goes home, the game stays saved.
"""
import sys

from core import cards
from core.errors import IllegalAction
from core.stress.arbiter import KEEP, EdgeFilter
from firmware.drivers import buttons as b
from firmware import ui
from firmware.drivers.clock import TickUnwrapper
from firmware.modules import forget_module
from firmware.screen import Screen, is_step

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_COUNT_US = const(3000000)  # the flip countdown: 3-2-1
_RESTART_GAP_US = const(1000000)  # added to the last @T when a screen (re)starts the time line
_KNOWN_LIMIT_US = const(1 << 27)  # the arbiter reads times within this of its latest stamp

# The views (tools and tests read them)
MATCH = 0
COUNT = 1
PLAY_VIEW = 2
CALL = 3
END = 4

# Countdowns (count_kind; firmware/screens/stress/rare.py uses 1 for the re-deal)
_FLIP_START = const(0)
_FLIP_REDEAL = const(1)
_FLIP_STALL = const(2)
# (winner known, loser known): constant tuples, so a loop turn allocates none
KNOWN = ((False, False), (False, True), (True, False), (True, True))


def _rare():
    """The screen's rare paths (firmware/screens/stress/rare.py), loaded at the point
    of use; _let_go() drops it again."""
    from firmware.screens.stress import rare as stress_rare
    return stress_rare


def _let_go(name="firmware.screens.stress.rare"):
    if sys.implementation.name == "micropython":
        forget_module(name)


class StressScreen(Screen):
    def __init__(self, app, session):
        Screen.__init__(self, app)
        self.session = session
        self.game = g = session.game
        self.clock = app.hw.clock
        self.choice = 0
        self.view = -1
        self.count_kind = -1  # no countdown
        self.count_end = 0  # the unwrapped time when it reaches 0 (for the edges' T)
        self.count_tick = 0  # the same in ticks_us (for the turns: small ints)
        # call-button edges of this loop turn, flat: unwrapped t, player, down (1 or 0),
        # in stamp order; emptied in place, so an edge allocates nothing that lives on
        self.edges = [0] * 24  # room for 8 edges, made once
        del self.edges[:]
        self.count_seen = False  # a loop turn has seen the end
        self.count_shown = -1  # the second on the screen (a beep when it changes)
        self.known = KNOWN[0]
        self.chosen = False  # the table moved the action line in this view
        self.filter = EdgeFilter(g.players, g.options["debounce_us"])
        self.unwritten = True  # the session may hold lines in RAM (flush() is cheap if not)
        self.pushed_frame = -1  # app.frames when a line last went into the game
        self.blocked = False  # the last write failed and nothing new came since
        self.write_error = None
        self.tops_unknown = False  # a new game: the tops are as entered
        # The time line goes on from the last @T: the time the device was off (or away
        # from this screen) is unknown, and a release just before must not make the
        # next press bounce.
        self.ticks = TickUnwrapper(g.last_t + g.options["debounce_us"] + _RESTART_GAP_US)
        self.ticks.feed(self.clock.ticks_us())
        levels = getattr(app.hw.buttons, "_call_level", None)
        self.level = [0] * g.players
        for p in range(g.players):
            if levels is not None and p < len(levels):
                self.level[p] = 1 if levels[p] else 0
            else:
                self.level[p] = 1 if g.arbiter.is_closed(p) else 0
        if g.moves:  # a resumed game: its tops, and the buttons let go while it was off
            rare = _rare()
            self.tops_unknown = rare.tops_unknown(g)
            rare.resync(self)
            _let_go()
        _let_go("core.stress.rare")  # the resume parsed lines and read a checkpoint
        self.call_tops_known = not self.tops_unknown

    # Views and their actions -----------------------------------------------------

    def _view(self):
        g = self.game
        if self.count_kind >= 0:
            return COUNT
        if g.match_winner() is not None:
            return END
        if not g.on:
            return MATCH
        if g.call_pending():
            return CALL
        return PLAY_VIEW

    def _sync_view(self):
        view = self._view()
        if view != self.view:
            self.view = view
            self.choice = 0
            self.chosen = False
            if view == END:  # no centre picker any more (BACK loads it again if needed)
                _let_go("firmware.screens.stress.centre")
        if view == CALL and not self.chosen:
            # the call view's default: the ruling the table most likely makes
            g = self.game
            a = g.arbiter
            self.choice = 0  # Confirm; after a ruling it goes on (re-deal, or play on)
            if g.ruling is None:
                if self.call_tops_known and not g.call_stress:
                    self.choice = 1  # the tops showed no stress: a false call
                elif self.known[0] and self.known[1] and not a.tie() and a.loser() is None:
                    taker = _rare().likely_taker(a, g.options["slow_window_us"])
                    _let_go()
                    if taker is not None:
                        self.choice = 2 + taker  # Confirm would be refused: name the likeliest
        return view

    def _label(self, view, i):
        """The action line's label i in view (PLAY_VIEW or CALL): 'ANN out', 'BOB takes'."""
        if i >= 2:
            return self.app.settings.name(i - 1) + (" out" if view == PLAY_VIEW else " takes")
        if view == PLAY_VIEW:
            return "Stall 3-2-1" if i else "Centre cards"
        return "False call" if i else "Confirm"

    def _labels(self, view):
        """Every label of the action line in view (the benchmarks' drivers read them)."""
        n = self.game.players + 2 if view == PLAY_VIEW or view == CALL else 0
        return [self._label(view, i) for i in range(n)]

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        app = self.app
        if button == b.BACK and kind == b.LONG:
            self.count_kind = -1
            self.leave()
            app.home()
            return
        view = self._sync_view()
        if view == COUNT:
            if button == b.BACK and kind == b.SHORT:
                self._cancel_count()
                app.toast("countdown off")
            return
        n = self.game.players + 2 if view == PLAY_VIEW or view == CALL else 0
        if (button == b.LEFT or button == b.RIGHT) and is_step(kind) and n:
            self.choice = (self.choice + (1 if button == b.RIGHT else -1)) % n
            self.chosen = True
            app.redraw()
        elif kind != b.SHORT:
            return
        elif button == b.BACK:
            _rare().back(self, view)
            _let_go()
            _let_go("core.stress.rare")  # an undo reads the base checkpoint
        elif button != b.OK:
            return
        elif view == MATCH:
            self._countdown(_FLIP_START)
        elif view == END:
            app.home()
        elif view == PLAY_VIEW:
            i = self.choice
            if i == 0:
                self._open_picker()
            elif i == 1:
                self._countdown(_FLIP_STALL)
            else:  # "P1 out" asks first, as Stack 31's Disqualify: one OK ends no game
                from firmware.screens.confirm import ConfirmScreen
                self.out_p = p = i - 1
                who = app.settings.name(p)
                q = ConfirmScreen(app, "%s is out of cards: game %d to %s?"
                                  % (who, self.game.game_no, who), self._out)
                # the referee listens under the question (a call closes it, as it
                # closes the centre picker)
                q.on_call = self.on_call
                q.tick = self.background
                q.awake = self.awake  # pyright: ignore[reportAttributeAccessIssue]
                q.due_ms = self.due_ms  # pyright: ignore[reportAttributeAccessIssue]
                app.push(q)
                _let_go("firmware.screens.confirm")  # the question holds what it needs
        else:
            self._call_action(self.choice)

    def _out(self):
        if self._line((self.out_p, "out")):
            self.app.beep(1568, 300)

    def on_call(self, player, down, t_us):
        """A raw edge: kept in stamp order and journalled at this loop turn's tick, so the
        lines follow the stamps even when edges reach the screen out of order."""
        if player > self.game.players:
            return  # a button of a seat not in this game
        t = self.ticks.unwrap(t_us)
        edges = self.edges
        i = len(edges)
        while i > 0 and edges[i - 3] > t:
            i -= 3
        edges.insert(i, 1 if down else 0)
        edges.insert(i, player)
        edges.insert(i, t)

    def _edge(self, player, down, t):
        g = self.game
        self.level[player - 1] = down
        if self.filter.offer(player - 1, down, t, g.arbiter.is_closed(player - 1)) != KEEP:
            return  # bounce that changes nothing, or an opening held back for now
        before = g.call_pending()
        self._take_held()
        if self._push((player, "down" if down else "up", max(t, g.last_t))) and \
                not before and g.call_pending():
            # A call was made: show the decision (close the picker, stop a stall count)
            if self.count_kind == _FLIP_STALL:
                self._cancel_count()
            app = self.app
            if self in app.screens:
                while app.screen is not self:
                    app.pop()
            self.known = KNOWN[0]
            self.chosen = False
            self.call_tops_known = not self.tops_unknown and g.tops[0] is not None
            app.beep(2637, 120)

    def _take_held(self, now=None):
        """The openings the filter held back go in (all; with now, those that are due)."""
        while True:
            held = self.filter.take(now)
            if held is None:
                return
            self._push((held[0] + 1, "up", max(held[1], self.game.last_t)))

    def _call_action(self, i):
        g = self.game
        a = g.arbiter
        app = self.app
        known = self.known
        if i:  # the table overrules the referee: a false call, or who takes (rare)
            _rare().rule(self, i)
            _let_go()
        elif g.ruling == "void":
            self._line((None, "resume"))
        elif g.ruling is not None:
            self._countdown(_FLIP_REDEAL)
        elif not known[0]:
            app.toast("timing the call")
        elif a.loser() is not None:
            if known[1]:
                self._countdown(_FLIP_REDEAL)  # its view says who takes the stacks
            else:
                app.toast("wait: not all pressed")
        elif a.tie():
            if self._line((None, "resume")):  # a tie: nobody takes the stacks, play goes on
                app.toast("tie: play on")
        elif known[1]:
            app.toast("name who takes")
        else:
            app.toast("wait: not all pressed")

    # Countdown -------------------------------------------------------------------

    def _countdown(self, kind):
        self.count_kind = kind
        now = self.clock.ticks_us()
        self.count_end = self.ticks.unwrap(now) + _COUNT_US
        self.count_tick = self.clock.ticks_add(now, _COUNT_US)
        self.count_seen = False
        self.count_shown = -1
        self._sync_view()
        self.background(self.clock.ticks_ms())
        self.app.redraw()

    def _cancel_count(self):
        self.count_kind = -1
        self.app.redraw()

    def _flip(self):
        """The countdown reached 0: the cards are flipped."""
        kind = self.count_kind
        self._cancel_count()
        ok = True
        if kind == _FLIP_START:
            ok = self._line((None, "start"))
        elif kind == _FLIP_REDEAL:
            ok = self._line((None, "resume"))
        if ok:
            self.tops_unknown = True  # new cards are down; the old tops are gone
            self._sync_view()
            self._open_picker()

    def tick(self, now_ms):
        self.background(now_ms)

    def background(self, now_ms):
        """Every loop turn, also while the centre picker is on top: the edges of the
        turn go into the game, then the countdown moves on.

        A turn without edges computes with small ints only: the time since the game's
        last @T (TickUnwrapper.since) and the countdown in ticks, never an @T itself,
        which is a long int on a 32-bit board after 18 minutes of match (each sum
        with one allocates)."""
        now = self.clock.ticks_us()
        self.ticks.feed(now)  # fed often: it never misses a wrap
        edges = self.edges
        if edges:
            try:
                for i in range(0, len(edges), 3):
                    t = edges[i]
                    if 0 <= self.count_kind <= _FLIP_REDEAL and t >= self.count_end:
                        self._flip()  # stamped after the flip: `start` goes first
                    self._edge(edges[i + 1], edges[i + 2], t)
            finally:
                del edges[:]
        for h in self.filter._held:  # an opening the filter holds back (~20 ms after an edge)
            if h is not None:  # (inline: a helper is one more code object, ~100 B of heap)
                self._take_held(self.ticks.unwrap(now))
                break
        self._write()
        app = self.app
        g = self.game
        if self.count_kind >= 0:
            left = self.clock.ticks_diff(self.count_tick, now)
            if self.count_seen:
                # A turn has seen the end, so every edge stamped before it has been
                # read and journalled by now: the flip.
                self._flip()
            elif left <= 0:
                self.count_seen = True
                self.count_shown = 0
                app.beep(1760, 250)
                app.redraw()
            else:
                second = (left + 999999) // 1000000
                if second != self.count_shown:
                    self.count_shown = second
                    app.beep(880, 80)
                    app.redraw()
        elif g.call_pending() and not (self.known[0] and self.known[1]):
            # (winner known, loser known) of the waiting call, read at now. Once both
            # are known they stay so (later presses only add to the call; a new call
            # starts again from KNOWN[0] in _edge), so a call waiting for the table's
            # ruling asks the arbiter no more: its times count from the arm, long ints
            # on a 32-bit board once a game has been armed for 18 minutes.
            t = self._arbiter_now()
            known = KNOWN[(2 if g.arbiter.winner_known(t) else 0) +
                          (1 if g.arbiter.loser_known(t) else 0)]
            if known != self.known:
                self.known = known
                self._sync_view()  # the likely ruling may change with what is known
                app.redraw()

    def awake(self):
        return self.count_kind >= 0 or self.game.on

    def due_ms(self):
        """The loop's next turn (Screen.due_ms), allocating nothing: LOOP_MS while a
        countdown runs or lines wait that may be written now; else the next moment at
        which the time alone changes something: a waiting call's winner or loser
        becoming known (the tie window, the slow window after the first press), an
        opening the edge filter holds back falling due. An armed game that only waits
        for a call needs no turn: the call's edges wake the loop (the IRQ's ring) with
        their stamps, and the arbiter decides from those, not from the turn."""
        if self.count_kind >= 0:
            return self.app.LOOP_MS
        if self.unwritten and not self.blocked and self._writable():
            return self.app.LOOP_MS
        g = self.game
        wait = -1
        now = -1
        held = self.filter._held  # (core.stress.arbiter.EdgeFilter: T per button, or None)
        for p in range(g.players):
            h = held[p]
            if h is not None:
                if now < 0:
                    now = self.ticks.unwrap(self.clock.ticks_us())
                wait = _sooner(wait, h + self.filter.debounce_us - now)
        known = self.known
        if g.call_pending() and not (known[0] and known[1]):
            if now < 0:
                self.ticks.feed(self.clock.ticks_us())
            a = g.arbiter
            since = a.since_call_us(self._arbiter_now())  # as background() reads it
            if since is not None:
                # known once `since` is past the window (winner_known, loser_known)
                o = g.options
                wait = _sooner(wait, (o["slow_window_us"] if known[0] else
                                      o["tie_window_us"]) + 1 - since)
        if wait < 0:
            return wait
        return (wait + 999) // 1000

    def _arbiter_now(self):
        """The arbiter's tick at the latest time fed: its latest stamp (the game's last
        @T in ticks: Stress feeds it T & TICKS_MAX, a checkpoint is refused otherwise)
        moved on by the time since, 0 to _KNOWN_LIMIT_US (as far as it reads ahead).
        Small ints only (an idle turn asks it)."""
        g = self.game
        d = self.ticks.since(g.last_t, _KNOWN_LIMIT_US)
        return self.clock.ticks_add(g.arbiter._now, d if d > 0 else 0)

    def ready(self):
        # A call is drawn once its winner is known (the tie window, 0.5 ms by default,
        # after the first press): one frame with the decision, not "timing" and then
        # the decision in the same press. A tie window over 20 ms shows "timing" first.
        g = self.game
        return self.known[0] or self.count_kind >= 0 or not g.call_pending() or \
            g.options["tie_window_us"] > 20000

    def toast_place(self):
        # A countdown keeps "BACK: cancel" at the bottom: messages go over its title.
        return "top" if self.count_kind >= 0 else "bottom"

    def toast_scope(self):
        return self._view()  # a message leaves with the view it was said on

    # Lines -----------------------------------------------------------------------

    def _push(self, action, table=True):
        """Into the game at once; the record waits in RAM for _write. A refusal is shown.
        True when taken. table: the players or the table did it (not a made-up release)."""
        g = self.game
        n = len(g.history)
        try:
            self.session.push(action, defer=True)
        except IllegalAction as e:
            if len(g.history) < n:  # the full buffer was written, and that failed
                self._write_failed(e.reason)
            else:
                self.app.refuse(e.reason)
            return False
        self.unwritten = True
        self.pushed_frame = self.app.frames
        if table:
            self.blocked = False
        self.app.redraw()
        return True

    def _line(self, action):
        """A line that is not an edge: the held openings go in first (stamp order).
        (Verb-only lines are written as literal tuples, (None, "resume"): constants of
        the bytecode, so the history keeps no new object for them.)"""
        self._take_held()
        return self._push(action)

    def _write(self, force=False):
        """Write the lines waiting in RAM, once their frame is on the panel and no press
        can matter (force: now, leaving the screen): no game on, or the call is ruled
        by the table, or decided (winner, margin and who takes the stacks are fixed)."""
        if not self.unwritten or self.blocked:
            return
        if not force:
            if self.app.frames == self.pushed_frame and not self.app.asleep:
                return  # draw first: the frame that shows them goes out before the write
            if not self._writable():
                return  # armed (the first press may come at any moment), or not decided
        try:
            self.session.flush()
        except IllegalAction as e:
            self._write_failed(e.reason)
            return
        self.unwritten = False

    def _writable(self):
        """No press can change what waits: no game on, or the call is ruled by the table
        or decided (winner, margin and who takes the stacks are fixed)."""
        g = self.game
        return not g.on or g.call_pending() and (
            g.ruling is not None or self.count_kind == _FLIP_REDEAL or (
                self.known[0] and self.known[1] and g.arbiter.margin_us() is not None))

    def _write_failed(self, reason):
        _rare().write_failed(self, reason)
        _let_go()

    def leave(self):
        """The screen goes away (home): write what waits, whatever the call."""
        self._take_held()
        self._write(True)

    def _open_picker(self):
        from firmware.screens.stress.centre import CentrePicker  # kept till the match ends
        self.app.push(CentrePicker(self.app, self, 1))

    # Drawing: the score, the countdown and the call's winner in big digits, the margin
    # and the next step in words ----------------------------------------------------------

    def draw(self, fb):
        view = self._sync_view()
        g = self.game
        names = [self.app.settings.player_name(p) for p in range(1, g.players + 1)]
        if view == END:
            from firmware.screens.stress.end import draw_end  # let go at home
            draw_end(fb, g, names)
            return
        if view == COUNT:
            left = self.clock.ticks_diff(self.count_tick, self.clock.ticks_us())
            if self.count_seen:
                left = 0
            ui.bar(fb, ("Flip in", "Re-deal: flip in", "Stall: flip in")[self.count_kind])
            if left > 0:
                ui.big_center(fb, str((left + 999999) // 1000000), 13, 4)
            else:
                ui.big_center(fb, "FLIP", 17, 3)
            taker = g.ruling if g.ruling is not None else g.arbiter.loser()
            if self.count_kind == _FLIP_REDEAL and taker is not None and taker != "void":
                # the ruling taken, in words, under the count (it hides nothing)
                who = names[taker]
                ui.center(fb, _fit(who + " takes the stacks", who + " takes"), 47)
            ui.text(fb, "BACK: cancel", 0, 56)
            return
        score = "-".join([str(w) for w in g.games_won])
        if view == MATCH:
            # Between games: the match score, the centre if known, and the next step
            n = g.game_no + 1
            _title(fb, "Game %d" % n, "to win %d" % g.options["games"], "G%d" % n)
            if g.players == 2:  # the score large, each name under its half
                ui.big_center(fb, score, 11, 3 if ui.big_width(score, 3) <= ui.W else 2)
                for p in range(2):
                    ui.center_in(fb, names[p], p * 64, 64, 37)
            else:  # 3 or 4: a row each, the name and the games won
                for p in range(g.players):
                    ui.text(fb, names[p], 0, 9 + 9 * p)
                    ui.right(fb, str(g.games_won[p]), 9 + 9 * p)
            tops = _tops(g)
            if g.over and g.history:
                for action in reversed(g.history):
                    if action[1] == "out":
                        if action[0]:
                            who = names[action[0] - 1]
                            ui.center(fb, _fit("%s won game %d" % (who, g.game_no),
                                               "%s won G%d" % (who, g.game_no)), 46)
                        break
            elif tops:
                ui.center(fb, "centre " + tops, 46)
            label = "OK: flip 3-2-1"
        elif view == PLAY_VIEW:
            # A game on and armed: the centre tops large, STRESS when they show one
            # rank, '?  ?' when new cards are down that the table has not entered
            n = g.game_no
            _title(fb, "Game %d armed" % n, score, "G%d armed" % n)
            tops = _tops(g, self.tops_unknown)
            if tops:
                ui.big_center(fb, tops, 13, 2 if ui.big_width(tops, 2) <= ui.W else 1)
                if self.tops_unknown:
                    ui.center(fb, "tops not entered", 35)
                elif g.stress():
                    fb.fill_rect(0, 33, ui.W, 10, 1)
                    ui.center(fb, "STRESS: CALL!", 34, 0)
                else:
                    ui.center(fb, "centre tops", 35)
            else:
                ui.big_center(fb, "GO", 12, 3)
            ui.center(fb, "call buttons on", 45)
            label = self._label(view, self.choice % (g.players + 2))
        else:
            # The call: who called first, the margin, who takes the stacks, and
            # whether the tops showed stress (when the table entered them)
            a = g.arbiter
            winner_known, loser_known = self.known
            big, line, tie_by = "...", "timing", ""
            if winner_known:
                margin = a.margin_us()
                if a.tie():
                    big = "TIE"
                    # the first and the second to press (the lower seat first among equals)
                    first = second = -1
                    for i in range(a.players):
                        off = a.pressed_at(i)
                        if off is None:
                            continue
                        if first < 0 or off < a.pressed_at(first):
                            first, second = i, first
                        elif second < 0 or off < a.pressed_at(second):
                            second = i
                    line = "TIE %s %s %s" % (names[first], names[second], _margin(margin))
                    if len(line) > ui.COLS:  # long names: the margin goes to the next line
                        line = names[first] + " " + names[second]
                        tie_by = " " + _margin(margin)
                else:
                    w = names[a.winner()]
                    big = w
                    if margin is None:
                        line = _fit(w + " alone", "alone") if loser_known else \
                            _fit(w + ", no other yet", "no other press yet")
                    else:
                        by = "by " + _margin(margin)
                        line = _fit(w + " " + by, by)
            ruling = g.ruling
            if not winner_known:
                stacks = ""
            elif ruling == "void":
                stacks = "void: no stacks"
            elif ruling is not None:
                stacks = _fit("ruled: %s takes" % names[ruling], names[ruling] + " takes")
            elif a.tie() and a.loser() is None:
                stacks = "nobody takes" + tie_by
            elif not loser_known:
                stacks = "waiting..."
            elif a.loser() is None:
                stacks = "table decides"
            else:
                stacks = _fit(names[a.loser()] + " takes stacks", names[a.loser()] + " takes")
            w = a.winner()
            right = "G%d" % g.game_no
            if self.call_tops_known:
                right += " stress" if g.call_stress else " no stress"
            _title(fb, "CALL " + names[w] if winner_known and w is not None else "CALL",
                   right, "CALL")
            ui.big_center(fb, big, 10, 3 if ui.big_width(big, 3) <= ui.W else 2)
            ui.center(fb, line, 36)
            ui.center(fb, stacks, 45)
            label = self._label(view, self.choice % (g.players + 2))
        fb.fill_rect(0, 55, ui.W, 9, 1)  # the action line
        ui.center(fb, ("<" + label + ">")[:ui.COLS], 56, 0)


def _sooner(wait, us):
    """The sooner of a wait (-1: none) and `us` from now (at least 0)."""
    us = us if us > 0 else 0
    return us if wait < 0 or us < wait else wait


def _margin(us):
    """900 -> '0.9 ms'; 12345 -> '12.3 ms'; 2500000 -> '2.50 s'."""
    if us < 1000000:
        tenths = (us + 50) // 100
        return "%d.%d ms" % (tenths // 10, tenths % 10)
    hundredths = (us + 5000) // 10000
    return "%d.%02d s" % (hundredths // 100, hundredths % 100)


def _fit(words, short):
    """`words` when they fit a row of the panel, else `short` (long names)."""
    return words if len(words) <= ui.COLS else short


def _tops(game, unknown=False):
    """'8  3': the ranks alone (suits do not matter in Stress); '?  ?' when new cards
    are down that the table has not entered."""
    a, b = game.tops
    if a is None or b is None:
        return ""
    if unknown:
        return "?  ?"
    names = cards.RANK_NAMES
    return names[cards.rank(a) - 1] + "  " + names[cards.rank(b) - 1]


def _title(fb, left, right, short):
    """The inverted title row; `short` replaces `left` when both do not fit."""
    room = ui.COLS - len(right) - 1
    if len(left) > room:
        left = short
    ui.bar(fb, left[:room], 0, right)
