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

Calls: every raw edge of a call button (on_call, stamped in the pin interrupt) is
journalled as `@T PX down|up` with T unwrapped by firmware.clock.TickUnwrapper, at the
loop turn's tick and in stamp order, and the core's arbiter decides from those stamps,
never from the order the screen hears them. `start`/`resume` go in where the countdown
ends, between the edges stamped before and after it (rule STR-34).
BACK undoes the last line that makes sense in the view (not an edge: the buttons did
those); a long BACK goes home, the game stays saved.
"""

from core.errors import IllegalAction
from core.stress import CENTRE, DOWN, OUT, PLAY, RESUME, START, TAKES, UP, VOID
from core.stress_arbiter import TICKS_MAX
from firmware import buttons as b
from firmware.clock import TickUnwrapper
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

# What BACK may undo in each view (edges are never undone on their own).
UNDO = {
    MATCH: (OUT, CENTRE),
    PLAY_VIEW: (START, RESUME, CENTRE, PLAY),
    CALL: (VOID, TAKES),
    END: (OUT,),
}
DROP_EDGES = (START, RESUME, OUT)  # undone with the edges after them (they armed them)


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
        self.edges = []  # call-button edges of this loop turn: (unwrapped t, player, down)
        self.count_seen = False  # a loop turn has seen the end
        self.count_shown = -1  # the second on the screen (a beep when it changes)
        self.known = (False, False)
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
        return (g.arbiter.winner_known(t), g.arbiter.loser_known(t))

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
        return view

    def _labels(self, view):
        n = self.game.players
        if view == PLAY_VIEW:
            return ["Centre cards", "Stall 3-2-1"] + ["P%d out" % p for p in range(1, n + 1)]
        if view == CALL:
            return ["Confirm", "False call"] + ["P%d takes" % p for p in range(1, n + 1)]
        return []

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        if button == b.BACK and kind == b.LONG:
            self._cancel_count()
            self.app.home()
            return
        view = self._sync_view()
        if view == COUNT:
            if button == b.BACK and kind == b.SHORT:
                self._cancel_count()
                self.app.toast("countdown off")
            return
        labels = self._labels(view)
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and labels:
            self.choice = (self.choice + (1 if button == b.RIGHT else -1)) % len(labels)
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
        while i > 0 and edges[i - 1][0] > t:
            i -= 1
        edges.insert(i, (t, player, 1 if down else 0))

    def _flush(self):
        edges = self.edges
        if not edges:
            return
        self.edges = []
        for t, player, down in edges:
            if (self.count_kind == FLIP_START or self.count_kind == FLIP_REDEAL) and \
                    t >= self.count_end:
                self._flip()  # stamped after the flip: `start` goes first
            self._edge(player, down, t)

    def _edge(self, player, down, t):
        g = self.game
        self.level[player - 1] = down
        before = g.call_pending()
        try:
            self.session.push((player, DOWN if down else UP, max(t, g.last_t)))
        except IllegalAction as e:
            self.app.toast(e.reason)
            return
        if not before and g.call_pending():
            self._called()
        self.app.redraw()

    def _called(self):
        """A call was made: show the decision (close the picker, stop a stall count)."""
        if self.count_kind == FLIP_STALL:
            self._cancel_count()
        screens = self.app.screens
        if self in screens:
            while self.app.screen is not self:
                self.app.pop()
        self.known = (False, False)
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
        elif self._push((i - 1, OUT)):
            self.app.beep(1568, 300)

    def _call_action(self, i):
        g = self.game
        a = g.arbiter
        if i == 1:  # a false call: it counts for nothing, play goes on
            if self._push((None, VOID)) and self._push((None, RESUME)):
                self.app.toast("void: play on")
            return
        if i >= 2:  # the table names who takes the stacks
            if self._push((i - 1, TAKES)):
                self._countdown(FLIP_REDEAL)
            return
        if g.ruling == VOID:
            self._push((None, RESUME))
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
            self._push((None, RESUME))  # a tie: nobody takes the stacks, play goes on
            self.app.toast("tie: play on")
        elif self.known[1]:
            self.app.toast("name who takes")
        else:
            self.app.toast("wait: not all pressed")

    def _back(self, view):
        verbs = UNDO.get(view)
        if not verbs:
            return
        try:
            action = self._undo(verbs)
        except IllegalAction as e:
            self.app.toast(e.reason)
            return
        if action is None:
            self.app.toast("use False call" if view == CALL else "nothing to undo")
        else:
            self.app.toast("undone: " + self.game.format(action))

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
            ok = self._push((None, START))
        elif kind == FLIP_REDEAL:
            ok = self._push((None, RESUME))
        else:
            ok = True
        if ok:
            self._sync_view()
            self._open_picker()

    def tick(self, now_ms):
        self.background(now_ms)

    def background(self, now_ms):
        """Every loop turn, also while the centre picker is on top: the edges of the
        turn go into the game, then the countdown moves on."""
        now = self.ticks.unwrap(self.clock.ticks_us())  # fed often: it never misses a wrap
        self._flush()
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
                self.app.redraw()

    def awake(self):
        return self.count_kind >= 0 or self.game.on

    # Lines -----------------------------------------------------------------------

    def _push(self, action):
        return self.app.submit(self.session, action, beep=False)

    def set_centre(self, first, second):
        if self._push((None, CENTRE, first, second)):
            self.app.beep()

    def _open_picker(self):
        from firmware.screens.stress_pick import CentrePicker
        self.app.push(CentrePicker(self.app, self, 1))

    def _resync(self):
        """A button the referee holds closed but that is open now gets its `up` (after an
        undo that dropped edges, or a restart). Only releases: a press is never made up."""
        g = self.game
        for p in range(g.players):
            if g.arbiter.is_closed(p) and not self.level[p]:
                self.session.push((p + 1, UP, self._now_t()))

    def _undo(self, verbs):
        """Undo the last line that is not an edge, if its verb is in verbs; returns it.

        Edges after it are taken back with it when it armed or disarmed them (start,
        resume, out); after any other line (a ruling, the centre) they are applied again,
        so no press is lost from a call."""
        g = self.game
        h = g.history
        i = len(h) - 1
        while i >= 0 and (h[i][1] == DOWN or h[i][1] == UP):
            i -= 1
        if i < 0 or h[i][1] not in verbs:
            return None
        target = h[i]
        if i == len(h) - 1:
            self.session.undo()
        else:
            # One replay (the core undoes Stress by replaying its history anyway).
            keep = h[:i]
            if target[1] not in DROP_EDGES:
                keep += h[i + 1:]
            g._replay(keep)
            try:
                self.session.rewrite()
            except OSError:
                g._replay(h)
                raise IllegalAction("storage full: not saved")
        self._resync()
        self.app.redraw()
        return target

    # Drawing ---------------------------------------------------------------------

    def draw(self, fb):
        view = self._sync_view()
        g = self.game
        names = [self.app.settings.player_name(p) for p in range(1, g.players + 1)]
        if view == COUNT:
            left = self.count_end - self.ticks.unwrap(self.clock.ticks_us())
            draw.draw_countdown(fb, COUNT_TITLES[self.count_kind], 0 if self.count_seen else left)
        elif view == END:
            draw.draw_end(fb, g, names)
        elif view == MATCH:
            draw.draw_match(fb, g, names)
        else:
            labels = self._labels(view)
            label = labels[self.choice % len(labels)]
            if view == CALL:
                draw.draw_call(fb, g, names, self.known[0], self.known[1], label)
            else:
                draw.draw_play(fb, g, names, label)
