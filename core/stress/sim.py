"""Simulated Stress players: whole matches played on the computer from a seed, written
out as a transcript in the table notation, with the truth beside it (STR-31).

Time is a virtual microsecond count (the notation's unwrapped T), started just below
2**30 so that the device's tick counter wraps early in every match. Players think for
a while between plays; when both tops show one rank they react after a human delay
and press their call buttons, which bounce on press and on release. The truth of a
call is worked out here from the true contact times, by the rule the referee must
follow (first press wins; a second press within the tie window is a tie), without the
referee's code: replaying the transcript must give the same calls and the same winner.
"""

from core.stress.model import Rng, Table

START_T = (1 << 30) - 30000000  # ticks_us wraps 30 s into the first game

# Human timings (microseconds).
THINK_MIN, THINK_MAX = 250000, 1500000
REACT_MIN, REACT_MAX = 160000, 420000
HOLD_MIN, HOLD_MAX = 60000, 250000
BOUNCE_MAX = 5000  # a good switch; well inside the referee's debounce time
PICK_UP_US = 2000000  # the loser gathers the stacks, the centre is laid again


class Truth:
    """What really happened, for the tests to hold the referee to."""

    def __init__(self):
        self.calls = []  # (winner, tie, margin_us, loser): 1-based / None, as in the state
        self.games_won = [0, 0]
        self.unfinished = False


def _press_edges(rng, player, t, hold, out):
    """A press at t (its first closing edge), held for `hold`, with bounce both ways."""
    out.append((t, player, "down"))
    bt = t
    for _ in range(rng.below(4)):  # bounce on press: open, close again within the bounce time
        bt += rng.between(1, BOUNCE_MAX // 8)
        out.append((bt, player, "up"))
        bt += rng.between(1, BOUNCE_MAX // 8)
        out.append((bt, player, "down"))
    rt = t + hold
    out.append((rt, player, "up"))
    for _ in range(rng.below(4)):  # bounce on release
        rt += rng.between(1, BOUNCE_MAX // 8)
        out.append((rt, player, "down"))
        rt += rng.between(1, BOUNCE_MAX // 8)
        out.append((rt, player, "up"))
    return rt


class Match:
    """A seeded match of simulated players. `lines` is the transcript; `truth` the truth."""

    def __init__(self, seed, games=1, tie_window_us=500, max_steps=4000, close_calls=150,
                 asleep=40):
        self.rng = Rng(seed)
        self.games = games
        self.tie_window_us = tie_window_us
        self.max_steps = max_steps
        self.close_calls = close_calls  # per thousand calls: the second press within 3 ms
        self.asleep = asleep  # per thousand: a player misses a call altogether
        self.t = START_T
        self.truth = Truth()
        self.lines = ["game stress players 2"]
        if games != 2:
            self.lines.append("option games %d" % games)
        if tie_window_us != 500:
            self.lines.append("option tie_window_us %d" % tie_window_us)
        self.speed = [self.rng.between(70, 130), self.rng.between(70, 130)]  # percent
        while max(self.truth.games_won) < games and not self.truth.unfinished:
            self._play_game()

    def _emit(self, table):
        self.lines.extend(table.log)
        del table.log[:]

    def _play_game(self):
        rng = self.rng
        table = Table(rng)
        self._emit(table)
        self.lines.append("start")
        for _ in range(self.max_steps):
            while table.stress():
                self._call(table)
            winner = table.out()
            if winner is not None:
                break
            if table.stalled():
                self.t += rng.between(500000, 1500000)
                table.unstall()
                self._emit(table)
                continue
            self._play_one(table)
            winner = table.out()
            if winner is not None:
                break
        else:
            self.truth.unfinished = True
            return
        self.lines.append("P%d out" % (winner + 1))
        self.truth.games_won[winner] += 1

    def _play_one(self, table):
        """The quicker of the players who can move plays one card."""
        rng = self.rng
        best_delay = -1
        best_p = 0
        best_move = (0, 0)
        for p in range(2):
            moves = table.moves(p)
            if not moves:
                continue
            delay = rng.between(THINK_MIN, THINK_MAX) * self.speed[p] // 100
            if best_delay < 0 or delay < best_delay:
                best_delay, best_p, best_move = delay, p, moves[rng.below(len(moves))]
        self.t += best_delay
        table.play(best_p, best_move[0], best_move[1])
        self._emit(table)

    def _call(self, table):
        """Both tops show one rank: the players react and press (-1: never presses)."""
        rng = self.rng
        base = self.t
        presses = [-1, -1]
        for p in range(2):
            if not rng.chance(self.asleep):
                presses[p] = base + rng.between(REACT_MIN, REACT_MAX) * self.speed[p] // 100
        if presses[0] >= 0 and presses[1] >= 0 and rng.chance(self.close_calls):
            first = 0 if presses[0] <= presses[1] else 1
            presses[1 - first] = presses[first] + rng.below(3000)
        if presses[0] < 0 and presses[1] < 0:
            presses[rng.below(2)] = base + REACT_MAX
        edges = []
        end = base
        for p in range(2):
            if presses[p] >= 0:
                end = max(end, _press_edges(rng, p + 1, presses[p], rng.between(HOLD_MIN, HOLD_MAX), edges))
        edges.sort()  # by time, then player: how the device's ring buffer delivers them
        for t, p, what in edges:
            self.lines.append("@%d P%d %s" % (t, p, what))
        # The truth, from the true contact times.
        if presses[0] < 0 or presses[1] < 0:
            first = 0 if presses[1] < 0 else 1
            call = (first + 1, False, None, 2 - first)
            loser = 1 - first
        else:
            first = 0 if presses[0] <= presses[1] else 1
            margin = presses[1 - first] - presses[first]
            if margin <= self.tie_window_us:
                call = (None, True, margin, None)
                loser = -1
            else:
                call = (first + 1, False, margin, 2 - first)
                loser = 1 - first
        self.truth.calls.append(call)
        self.t = end + PICK_UP_US
        if loser >= 0:
            table.take_stacks(loser)
            table.lay_centre()
            self._emit(table)
        self.lines.append("resume")
