"""Stress: what the referee's screen shows, one function per view.

Every view reads the game (core.stress.Stress) and draws; nothing here changes state.
Numbers that matter (the score, the countdown, the call's winner) are big digits; the
margin and the next step are plain words in the 8x8 font.
"""

from core import cards
from firmware import ui


def fmt_margin(us):
    """900 -> '0.9 ms'; 12345 -> '12.3 ms'; 2500000 -> '2.50 s'."""
    if us < 1000000:
        tenths = (us + 50) // 100
        return "%d.%d ms" % (tenths // 10, tenths % 10)
    hundredths = (us + 5000) // 10000
    return "%d.%02d s" % (hundredths // 100, hundredths % 100)


def tops_text(game, unknown=False):
    """'8C  3D'; '?  ?' when new cards are down that the table has not entered."""
    a, b = game.tops
    if a is None or b is None:
        return ""
    if unknown:
        return "?  ?"
    return "%s  %s" % (cards.name(a), cards.name(b))


def title_bar(fb, left, right, short=None):
    """The inverted title row; `short` replaces `left` when both do not fit."""
    room = ui.COLS - len(right) - 1
    if len(left) > room and short is not None:
        left = short
    ui.bar(fb, left[:room], 0, right)


def action_bar(fb, label):
    fb.fill_rect(0, 55, ui.W, 9, 1)
    ui.center(fb, ("<" + label + ">")[:ui.COLS], 56, 0)


def _scores(fb, game, names, y):
    """The games won, one big number per player, names under them."""
    n = game.players
    text = "-".join(str(w) for w in game.games_won)
    scale = 3 if ui.big_width(text, 3) <= ui.W else 2
    ui.big_center(fb, text, y, scale)
    col = ui.W // n
    for p in range(n):
        ui.center_in(fb, names[p][:col // ui.CHAR], p * col, col, y + 8 * scale + 2)


def draw_match(fb, game, names):
    """Between games: the match score, the centre if known, and the next step."""
    n = game.game_no + 1
    title_bar(fb, "Game %d" % n, "to win %d" % game.options["games"], "G%d" % n)
    _scores(fb, game, names, 11)
    if game.over and game.history:
        winner = _last_out(game)
        if winner:
            ui.center(fb, "P%d won game %d" % (winner, game.game_no), 46)
    elif tops_text(game):
        ui.center(fb, "centre " + tops_text(game), 46)
    action_bar(fb, "OK: flip 3-2-1")


def _last_out(game):
    for action in reversed(game.history):
        if action[1] == "out":
            return action[0]
    return None


def draw_play(fb, game, names, label, tops_unknown=False):
    """A game on and armed: the centre tops large, STRESS when they show one rank,
    '?  ?' when new cards are down that the table has not entered."""
    n = game.game_no
    title_bar(fb, "Game %d armed" % n, "-".join(str(w) for w in game.games_won), "G%d armed" % n)
    tops = tops_text(game, tops_unknown)
    if tops:
        ui.big_center(fb, tops, 13, 2 if ui.big_width(tops, 2) <= ui.W else 1)
        if tops_unknown:
            ui.center(fb, "tops not entered", 35)
        elif game.stress():
            fb.fill_rect(0, 33, ui.W, 10, 1)
            ui.center(fb, "STRESS: CALL!", 34, 0)
        else:
            ui.center(fb, "centre tops", 35)
    else:
        ui.big_center(fb, "GO", 12, 3)
    ui.center(fb, "call buttons on", 45)
    action_bar(fb, label)


def draw_countdown(fb, title, left_us):
    ui.bar(fb, title)
    if left_us > 0:
        ui.big_center(fb, str((left_us + 999999) // 1000000), 13, 4)
    else:
        ui.big_center(fb, "FLIP", 17, 3)
    ui.text(fb, "BACK: cancel", 0, 56)


def call_lines(game, winner_known, loser_known):
    """(big, margin line, stacks line) for the waiting call."""
    a = game.arbiter
    if not winner_known:
        return "...", "timing", ""
    margin = a.margin_us()
    if a.tie():
        big = "TIE"
        first, second = first_two(a)
        line = "TIE P%d P%d %s" % (first + 1, second + 1, fmt_margin(margin))
    else:
        w = a.winner() + 1
        big = "P%d" % w
        if margin is None:
            line = "P%d, no other yet" % w if not loser_known else "P%d alone" % w
        else:
            line = "P%d by %s" % (w, fmt_margin(margin))
    ruling = game.ruling
    if ruling == "void":
        stacks = "void: no stacks"
    elif ruling is not None:
        stacks = "ruled: P%d takes" % (ruling + 1)
    elif a.tie() and a.loser() is None:
        stacks = "nobody takes"
    elif not loser_known:
        stacks = "waiting..."
    elif a.loser() is None:
        stacks = "table decides"
    else:
        stacks = "P%d takes stacks" % (a.loser() + 1)
    return big, line, stacks


def first_two(arbiter):
    """0-based: the first and the second player to press in this armed period (the
    lower seat first among equal stamps), or -1."""
    first = second = -1
    for i in range(arbiter.players):
        off = arbiter.pressed_at(i)
        if off is None:
            continue
        if first < 0 or off < arbiter.pressed_at(first):
            first, second = i, first
        elif second < 0 or off < arbiter.pressed_at(second):
            second = i
    return first, second


def stress_text(game, tops_known):
    """What the tops showed when the call was made: 'stress', 'no stress', or '' when
    the table had not entered them."""
    if not tops_known:
        return ""
    return "stress" if game.call_stress else "no stress"


def draw_call(fb, game, names, winner_known, loser_known, label, tops_known=True):
    """The call decision: who called first, the margin, who takes the stacks, and
    whether the tops showed stress (when the table entered them)."""
    big, line, stacks = call_lines(game, winner_known, loser_known)
    w = game.arbiter.winner()
    title = "CALL " + names[w] if winner_known and w is not None else "CALL"
    right = ("G%d %s" % (game.game_no, stress_text(game, tops_known))).strip()
    title_bar(fb, title, right, "CALL")
    ui.big_center(fb, big, 10, 3)
    ui.center(fb, line[:ui.COLS], 36)
    ui.center(fb, stacks[:ui.COLS], 45)
    action_bar(fb, label)
