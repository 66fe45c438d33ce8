"""Settings, saved atomically as a small JSON file through firmware.storage.

    s = Settings(storage)            # file "settings.json", loaded (and healed) at once:
    s.report                         # None, or a short message for the screen, naming
                                     # what was put back to its default
    s.details                        # None, or {"message", "aside", "fixed", ...}
    s.get("brightness")              # -> 128
    s.set("brightness", 999)         # clamped to 255; returns True (False = refused);
                                     # saved at once (atomically) when it changed
    s.problem                        # None, or why the last save failed
                                     # ("flash full: not saved", "flash read-only")
    s.player_name(1) / s.set_player_name(1, "Ann")   # 1-based (also name/set_name)
    s.game_options("stress")         # the game's OPTIONS defaults with the house rules
    s.step_game_option("stress", "tie_window_us", +1)   # -> None, or why it cannot
    s.rules("stress")                # only the options changed from the defaults
    s.rule("stress", "tie_window_us", 5000)      # one option, with a default
    s.set_rule("stress", "tie_window_us", 3000)  # None as value removes it
    s.load() -> report               # read again (never raises)
    s.save()                         # atomic; does nothing when nothing changed; never
                                     # raises for the flash: False and .problem instead
    s.contrast()                     # the SSD1306 contrast, 0..255 (= brightness)

Settings(storage, autosave=False) saves only on save().

Keys and ranges (KEYS):
    players     int 1..8          default 2
    names       8 names           default P1..P8; printable ASCII without '#',
                                  at most NAME_MAX characters, blank -> default
    brightness  int 0..255        default 128 (the panel's contrast)
    dim_s       int 0..600        seconds of inactivity before the screen dims (0 never)
    sleep_s     int 0..3600       seconds before it sleeps (0 never)
    archive_kb  int 32..1024      default 256: flash for past games (firmware.archive)
    buzzer      bool              default True
    rules       {game: {key: int or word}} house rules per game, GAMES only; passed
                to the game as `option KEY VALUE`

Settings that heal: at load every value is checked by its owner. The keys above by
this module; a game's house rules by the game itself (a throwaway game is built with
them, so the game's own option check is the judge: an unknown key, a value of the wrong
type or out of the game's range is refused there). Whatever is refused goes back to its
default, and .report names it ("Hand limit reset"); nothing that was valid is lost. A
file that is not JSON (or not an object) is kept aside as settings.bad1, ... and the
defaults are used. The repaired values are written back, so the message shows once.
Nothing here raises on bad data or on a full or read-only flash.

House rules in words (RULES): each option a game offers has a label, a unit and a
ladder of steps for the settings screen; rule_text(key, value) -> "20 ms".
"""

import json

GAMES = ("stack31", "stackdeck", "stress")
NAME_MAX = 10
MAX_PLAYERS = 8

ENOSPC = 28  # the same numbers on MicroPython (littlefs, FAT) and CPython
EROFS = 30
FULL = "flash full: not saved"
READ_ONLY = "flash read-only"
NOT_SAVED = "settings not saved"

# key: (default, low, high) for the ints
_INTS = {
    "players": (2, 1, MAX_PLAYERS),
    "brightness": (128, 0, 255),
    "dim_s": (30, 0, 600),
    "sleep_s": (120, 0, 3600),
    "archive_kb": (256, 32, 1024),  # the archive of past games (firmware/archive.py)
}
KEYS = ("players", "names", "brightness", "dim_s", "sleep_s", "buzzer", "rules", "archive_kb")
LABELS = {"players": "Players", "names": "Names", "brightness": "Brightness",
          "dim_s": "Dim time", "sleep_s": "Sleep time", "buzzer": "Buzzer", "rules": "Rules",
          "archive_kb": "Archive"}


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


def is_default_name(name, i):
    return name == "P%d" % i


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


def _printable(word, limit=12):
    """A key from the file as it can be named on the screen."""
    out = ""
    for ch in str(word)[:limit]:
        out += ch if " " <= ch <= "~" else "?"
    return out


def save_problem(error):
    """The words for a failed flash write."""
    code = error.args[0] if error.args else None
    if code == ENOSPC:
        return FULL
    if code == EROFS:
        return READ_ONLY
    return NOT_SAVED


def _game_class(game):
    """The game's class, or None when this build has no such game."""
    from core.errors import IllegalAction
    from core.games import game_class
    try:
        return game_class(game)
    except IllegalAction:
        return None


# The house rules in words and their check live in firmware.settings_rules, imported
# only by the settings pages and by a load that finds house rules; their names are
# still found here.
_RULES_NAMES = ("RULES", "rule_label", "rule_text", "rule_row", "next_value", "check_rules")


def __getattr__(name):
    if name in _RULES_NAMES:
        from firmware import settings_rules
        return getattr(settings_rules, name)
    raise AttributeError(name)


def _forget_modules(before):
    """Drop the modules imported since `before` (a game checked at boot need not stay in
    the heap: only the game being played should)."""
    import sys
    micro = sys.implementation.name == "micropython"
    for name in list(sys.modules):
        if name in before or not (name.startswith("core.") or micro and name.startswith("firmware.")):
            continue
        try:
            module = sys.modules.pop(name)
            dot = name.rfind(".")
            parent = sys.modules.get(name[:dot]) if dot > 0 else None
            if parent is not None and getattr(parent, name[dot + 1:], None) is module:
                delattr(parent, name[dot + 1:])
        except Exception:  # noqa: BLE001
            pass


class Settings:
    def __init__(self, storage, name="settings.json", autosave=True, load=True):
        self.storage = storage
        self.filename = name
        self.autosave = autosave
        self.data = defaults()
        self.dirty = False
        self.report = None
        self.details = None
        self.problem = None
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
        cls = _game_class(game)
        if cls is not None:
            for k in cls.OPTIONS:
                out[k] = cls.OPTIONS[k]
        saved = self.data["rules"].get(game, {})
        for k in saved:
            out[k] = saved[k]
        return out

    def step_game_option(self, game, key, step):
        """Move a numeric house rule to its next value on its ladder (step +1 or -1),
        as far as the game accepts; back at the game's default the saved rule is
        removed. Returns None when it moved, else why not (in words)."""
        from firmware.settings_rules import step_game_option
        return step_game_option(self, game, key, step)

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
        """Only what is well-formed (game known here, key and value of the right shape);
        the games judge the values themselves in load()."""
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
        """Read the file and heal it; never raises. Returns (and keeps in .report) None
        or a short message; .details has the whole report."""
        self._loading = True
        try:
            self.details = self._load()
        finally:
            self._loading = False
        self.report = None
        if self.details is not None:
            self.report = self.details["message"]
            if self.autosave:
                self.save(True)  # write the repaired values back (or say why not)
        return self.report

    def _read(self):
        """The file's text, or None. A leftover of an interrupted save is cleaned up;
        where it cannot be (a read-only flash) it is ignored, never taken for damage."""
        st = self.storage
        name = self.filename
        try:
            st.recover(name)
        except Exception:  # noqa: BLE001 - read what is there
            if not st.exists(name) and st.exists(name + ".old"):
                # FAT-style commit cut between its renames: .new is whole if .old is there
                text = st.read_text(name + ".new") if st.exists(name + ".new") else None
                return text if text is not None else st.read_text(name + ".old")
        return st.read_text(name)

    def _load(self):
        self.data = defaults()
        self.dirty = False
        st = self.storage
        try:
            text = self._read()
            if text is None:
                return None
            obj = json.loads(text)
            if not isinstance(obj, dict):
                raise ValueError("not an object")
        except Exception as e:  # noqa: BLE001 - any damage: defaults, the file kept
            aside = None
            try:
                if st.exists(self.filename):
                    aside = st.keep_aside(self.filename)
            except Exception:  # noqa: BLE001
                pass
            return {"message": "Settings file damaged: reset", "aside": aside, "fixed": [],
                    "error": repr(e)}
        fixed = []  # words for what went back to its default
        for key in obj:
            if key not in KEYS:
                fixed.append(_printable(key))
        for key in KEYS:
            if key not in obj:
                continue
            v = obj[key]
            if key == "names":
                self._load_names(v, fixed)
            elif key == "rules":
                self._load_rules(v, fixed)
            elif key in _INTS:
                lo, hi = _INTS[key][1], _INTS[key][2]
                if _is_int(v) and lo <= v <= hi:
                    self.data[key] = v
                else:
                    fixed.append(LABELS[key])
            elif isinstance(v, bool):  # buzzer
                self.data[key] = v
            else:
                fixed.append(LABELS[key])
        self.dirty = False
        if fixed:
            return {"message": _fixed_message(fixed), "aside": None, "fixed": fixed}
        return None

    def _load_names(self, value, fixed):
        if not isinstance(value, (list, tuple)) or len(value) > MAX_PLAYERS:
            fixed.append(LABELS["names"])
            if not isinstance(value, (list, tuple)):
                return
        names = default_names()
        for i in range(min(len(value), MAX_PLAYERS)):
            names[i] = clean_name(value[i], i + 1)
            if names[i] != value[i] and not (value[i] in ("", None) and is_default_name(names[i], i + 1)):
                fixed.append("Name P%d" % (i + 1))
        self.data["names"] = names

    def _load_rules(self, value, fixed):
        if not isinstance(value, dict):
            fixed.append(LABELS["rules"])
            return
        import sys
        from core import errors, games  # noqa: F401 - these stay: the app needs them
        before = set(sys.modules)
        from firmware.settings_rules import RULES, check_rules
        rules = {}
        for g in value:
            opts = value[g]
            if g not in GAMES or not isinstance(opts, dict):
                fixed.append(_printable(g) + " rules")
                continue
            shaped = {}
            for k in opts:
                if _key_ok(k) and (_is_int(opts[k]) or _word_ok(opts[k], 16)):
                    shaped[k] = opts[k]
                else:
                    fixed.append(_printable(k))
            kept, refused = check_rules(g, shaped)
            for k in refused:  # in words when known, else as the file spells it
                fixed.append(RULES[k][0] if k in RULES else k)
            if kept:
                rules[g] = kept
        self.data["rules"] = rules
        _forget_modules(before)

    def save(self, force=False):
        """Write atomically when something changed. True if written. A flash that is
        full or read-only is no error here: False, .problem says why, the values stay
        in RAM for this session (and are written at the next save that works)."""
        if not (self.dirty or force):
            return False
        d = self.data
        obj = {}
        for key in KEYS:
            obj[key] = d[key]
        text = json.dumps(obj)
        writer = None
        try:
            writer = self.storage.atomic(self.filename)
            writer.write(text)
            writer.commit()
        except OSError as e:
            self.problem = save_problem(e)
            if writer is not None and writer._f is not None:
                try:  # no half-written .new left behind when it can be helped
                    writer.abort()
                except Exception:  # noqa: BLE001
                    pass
            return False
        self.problem = None
        self.dirty = False
        return True


def _fixed_message(fixed):
    """'Hand limit reset' or 'Hand limit +2 reset': the first thing named, the count of
    the rest (each is in details["fixed"])."""
    if len(fixed) == 1:
        return fixed[0] + " reset"
    return "%s +%d reset" % (fixed[0], len(fixed) - 1)
