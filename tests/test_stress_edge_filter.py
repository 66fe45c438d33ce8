"""The journal's edge filter (core.stress.arbiter.EdgeFilter): a game fed only the edges
the filter keeps decides exactly as a game fed every edge (proposed rule STR-37).

Property: random edge streams (bounce bursts, double edges, equal stamps, long
silences, the tick wrap) with `start`, `resume`, `void` and `out` between them; the
full game and the filtered one agree at every step on everything but `moves`, `t` and
(while an opening is held) `pressed`; at the end, with the held openings taken, also on
`pressed` and on the arbiter's whole state (arm time normalised); and then on any
continuation.
"""

from hypothesis import given, settings, strategies as st

from core.errors import IllegalAction
from core.stress import DOWN, UP, Stress
from core.stress.arbiter import DROP, HOLD, KEEP, TICKS_PERIOD, EdgeFilter
from core.stress.sim import Match

START_T = TICKS_PERIOD - 3000  # the tick count wraps a few ms in


class Filtered:
    """A game fed through the filter the way the device feeds its journal."""

    def __init__(self, players, options):
        self.game = Stress(players, options)
        self.filter = EdgeFilter(players, self.game.options["debounce_us"])
        self.kept = 0

    def _push_held(self, now=None):
        while True:
            h = self.filter.take(now)
            if h is None:
                return
            self.game.push((h[0] + 1, UP, h[1]))
            self.kept += 1

    def edge(self, p, closed, t):
        g = self.game
        code = self.filter.offer(p - 1, closed, t, g.arbiter.is_closed(p - 1))
        if code == KEEP:
            self._push_held()
            g.push((p, DOWN if closed else UP, t))
            self.kept += 1
        return code

    def time(self, now):
        self._push_held(now)

    def line(self, action):
        self._push_held()
        self.game.push(action)


def view(game, *leave_out):
    s = game.state()
    for key in ("moves", "t") + leave_out:
        del s[key]
    return s


def arbiter_view(game):
    """The arbiter's whole state, with presses measured from the latest stamp (the arm
    time follows the last line, which may be earlier in the filtered journal) and
    nothing read from a closed button's opening time."""
    a = game.arbiter
    buttons = []
    for i in range(a.players):
        if a._closed[i]:
            buttons.append("closed")
        else:
            buttons.append((a._opened[i], a._settled[i]))
    presses = tuple(None if p is None else p - a._age for p in a._press)
    return (a._now, a._armed, tuple(buttons), presses)


LINES = ((None, "start"), (None, "resume"), (None, "void"), (1, "out"), (2, "out"))

gaps = st.one_of(
    st.integers(0, 3),  # equal and near-equal stamps (ties)
    st.integers(1, 2500),  # switch bounce
    st.integers(15000, 25000),  # around the debounce time
    st.integers(40000, 400000),  # human
    st.sampled_from([(1 << 28) - 5, 1 << 28, (1 << 29) + 7, 3 * TICKS_PERIOD]),  # silences
)
events = st.lists(st.one_of(
    st.tuples(st.just("edge"), st.integers(1, 3), st.integers(0, 9), gaps),
    st.tuples(st.just("line"), st.integers(0, len(LINES) - 1), st.just(0), gaps),
    st.tuples(st.just("time"), st.just(0), st.just(0), gaps),
), max_size=120)


def play(players, debounce, evs, tail):
    options = {"debounce_us": debounce}
    full = Stress(players, options)
    filt = Filtered(players, options)
    level = [False] * players
    t = START_T
    for kind, p, toggle, gap in evs:
        t += gap
        if kind == "edge":
            p = (p - 1) % players + 1
            if toggle:  # mostly the level changes; 1 in 10 is a double edge
                level[p - 1] = not level[p - 1]
            full.push((p, DOWN if level[p - 1] else UP, t))
            filt.edge(p, level[p - 1], t)
            assert view(filt.game, "pressed") == view(full, "pressed")
        elif kind == "time":
            filt.time(t)
            assert view(filt.game, "pressed") == view(full, "pressed")
        else:
            action = LINES[p]
            if action[0] is not None and action[0] > players:
                continue
            try:
                full.push(action)
            except IllegalAction as e:
                try:
                    filt.line(action)
                except IllegalAction as e2:
                    assert e2.reason == e.reason
                else:
                    raise AssertionError("the filtered game took %r" % (action,))
                continue
            filt.line(action)
            assert view(filt.game) == view(full)
    filt.time(None)  # the end of the stream: every held opening goes in
    j = filt.game
    assert view(j) == view(full)
    assert j.last_t <= full.last_t
    # Any continuation is judged alike: the same edges pushed to both, unfiltered.
    for p, gap in tail:
        t += gap
        p = (p - 1) % players + 1
        level[p - 1] = not level[p - 1]
        for g in (full, j):
            g.push((p, DOWN if level[p - 1] else UP, t))
        assert view(j) == view(full)
        assert arbiter_view(j) == arbiter_view(full)
    return filt.kept, len(full.history)


@settings(max_examples=600, deadline=None)
@given(st.integers(2, 3), st.sampled_from([20000, 1000, 0]), events,
       st.lists(st.tuples(st.integers(1, 3), gaps), min_size=1, max_size=6))
def test_STR_37_the_filtered_journal_decides_like_the_full_one(players, debounce, evs, tail):
    play(players, debounce, evs, tail)


def test_STR_37_a_bouncy_press_and_release_keep_two_edges():
    f = Filtered(2, None)
    t = START_T
    codes = [f.edge(1, True, t)]  # the press (a call once armed)
    for up, down in ((120, 300), (410, 650)):  # the contact chatters
        codes += [f.edge(1, False, t + up), f.edge(1, True, t + down)]
    r = t + 90000
    codes.append(f.edge(1, False, r))  # the release, bouncing
    for down, up in ((200, 500), (900, 1400)):
        codes += [f.edge(1, True, r + down), f.edge(1, False, r + up)]
    assert codes == [KEEP, HOLD, DROP, HOLD, DROP, HOLD, DROP, HOLD, DROP, HOLD]
    f.time(r + 1400 + 19999)
    assert f.game.arbiter.is_closed(0) and f.kept == 1  # not due yet
    f.time(r + 1400 + 20000)
    assert [f.game.format(a) for a in f.game.history] == [
        "@%d P1 down" % t, "@%d P1 up" % (r + 1400)]


def test_STR_37_a_real_second_press_after_a_held_release_journals_both_in_order():
    f = Filtered(2, None)
    f.line((None, "start"))
    t = START_T
    f.edge(1, True, t)
    assert f.edge(1, False, t + 100000) == HOLD
    assert f.edge(2, True, t + 100005) == KEEP  # another button: the held opening goes first
    assert [a[1] for a in f.game.history] == ["start", "down", "up", "down"]
    assert f.edge(1, True, t + 130000) == KEEP  # 30 ms after P1's release: a press
    assert f.game.state()["pressed"] == [1, 2]


def test_STR_37_double_edges():
    f = Filtered(2, None)
    t = START_T
    f.edge(1, True, t)
    assert f.edge(1, True, t + 50000) == DROP  # closed already: bounce
    f.edge(1, False, t + 60000)
    f.time(t + 90000)
    assert f.edge(1, False, t + 95000) == KEEP  # a second opening restarts the wait
    assert f.edge(1, True, t + 105000) == KEEP  # 10 ms later: bounce, but journalled
    assert f.game.arbiter.is_closed(0) and not f.game.arbiter.called()


def simulated(seed):
    m = Match(seed, games=2)
    return m.lines


def filter_transcript(lines):
    """A whole transcript through the filter (the header and non-edge lines as they
    are). Returns (the full game, the filtered game, the kept lines)."""
    full = Stress(2)
    options = {}
    for line in lines[1:]:
        if line.startswith("option "):
            _, key, value = line.split()
            options[key] = int(value)
    full = Stress(2, options)
    f = Filtered(2, options)
    kept = [line for line in lines if line.startswith(("game ", "option "))]
    n = len(kept)
    for line in lines[n:]:
        action = full.push(line)
        if line.startswith("@"):
            before = len(f.game.history)
            f.edge(action[0], action[1] == DOWN, action[2])
            kept += [f.game.format(a) for a in f.game.history[before:]]
        else:
            before = len(f.game.history)
            f.line(action)
            kept += [f.game.format(a) for a in f.game.history[before:]]
    before = len(f.game.history)
    f.time(None)
    kept += [f.game.format(a) for a in f.game.history[before:]]
    return full, f.game, kept


def test_STR_37_simulated_matches_journal_a_quarter_of_the_edges():
    total_all = total_kept = 0
    for seed in range(1, 9):
        lines = simulated(seed)
        full, filtered, kept = filter_transcript(lines)
        assert view(filtered) == view(full)
        assert full.state()["match_over"]
        # The kept lines are a transcript that replays to the same game.
        again = Stress(2)
        for line in kept[1:]:
            again.push(line)
        assert again.to_json() == filtered.to_json()
        edges_all = sum(1 for line in lines if line.startswith("@"))
        edges_kept = sum(1 for line in kept if line.startswith("@"))
        calls = len(full.state()["calls"])
        assert edges_kept <= 4 * calls + 2  # a press and a release per player and call
        total_all += edges_all
        total_kept += edges_kept
    assert total_kept * 3 < total_all
