"""The referee's screen on its rare paths (firmware/screens/stress/__init__.py keeps what a call
needs): BACK (undo), a write the flash refused, the tops after a restart, the likeliest
taker when the referee names nobody, the table's rulings. Imported where it is used
and let go after, so its code is not in the heap while calls are played. It never
imports the screen (no import circle): the screen is handed in.
"""

from core.errors import IllegalAction
from core import cards

# The views, as in firmware/screens/stress/__init__.py
MATCH = 0
PLAY_VIEW = 2
CALL = 3
END = 4


def tops_unknown(g):
    """After a restart: were new cards laid since the table last entered the tops?
    (a start, or a resume after somebody took the stacks; a tie or a void call
    leaves the centre as it was). Unknown history (a checkpoint) trusts the tops."""
    h = g.history
    closed = len(g.calls)
    for i in range(len(h) - 1, -1, -1):
        verb = h[i][1]
        if verb == "centre" or verb == "play":
            return False
        if verb == "start":
            return True
        if verb == "resume":
            closed -= 1
            try:
                if g.calls[closed][4] is not None:
                    return True
            except (IndexError, TypeError):
                return False
    return False


def likely_taker(arbiter, slow_window_us):
    """0-based: who most likely takes the stacks when the referee names nobody: the
    first player who did not press in time, else the last to press. None: no call."""
    first = None
    for i in range(arbiter.players):
        off = arbiter.pressed_at(i)
        if off is not None and (first is None or off < first):
            first = off
    if first is None:
        return None
    last_i = -1
    last = None
    for i in range(arbiter.players):
        off = arbiter.pressed_at(i)
        if off is None or off - first > slow_window_us:
            return i
        if last is None or off > last:
            last, last_i = off, i
    return last_i


def rule(s, i):
    """The table overrules the call on screen s: action i 1 is a false call (it counts
    for nothing, play goes on), 2.. names who takes the stacks (then the re-deal).
    Each ruling taken is said in words, with the player's name."""
    app = s.app
    if i == 1:
        w = s.game.arbiter.winner()
        if s._line((None, "void")) and s._line((None, "resume")):
            app.toast("false call%s: play on" % (
                "" if w is None else " by " + app.settings.name(w + 1)))
    elif s._line((i - 1, "takes")):
        s._countdown(1)  # FLIP_REDEAL: its view says who takes the stacks


def write_failed(s, reason):
    """The flash refused: the session took the waiting lines back out of the game.
    Show why, and make screen s follow the game on flash."""
    s.unwritten = False
    s.blocked = True
    s.write_error = reason
    s.filter.clear()
    s.count_kind = -1
    s.known = (False, False)
    s.tops_unknown = tops_unknown(s.game)  # a centre may have gone
    resync(s)
    s.app.refuse(reason)
    s.app.redraw()


def back(s, view):
    """BACK on screen s in view: undo the last line that makes sense there."""
    if view == MATCH:
        verbs = ("out", "centre")
    elif view == PLAY_VIEW:
        verbs = ("start", "resume", "centre", "play")
    elif view == CALL:
        verbs = ("void", "takes")
    elif view == END:
        verbs = ("out",)
    else:
        return
    try:
        action = _undo(s, verbs)
    except IllegalAction as e:
        s.app.toast(e.reason)
        return
    if action is None:
        s.app.toast("use False call" if view == CALL else "nothing to undo")
    else:
        p = action[0]
        verb = action[1]
        if verb == "centre":  # the tops are entered by rank: say them so
            text = "centre %s %s" % (cards.name(action[2])[:-1], cards.name(action[3])[:-1])
        elif p is not None and verb in ("out", "takes"):
            text = "%s %s" % (s.app.settings.name(p), verb)  # "ANN out": a name, no seat
        else:
            text = s.game.format(action)
        s.app.toast("undone: " + text)


def _undo(s, verbs):
    """Undo the last line that is not an edge, if its verb is in verbs; returns it.

    Edges after it are taken back with it when it armed or disarmed them (start,
    resume, out); after any other line (a ruling, the centre) they are applied again,
    so no press is lost from a call."""
    g = s.game
    s._take_held()
    h = g.history
    i = len(h) - 1
    while i >= 0 and (h[i][1] == "down" or h[i][1] == "up"):
        i -= 1
    if i < 0 or h[i][1] not in verbs:
        return None
    target = h[i]
    if i == len(h) - 1:
        s.session.undo()  # a line still in RAM just leaves the buffer
    else:
        s._write(True)  # the history is written anew: what waits goes first
        if s.blocked:
            raise IllegalAction(s.write_error)
        # One replay (the core undoes Stress by replaying its history anyway).
        keep = h[:i]
        if target[1] not in ("start", "resume", "out"):  # these armed the edges after them
            keep += h[i + 1:]
        g._replay(keep)
        try:
            s.session.rewrite()
        except OSError:
            g._replay(h)
            raise IllegalAction("storage full: not saved")
    resync(s)
    s.app.redraw()
    return target


def resync(s):
    """A button the referee holds closed but that is open now gets its `up` (after an
    undo that dropped edges, a refused write, or a restart). Only releases: a press is
    never made up."""
    g = s.game
    s.filter.clear()
    for p in range(g.players):
        if g.arbiter.is_closed(p) and not s.level[p]:
            s._push((p + 1, "up", max(s.ticks.unwrap(s.clock.ticks_us()), g.last_t)), False)
