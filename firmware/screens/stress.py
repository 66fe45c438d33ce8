"""Stress at the table: the device is the referee (rules in seeds/stress.md).

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
unwrapped by firmware.clock.TickUnwrapper, so the core's arbiter decides from the
stamps, never from the order the screen hears them. `start`/`resume` go in where the
countdown ends, between the edges stamped before and after it (rule STR-34). Only the
edges the referee needs go in (core.stress_arbiter.EdgeFilter: bounce that changes
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

BACK undoes the last line that makes sense in the view (not an edge: the buttons did
those); a long BACK writes what waits and goes home, the game stays saved.
"""

import sys

from core.errors import IllegalAction
from core.stress import CENTRE, DOWN, OUT, UP, VOID
from core.stress_arbiter import KEEP, TICKS_MAX, EdgeFilter
from firmware import buttons as b
from firmware.clock import TickUnwrapper
from firmware.modules import forget_module
from firmware.screen import Screen, is_step
from firmware.screens import stress_draw as draw

COUNT_US = 3000000  # the flip countdown: 3-2-1
RESTART_GAP_US = 1000000  # added to the last @T when a screen (re)starts the time line
KNOWN_LIMIT_US = 1 << 27  # the arbiter reads times within this of its latest stamp

MATCH = 0
COUNT = 1
PLAY_VIEW = 2
CALL = 3
END = 4

FLIP_START = 0
FLIP_REDEAL = 1
FLIP_STALL = 2
COUNT_TITLES = ("Flip in", "Re-deal: flip in", "Stall: flip in")
# (winner known, loser known): constant tuples, so a loop turn allocates none
KNOWN = ((False, False), (False, True), (True, False), (True, True))


def _rare():
    """The screen's rare paths (firmware/screens/stress_rare.py), loaded at the point
    of use; _let_go() drops it again."""
    from firmware.screens import stress_rare
    return stress_rare


def _let_go(name="firmware.screens.stress_rare"):
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
        self.count_end = 0  # the unwrapped time when it reaches 0
        # call-button edges of this loop turn, flat: unwrapped t, player, down (1 or 0),
        # in stamp order; emptied in place, so an edge allocates nothing that lives on
        self.edges = [0] * 24  # room for 8 edges, made once
        del self.edges[:]
        self.count_seen = False  # a loop turn has seen the end
        self.count_shown = -1  # the second on the screen (a beep when it changes)
        self.known = (False, False)
        self.chosen = False  # the table moved the action line in this view
        self.filter = EdgeFilter(g.players, g.options["debounce_us"])
        self.unwritten = True  # the session may hold lines in RAM (flush() is cheap if not)
        self.pushed_frame = -1  # app.frames when a line last went into the game
        self.blocked = False  # the last write failed and nothing new came since
        self.write_error = None
        self.tops_unknown = _rare().tops_unknown(g)
        _let_go()
        _let_go("core.stress_rare")  # the resume parsed lines and read a checkpoint
        self.call_tops_known = not self.tops_unknown
        # The time line goes on from the last @T: the time the device was off (or away
        # from this screen) is unknown, and a release just before must not make the
        # next press bounce.
        self.ticks = TickUnwrapper(g.last_t + g.options["debounce_us"] + RESTART_GAP_US)
        self.ticks.unwrap(self.clock.ticks_us())
        levels = getattr(app.hw.buttons, "_call_level", None)
        self.level = []
        for p in range(g.players):
            if levels is not None and p < len(levels):
                self.level.append(1 if levels[p] else 0)
            else:
                self.level.append(1 if g.arbiter.is_closed(p) else 0)
        self._resync()

    # Time ----------------------------------------------------------------------

    def _now_t(self):
        return max(self.ticks.unwrap(self.clock.ticks_us()), self.game.last_t)

    def _known(self, now):
        """(winner known, loser known) of the waiting call, read at now (unwrapped)."""
        g = self.game
        d = now - g.last_t
        d = 0 if d < 0 else (KNOWN_LIMIT_US if d > KNOWN_LIMIT_US else d)
        t = (g.last_t + d) & TICKS_MAX
        return KNOWN[(2 if g.arbiter.winner_known(t) else 0) + (1 if g.arbiter.loser_known(t) else 0)]

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
                _let_go("firmware.screens.stress_pick")
                _let_go("firmware.screens.cardpicker")
        if view == CALL and not self.chosen:
            self.choice = self._likely()
        return view

    def _likely(self):
        """The call view's default: the ruling the table most likely makes."""
        g = self.game
        a = g.arbiter
        if g.ruling is not None:
            return 0  # ruled: Confirm goes on (re-deal, or play on after a void)
        if self.call_tops_known and not g.call_stress:
            return 1  # the tops showed no stress: a false call
        if self.known[0] and self.known[1] and not a.tie() and a.loser() is None:
            taker = _rare().likely_taker(a, g.options["slow_window_us"])
            _let_go()
            if taker is not None:
                return 2 + taker  # Confirm would be refused: name the likeliest
        return 0

    def _count(self, view):
        """How many actions the action line offers in view (0: none)."""
        return self.game.players + 2 if view == PLAY_VIEW or view == CALL else 0

    def _label(self, view, i):
        """The action line's label i in view (PLAY_VIEW or CALL)."""
        if i >= 2:
            return ("P%d out" if view == PLAY_VIEW else "P%d takes") % (i - 1)
        if view == PLAY_VIEW:
            return "Stall 3-2-1" if i else "Centre cards"
        return "False call" if i else "Confirm"

    def _labels(self, view):
        """Every label of the action line in view (the benchmarks' drivers read them)."""
        return [self._label(view, i) for i in range(self._count(view))]

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        if button == b.BACK and kind == b.LONG:
            self._cancel_count()
            self.leave()
            self.app.home()
            return
        view = self._sync_view()
        if view == COUNT:
            if button == b.BACK and kind == b.SHORT:
                self._cancel_count()
                self.app.toast("countdown off")
            return
        n = self._count(view)
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and n:
            self.choice = (self.choice + (1 if button == b.RIGHT else -1)) % n
            self.chosen = True
            self.app.redraw()
        elif button == b.OK and kind == b.SHORT:
            self._ok(view)
        elif button == b.BACK and kind == b.SHORT:
            self._back(view)

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

    def _feed_edges(self):
        edges = self.edges
        n = len(edges)
        if not n:
            return
        try:
            for i in range(0, n, 3):
                t = edges[i]
                if (self.count_kind == FLIP_START or self.count_kind == FLIP_REDEAL) and \
                        t >= self.count_end:
                    self._flip()  # stamped after the flip: `start` goes first
                self._edge(edges[i + 1], edges[i + 2], t)
        finally:
            del edges[:]

    def _edge(self, player, down, t):
        g = self.game
        self.level[player - 1] = down
        if self.filter.offer(player - 1, down, t, g.arbiter.is_closed(player - 1)) != KEEP:
            return  # bounce that changes nothing, or an opening held back for now
        before = g.call_pending()
        self._take_held()
        if self._push((player, DOWN if down else UP, max(t, g.last_t))):
            if not before and g.call_pending():
                self._called()

    def _take_held(self, now=None):
        """The openings the filter held back go in (all; with now, those that are due)."""
        while True:
            held = self.filter.take(now)
            if held is None:
                return
            self._push((held[0] + 1, UP, max(held[1], self.game.last_t)))

    def _called(self):
        """A call was made: show the decision (close the picker, stop a stall count)."""
        if self.count_kind == FLIP_STALL:
            self._cancel_count()
        screens = self.app.screens
        if self in screens:
            while self.app.screen is not self:
                self.app.pop()
        self.known = (False, False)
        self.chosen = False
        self.call_tops_known = not self.tops_unknown and self.game.tops[0] is not None
        self.app.beep(2637, 120)

    def _ok(self, view):
        if view == MATCH:
            self._countdown(FLIP_START)
        elif view == END:
            self.app.home()
        elif view == PLAY_VIEW:
            self._play_action(self.choice)
        elif view == CALL:
            self._call_action(self.choice)

    def _play_action(self, i):
        if i == 0:
            self._open_picker()
        elif i == 1:
            self._countdown(FLIP_STALL)
        elif self._line((i - 1, OUT)):
            self.app.beep(1568, 300)

    def _call_action(self, i):
        g = self.game
        a = g.arbiter
        if i:  # the table overrules the referee: a false call, or who takes (rare)
            _rare().rule(self, i)
            _let_go()
            return
        if g.ruling == VOID:
            self._line((None, "resume"))
        elif g.ruling is not None:
            self._countdown(FLIP_REDEAL)
        elif not self.known[0]:
            self.app.toast("timing the call")
        elif a.loser() is not None:
            if self.known[1]:
                self._countdown(FLIP_REDEAL)
            else:
                self.app.toast("wait: not all pressed")
        elif a.tie():
            self._line((None, "resume"))  # a tie: nobody takes the stacks, play goes on
            self.app.toast("tie: play on")
        elif self.known[1]:
            self.app.toast("name who takes")
        else:
            self.app.toast("wait: not all pressed")

    def _back(self, view):
        _rare().back(self, view)
        _let_go()
        _let_go("core.stress_rare")  # an undo reads the base checkpoint

    # Countdown -------------------------------------------------------------------

    def _countdown(self, kind):
        self.count_kind = kind
        self.count_end = self.ticks.unwrap(self.clock.ticks_us()) + COUNT_US
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
        if kind == FLIP_START:
            ok = self._line((None, "start"))
        elif kind == FLIP_REDEAL:
            ok = self._line((None, "resume"))
        else:
            ok = True
        if ok:
            self.tops_unknown = True  # new cards are down; the old tops are gone
            self._sync_view()
            self._open_picker()

    def tick(self, now_ms):
        self.background(now_ms)

    def background(self, now_ms):
        """Every loop turn, also while the centre picker is on top: the edges of the
        turn go into the game, then the countdown moves on."""
        now = self.ticks.unwrap(self.clock.ticks_us())  # fed often: it never misses a wrap
        self._feed_edges()
        self._take_held(now)
        self._write()
        if self.count_kind >= 0:
            left = self.count_end - now
            if self.count_seen:
                # A turn has seen the end, so every edge stamped before it has been
                # read and journalled by now: the flip.
                self._flip()
            elif left <= 0:
                self.count_seen = True
                self.count_shown = 0
                self.app.beep(1760, 250)
                self.app.redraw()
            else:
                second = (left + 999999) // 1000000
                if second != self.count_shown:
                    self.count_shown = second
                    self.app.beep(880, 80)
                    self.app.redraw()
        elif self.game.call_pending():
            known = self._known(now)
            if known != self.known:
                self.known = known
                self._sync_view()  # the likely ruling may change with what is known
                self.app.redraw()

    def awake(self):
        return self.count_kind >= 0 or self.game.on

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

    def _writable(self):
        """No press can change anything any more: no game on, or the call is ruled by
        the table, or decided (winner, margin and who takes the stacks are fixed)."""
        g = self.game
        if not g.on:
            return True
        if not g.call_pending():
            return False  # armed: the first press may come at any moment
        if g.ruling is not None or self.count_kind == FLIP_REDEAL:
            return True
        return self.known[0] and self.known[1] and g.arbiter.margin_us() is not None

    def _write(self, force=False):
        """Write the lines waiting in RAM, once their frame is on the panel and no press
        can matter (force: now, leaving the screen)."""
        if not self.unwritten or self.blocked:
            return
        if not force:
            if self.app.frames == self.pushed_frame and not self.app.asleep:
                return  # draw first: the frame that shows them goes out before the write
            if not self._writable():
                return
        try:
            self.session.flush()
        except IllegalAction as e:
            self._write_failed(e.reason)
            return
        self.unwritten = False

    def _write_failed(self, reason):
        _rare().write_failed(self, reason)
        _let_go()

    def leave(self):
        """The screen goes away (home): write what waits, whatever the call."""
        self._take_held()
        self._write(force=True)

    def set_centre(self, first, second):
        if self._line((None, CENTRE, first, second)):
            self.tops_unknown = False
            self.app.beep()

    def _open_picker(self):
        from firmware.screens.stress_pick import CentrePicker
        self.app.push(CentrePicker(self.app, self, 1))

    def _resync(self):
        """A button the referee holds closed but that is open now gets its `up` (after an
        undo that dropped edges, or a restart). Only releases: a press is never made up."""
        g = self.game
        self.filter.clear()
        for p in range(g.players):
            if g.arbiter.is_closed(p) and not self.level[p]:
                self._push((p + 1, UP, self._now_t()), False)

    # Drawing ---------------------------------------------------------------------

    def draw(self, fb):
        view = self._sync_view()
        g = self.game
        names = [self.app.settings.player_name(p) for p in range(1, g.players + 1)]
        if view == COUNT:
            left = self.count_end - self.ticks.unwrap(self.clock.ticks_us())
            draw.draw_countdown(fb, COUNT_TITLES[self.count_kind], 0 if self.count_seen else left)
        elif view == END:
            from firmware.screens.stress_end import draw_end  # let go at home
            draw_end(fb, g, names)
        elif view == MATCH:
            draw.draw_match(fb, g, names)
        else:
            label = self._label(view, self.choice % self._count(view))
            if view == CALL:
                draw.draw_call(fb, g, names, self.known[0], self.known[1], label,
                               self.call_tops_known)
            else:
                draw.draw_play(fb, g, names, label, self.tops_unknown)
