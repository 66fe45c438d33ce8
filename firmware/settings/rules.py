"""House rules in words (for the settings pages) and their check by the games
themselves (for a settings load that finds house rules): the part of firmware.settings
that the home menu and a game in play never need, imported only then (heap on the
board). firmware.settings still answers these names. It imports no other module of the
firmware, and a game's rules module only to judge that game's own options.

RULES: each option a game offers has a label, a unit and a ladder of steps for the
settings screen; rule_text(key, value) -> "20 ms". OFFERED: the options the arrows
change, per game (the games' numeric OPTIONS, kept here so that the settings pages list
them without loading every game's rules; a test checks them against the games).
LIMITS: their defaults and the lowest and highest values each game accepts (its
OPTIONS and _check_option, here too so that the Rules page shows and steps them without
loading the game: its modules are ~24 KB of heap on a board, and that page was the
peak of a session that then played the game; a test checks them against the games,
which stay the judges of a settings file read at boot: check_rules).
"""


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _game_class(game):
    """The game's class, or None when this build has no such game."""
    from core.errors import IllegalAction
    from core.games import game_class
    try:
        return game_class(game)
    except IllegalAction:
        return None


_BIG = 1 << 30
# House rules in words: key -> (label, short label, unit, ladder). The unit says how a
# value in the notation's unit (microseconds for times) is shown; the ladder is
# ((below, step), ...): a value below `below` moves by `step`. The limits are the
# game's own: a step the game refuses is not taken.
RULES = {
    "hand_limit": ("Hand limit", "Hand limit", "", ((_BIG, 1),)),
    "rounds": ("Rounds", "Rounds", "", ((_BIG, 1),)),
    "games": ("Games to win", "Games", "", ((_BIG, 1),)),
    "debounce_us": ("Debounce", "Debounce", "ms",
                    ((10000, 1000), (50000, 5000), (200000, 10000), (1000000, 50000),
                     (_BIG, 1000000))),
    "tie_window_us": ("Tie window", "Tie win", "ms",
                      ((2000, 100), (10000, 500), (100000, 1000), (1000000, 10000),
                       (_BIG, 1000000))),
    "slow_window_us": ("Slow window", "Slow win", "s",
                       ((2000000, 100000), (10000000, 500000), (_BIG, 1000000))),
    "colours": ("Colours", "Colours", "", None),
    "names": ("Colour names", "Col names", "", None),
}
# the numeric options each game offers, in the order a player thinks of them
OFFERED = {
    "stack31": ("hand_limit",),
    "stackdeck": ("rounds",),
    "stress": ("games", "debounce_us", "tie_window_us", "slow_window_us"),
}
_MAX_US = 1 << 26  # core.stress.arbiter.MAX_OPTION_US
# game -> {key: (default, lowest, highest)}, for the keys of OFFERED
LIMITS = {
    "stack31": {"hand_limit": (6, 1, 13)},
    "stackdeck": {"rounds": (10, 1, 99)},
    "stress": {"games": (2, 1, 99), "debounce_us": (20000, 0, _MAX_US),
               "tie_window_us": (500, 0, _MAX_US), "slow_window_us": (1000000, 1, _MAX_US)},
}


# --- house rules in words ---------------------------------------------------------

def rule_label(key, room=99):
    """The rule's name in words, the long one when it fits in `room` characters."""
    info = RULES.get(key)
    if info is None:
        label = key.replace("_", " ")
        label = label[:1].upper() + label[1:]
        return label[:room]
    return info[0] if len(info[0]) <= room else info[1][:room]


def _decimal(value, scale):
    """value / scale written exactly, without trailing zeros: 500, 1000 -> '0.5'."""
    sign = "-" if value < 0 else ""
    value = -value if value < 0 else value
    whole = value // scale
    frac = value % scale
    if not frac:
        return sign + str(whole)
    digits = len(str(scale)) - 1
    text = str(frac)
    text = "0" * (digits - len(text)) + text
    while text.endswith("0"):
        text = text[:-1]
    return "%s%d.%s" % (sign, whole, text)


def rule_text(key, value):
    """A house rule's value in its unit: 20000 debounce -> '20 ms', 1000000 -> '1 s'."""
    info = RULES.get(key)
    unit = info[2] if info is not None else ("ms" if key.endswith("_us") else "")
    if unit and _is_int(value):
        return _decimal(value, 1000 if unit == "ms" else 1000000) + " " + unit
    return str(value)


def rule_row(key, value, width):
    """'Debounce    20 ms' in `width` characters: the value whole, the label as long as
    fits (the short one, then cut)."""
    text = rule_text(key, value)
    room = width - len(text) - 1
    label = rule_label(key, room if room > 0 else 0)
    return label + " " * (width - len(label) - len(text)) + text


def next_value(key, value, step):
    """The neighbour of value on the rule's ladder (step +1 or -1), on the ladder's grid."""
    info = RULES.get(key)
    ladder = info[3] if info is not None and info[3] is not None else ((_BIG, 1),)
    probe = value if step > 0 else value - 1
    size = ladder[-1][1]
    for below, s in ladder:
        if probe < below:
            size = s
            break
    if step > 0:
        return (value // size + 1) * size
    return ((value - 1) // size) * size


def check_rules(game, opts):
    """The house rules of `game` as the game itself accepts them: (kept, refused).
    Each option is tried in a throwaway game with the ones kept before it; refused is a
    list of the keys that were not. A game this build lacks keeps its rules unjudged."""
    from core.errors import IllegalAction
    cls = _game_class(game)
    if cls is None:
        return dict(opts), []
    keep = {}
    refused = []
    for k in sorted(opts):
        v = opts[k]
        if k not in cls.OPTIONS:
            refused.append(k)
            continue
        default = cls.OPTIONS[k]
        if _is_int(default) != _is_int(v) or isinstance(default, str) != isinstance(v, str):
            refused.append(k)
            continue
        if v == default:
            continue  # the same as no rule at all
        trial = dict(keep)
        trial[k] = v
        try:
            g = cls(cls.MIN_PLAYERS, trial)
        except IllegalAction:
            refused.append(k)
            continue
        except Exception:  # noqa: BLE001 - a value that breaks the game is refused too
            refused.append(k)
            continue
        keep[k] = g.options[k]
    return keep, refused


def game_options(settings, game):
    """The game's numeric options (OFFERED): their defaults (the game's OPTIONS, as
    LIMITS holds them) with the house rules. The game is not loaded."""
    out = {}
    limits = LIMITS.get(game, {})
    for k in limits:
        out[k] = limits[k][0]
    saved = settings.data["rules"].get(game, {})
    for k in saved:
        out[k] = saved[k]
    return out


def step_game_option(settings, game, key, step):
    """Move a numeric house rule to its next value on its ladder (step +1 or -1),
    within the game's limits (LIMITS: what the game itself accepts, checked against it
    by a test; the game is not loaded); back at the game's default the saved rule is
    removed. Returns None when it moved, else why not (in words)."""
    limits = LIMITS.get(game, {}).get(key)
    value = game_options(settings, game).get(key)
    if limits is None or not _is_int(value):
        return rule_label(key) + ": no steps"
    new = next_value(key, value, step)
    if not limits[1] <= new <= limits[2]:
        return rule_label(key) + (": highest" if step > 0 else ": lowest")
    settings.set_rule(game, key, None if new == limits[0] else new)
    return None
