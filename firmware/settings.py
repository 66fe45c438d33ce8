"""Settings, saved atomically as a small JSON file through firmware.storage.

    s = Settings(storage)            # file "settings.json", loaded at once:
    s.report                         # None, or a short message for the screen
    s.details                        # None, or {"message", "aside", "fixed", ...}
    s.get("brightness")              # -> 128
    s.set("brightness", 999)         # clamped to 255; returns True (False = refused);
                                     # saved at once (atomically) when it changed
    s.player_name(1) / s.set_player_name(1, "Ann")   # 1-based (also name/set_name)
    s.game_options("stress")         # the game's OPTIONS defaults with the house rules
    s.step_game_option("stress", "tie_window_us", +1)   # next sensible value
    s.rules("stress")                # only the options changed from the defaults
    s.rule("stress", "tie_window_us", 5000)      # one option, with a default
    s.set_rule("stress", "tie_window_us", 3000)  # None as value removes it
    s.load() -> report               # read again (never raises)
    s.save()                         # atomic; does nothing when nothing changed
    s.contrast()                     # the SSD1306 contrast, 0..255 (= brightness)

Settings(storage, autosave=False) saves only on save().

Keys and ranges (KEYS):
    players     int 1..8          default 2
    names       8 names           default P1..P8; printable ASCII without '#',
                                  at most NAME_MAX characters, blank -> default
    brightness  int 0..255        default 128 (the panel's contrast)
    dim_s       int 0..600        seconds of inactivity before the screen dims (0 never)
    sleep_s     int 0..3600       seconds before it sleeps (0 never)
    buzzer      bool              default True
    rules       {game: {key: int or word}} house rules per game, GAMES only; passed
                to the game as `option KEY VALUE` (the core checks them)

Numbers out of range are clamped; values of the wrong type are refused by set() and
replaced by the default in load() (reported in "fixed"). A file that is not JSON
(or not an object) is kept aside as settings.bad1, ... and the defaults are used.
Nothing here raises on bad data.
"""

import json

GAMES = ("stack31", "stackdeck", "stress")
NAME_MAX = 10
MAX_PLAYERS = 8
# next values for house rules stepped from the settings screen; others step by 1
STEPS = {
    "debounce_us": (0, 2000, 5000, 10000, 15000, 20000, 30000, 50000),
    "tie_window_us": (0, 100, 250, 500, 1000, 2000, 5000, 10000),
    "slow_window_us": (250000, 500000, 1000000, 1500000, 2000000, 3000000, 5000000),
}

# key: (default, low, high) for the ints
_INTS = {
    "players": (2, 1, MAX_PLAYERS),
    "brightness": (128, 0, 255),
    "dim_s": (30, 0, 600),
    "sleep_s": (120, 0, 3600),
}
KEYS = ("players", "names", "brightness", "dim_s", "sleep_s", "buzzer", "rules")


def default_names():
    return ["P%d" % (i + 1) for i in range(MAX_PLAYERS)]


def defaults():
    d = {}
    for k in _INTS:
        d[k] = _INTS[k][0]
    d["names"] = default_names()
    d["buzzer"] = True
    d["rules"] = {}
    return d


def clean_name(name, i):
    """A name as it can be stored for player i (1-based); the default if blank."""
    if not isinstance(name, str):
        return "P%d" % i
    out = ""
    for ch in name:
        if " " <= ch <= "~" and ch != "#":
            out += ch
    out = out.strip()[:NAME_MAX].strip()
    return out or "P%d" % i


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _word_ok(v, limit):
    if not isinstance(v, str) or not 0 < len(v) <= limit:
        return False
    for ch in v:
        if not ("!" <= ch <= "~") or ch == "#":
            return False
    return True


def _key_ok(k):
    if not isinstance(k, str) or not 0 < len(k) <= 24:
        return False
    for ch in k:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            return False
    return True


def _step(steps, value, step):
    """The neighbour of value in steps (a value between steps snaps to one)."""
    i = 0
    while i < len(steps) - 1 and steps[i] < value:
        i += 1
    if steps[i] != value and step > 0 and steps[i] > value:
        step -= 1
    i += step
    return steps[0 if i < 0 else len(steps) - 1 if i >= len(steps) else i]


class Settings:
    def __init__(self, storage, name="settings.json", autosave=True, load=True):
        self.storage = storage
        self.filename = name
        self.autosave = autosave
        self.data = defaults()
        self.dirty = False
        self.report = None
        self.details = None
        if load:
            self.load()

    # --- values ---------------------------------------------------------
    def get(self, key):
        v = self.data[key]
        if key == "names":
            return list(v)
        if key == "rules":
            return self._copy_rules()
        return v

    def set(self, key, value):
        """Store a value (numbers clamped). False when refused."""
        if key in _INTS:
            if not _is_int(value):
                return False
            lo, hi = _INTS[key][1], _INTS[key][2]
            value = lo if value < lo else hi if value > hi else value
        elif key == "buzzer":
            if not isinstance(value, bool):
                if value in (0, 1):
                    value = bool(value)
                else:
                    return False
        elif key == "names":
            if not isinstance(value, (list, tuple)):
                return False
            names = default_names()
            for i in range(min(len(value), MAX_PLAYERS)):
                names[i] = clean_name(value[i], i + 1)
            value = names
        elif key == "rules":
            if not isinstance(value, dict):
                return False
            value = self._clean_rules(value)
        else:
            return False
        if self.data.get(key) != value:
            self.data[key] = value
            self._changed()
        return True

    def _changed(self):
        self.dirty = True
        if self.autosave and not self._loading:
            self.save()

    _loading = False

    def name(self, i):
        if 1 <= i <= MAX_PLAYERS:
            return self.data["names"][i - 1]
        return "P%d" % i

    def set_name(self, i, name):
        """Returns the name as stored (cleaned), or None for a bad player number."""
        if not (_is_int(i) and 1 <= i <= MAX_PLAYERS):
            return None
        name = clean_name(name, i)
        if self.data["names"][i - 1] != name:
            self.data["names"][i - 1] = name
            self._changed()
        return name

    def player_name(self, i):
        return self.name(i)

    def set_player_name(self, i, name):
        return self.set_name(i, name)

    def rules(self, game):
        return dict(self.data["rules"].get(game, {}))

    def rule(self, game, key, default=None):
        return self.data["rules"].get(game, {}).get(key, default)

    def set_rule(self, game, key, value):
        """value None removes the option. False when refused."""
        if game not in GAMES or not _key_ok(key):
            return False
        rules = self.data["rules"]
        opts = rules.get(game, {})
        if value is None:
            if key in opts:
                del opts[key]
                if not opts:
                    del rules[game]
                self._changed()
            return True
        if not (_is_int(value) or _word_ok(value, 16)):
            return False
        if opts.get(key) != value:
            opts[key] = value
            rules[game] = opts
            self._changed()
        return True

    def game_options(self, game):
        """The game's options: its defaults (core's OPTIONS) with the house rules."""
        out = {}
        try:
            from core.games import game_class
            defaults_ = game_class(game).OPTIONS
            for k in defaults_:
                out[k] = defaults_[k]
        except Exception:  # a game left out of this build: the saved rules only
            pass
        saved = self.data["rules"].get(game, {})
        for k in saved:
            out[k] = saved[k]
        return out

    def step_game_option(self, game, key, step):
        """Move a numeric house rule to its next value (step +1 or -1); back at the
        game's default the saved rule is removed. False when it cannot step."""
        opts = self.game_options(game)
        value = opts.get(key)
        if not _is_int(value):
            return False
        steps = STEPS.get(key)
        if steps is not None:
            new = _step(steps, value, step)
        else:
            new = value + step
            if new < 0:
                new = 0
        try:
            from core.games import game_class
            default = game_class(game).OPTIONS.get(key)
        except Exception:
            default = None
        return self.set_rule(game, key, None if new == default else new)

    def contrast(self):
        return self.data["brightness"]

    def reset(self):
        self.data = defaults()
        self._changed()

    def _copy_rules(self):
        out = {}
        for g in self.data["rules"]:
            out[g] = dict(self.data["rules"][g])
        return out

    def _clean_rules(self, value):
        out = {}
        for g in value:
            opts = value[g]
            if g not in GAMES or not isinstance(opts, dict):
                continue
            keep = {}
            for k in opts:
                v = opts[k]
                if _key_ok(k) and (_is_int(v) or _word_ok(v, 16)):
                    keep[k] = v
            if keep:
                out[g] = keep
        return out

    # --- file -----------------------------------------------------------
    def load(self):
        """Read the file; never raises. Returns (and keeps in .report) None or a short
        message; .details has the whole report."""
        self._loading = True
        try:
            self.details = self._load()
        finally:
            self._loading = False
        self.report = None
        if self.details is not None:
            self.report = self.details["message"]
            if self.details["fixed"] and self.autosave:
                try:  # write the repaired values back
                    self.save(True)
                except OSError:
                    pass
        return self.report

    def _load(self):
        self.data = defaults()
        self.dirty = False
        st = self.storage
        try:
            st.recover(self.filename)
            text = st.read_text(self.filename)
            if text is None:
                return None
            obj = json.loads(text)
            if not isinstance(obj, dict):
                raise ValueError("not an object")
        except Exception as e:
            aside = None
            try:
                if st.exists(self.filename):
                    aside = st.keep_aside(self.filename)
            except Exception:
                pass
            return {"message": "Settings reset", "aside": aside, "fixed": [], "error": repr(e)}
        fixed = []
        for key in KEYS:
            if key not in obj:
                continue
            v = obj[key]
            if not self.set(key, v) or self.data[key] != v:
                fixed.append(key)
        self.dirty = False
        if fixed:
            return {"message": "Settings fixed", "aside": None, "fixed": fixed}
        return None

    def save(self, force=False):
        """Write atomically when something changed. Returns True if written."""
        if not (self.dirty or force):
            return False
        d = self.data
        obj = {}
        for key in KEYS:
            obj[key] = d[key]
        self.storage.write_atomic(self.filename, json.dumps(obj))
        self.dirty = False
        return True
