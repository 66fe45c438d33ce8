"""Settings, saved atomically as a small JSON file through firmware.storage.

    s = Settings(storage)            # file "settings.json"
    report = s.load()                # None, or {"message", "aside", "fixed"}
    s.get("brightness")              # -> 3
    s.set("brightness", 9)           # clamped to 5; returns True (False = refused)
    s.name(1) / s.set_name(1, "Ann") # player names, 1-based
    s.rules("stress")                # -> dict of house-rule options (a copy)
    s.rule("stress", "tie_window_us", 5000)      # one option, with a default
    s.set_rule("stress", "tie_window_us", 3000)  # None as value removes it
    s.save()                         # atomic; does nothing when nothing changed
    s.contrast()                     # brightness as an SSD1306 contrast 0..255

Keys and ranges (KEYS):
    players     int 1..8          default 2
    names       8 names           default P1..P8; printable ASCII without '#',
                                  at most NAME_MAX characters, blank -> default
    brightness  int 1..5          default 3
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
LEVELS = (0, 16, 64, 128, 192, 255)  # brightness level -> contrast

# key: (default, low, high) for the ints
_INTS = {
    "players": (2, 1, MAX_PLAYERS),
    "brightness": (3, 1, 5),
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


class Settings:
    def __init__(self, storage, name="settings.json"):
        self.storage = storage
        self.filename = name
        self.data = defaults()
        self.dirty = False

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
            self.dirty = True
        return True

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
            self.dirty = True
        return name

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
                self.dirty = True
            return True
        if not (_is_int(value) or _word_ok(value, 16)):
            return False
        if opts.get(key) != value:
            opts[key] = value
            rules[game] = opts
            self.dirty = True
        return True

    def contrast(self):
        return LEVELS[self.data["brightness"]]

    def reset(self):
        self.data = defaults()
        self.dirty = True

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
        """Read the file; never raises. Returns None or a report dict."""
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
