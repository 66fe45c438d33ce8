"""The part of firmware.settings that a game in play never needs: the keys' defaults
and ranges, the check of every value (at boot: settings that heal), changing values and
saving them. Imported by firmware.settings only for those (boot, the settings pages,
a new game's player count) and dropped again on the board (firmware.settings, _call):
its code need not sit in the heap through a game. The functions take the Settings
object first; the docstring of firmware.settings says what each does."""

import json

GAMES = ("stack31", "stackdeck", "stress")
NAME_MAX = 10
MAX_PLAYERS = 8

ENOSPC = 28  # the same numbers on MicroPython (littlefs, FAT) and CPython
EROFS = 30
FULL = "flash full: not saved"
READ_ONLY = "flash read-only"
NOT_SAVED = "settings not saved"

# The ints' defaults and ranges, and defaults(): firmware.settings (s.INTS, s.defaults()),
# which reads a file that needs no check without this module.
KEYS = ("players", "names", "brightness", "dim_s", "sleep_s", "buzzer", "rules", "archive_kb")
LABELS = {"players": "Players", "names": "Names", "brightness": "Brightness",
          "dim_s": "Dim time", "sleep_s": "Sleep time", "buzzer": "Buzzer", "rules": "Rules",
          "archive_kb": "Archive"}


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


# --- values ---------------------------------------------------------------------------

def set_value(s, key, value):
    """Store a value (numbers clamped). False when refused."""
    if key in s.INTS:
        if not _is_int(value):
            return False
        lo, hi = s.INTS[key][1], s.INTS[key][2]
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
        names = s.defaults()["names"]
        for i in range(min(len(value), MAX_PLAYERS)):
            names[i] = clean_name(value[i], i + 1)
        value = names
    elif key == "rules":
        if not isinstance(value, dict):
            return False
        value = _clean_rules(value)
    else:
        return False
    if s.data.get(key) != value:
        s.data[key] = value
        _changed(s)
    return True


def _changed(s):
    s.dirty = True
    if s.autosave and not s._loading:
        save(s)


def set_name(s, i, name):
    """Returns the name as stored (cleaned), or None for a bad player number."""
    if not (_is_int(i) and 1 <= i <= MAX_PLAYERS):
        return None
    name = clean_name(name, i)
    if s.data["names"][i - 1] != name:
        s.data["names"][i - 1] = name
        _changed(s)
    return name


def set_rule(s, game, key, value):
    """value None removes the option. False when refused."""
    if game not in GAMES or not _key_ok(key):
        return False
    rules = s.data["rules"]
    opts = rules.get(game, {})
    if value is None:
        if key in opts:
            del opts[key]
            if not opts:
                del rules[game]
            _changed(s)
        return True
    if not (_is_int(value) or _word_ok(value, 16)):
        return False
    if opts.get(key) != value:
        opts[key] = value
        rules[game] = opts
        _changed(s)
    return True


def reset(s):
    s.data = s.defaults()
    _changed(s)


def _clean_rules(value):
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


# --- file -----------------------------------------------------------------------------

def load_file(s):
    """Read the file and heal it; never raises. Returns (and keeps in .report) None
    or a short message; .details has the whole report."""
    s._loading = True
    try:
        s.details = _load(s)
    finally:
        s._loading = False
    s.report = None
    if s.details is not None:
        s.report = s.details["message"]
        if s.autosave:
            save(s, True)  # write the repaired values back (or say why not)
    return s.report


def _read(s):
    """The file's text, or None. A leftover of an interrupted save is cleaned up;
    where it cannot be (a read-only flash) it is ignored, never taken for damage."""
    st = s.storage
    name = s.filename
    try:
        st.recover(name)
    except Exception:  # noqa: BLE001 - read what is there
        if not st.exists(name) and st.exists(name + ".old"):
            # FAT-style commit cut between its renames: .new is whole if .old is there
            text = st.read_text(name + ".new") if st.exists(name + ".new") else None
            return text if text is not None else st.read_text(name + ".old")
    return st.read_text(name)


def _load(s):
    s.data = s.defaults()
    s.dirty = False
    st = s.storage
    try:
        text = _read(s)
        if text is None:
            return None
        obj = json.loads(text)
        if not isinstance(obj, dict):
            raise ValueError("not an object")
    except Exception as e:  # noqa: BLE001 - any damage: defaults, the file kept
        aside = None
        try:
            if st.exists(s.filename):
                aside = st.keep_aside(s.filename)
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
            _load_names(s, v, fixed)
        elif key == "rules":
            _load_rules(s, v, fixed)
        elif key in s.INTS:
            lo, hi = s.INTS[key][1], s.INTS[key][2]
            if _is_int(v) and lo <= v <= hi:
                s.data[key] = v
            else:
                fixed.append(LABELS[key])
        elif isinstance(v, bool):  # buzzer
            s.data[key] = v
        else:
            fixed.append(LABELS[key])
    s.dirty = False
    if fixed:
        return {"message": _fixed_message(fixed), "aside": None, "fixed": fixed}
    return None


def _load_names(s, value, fixed):
    if not isinstance(value, (list, tuple)) or len(value) > MAX_PLAYERS:
        fixed.append(LABELS["names"])
        if not isinstance(value, (list, tuple)):
            return
    names = s.defaults()["names"]
    for i in range(min(len(value), MAX_PLAYERS)):
        names[i] = clean_name(value[i], i + 1)
        if names[i] != value[i] and not (value[i] in ("", None) and is_default_name(names[i], i + 1)):
            fixed.append("Name P%d" % (i + 1))
    s.data["names"] = names


def _load_rules(s, value, fixed):
    if not isinstance(value, dict):
        fixed.append(LABELS["rules"])
        return
    import sys
    from core import errors, games  # noqa: F401 - these stay: the app needs them
    before = set(sys.modules)
    from firmware.settings.rules import RULES, check_rules
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
    s.data["rules"] = rules
    _forget_modules(before)


def save(s, force=False):
    """Write atomically when something changed. True if written. A flash that is
    full or read-only is no error here: False, .problem says why, the values stay
    in RAM for this session (and are written at the next save that works)."""
    if not (s.dirty or force):
        return False
    d = s.data
    obj = {}
    for key in KEYS:
        obj[key] = d[key]
    text = json.dumps(obj)
    writer = None
    try:
        writer = s.storage.atomic(s.filename)
        writer.write(text)
        writer.commit()
    except OSError as e:
        s.problem = save_problem(e)
        if writer is not None and writer._f is not None:
            try:  # no half-written .new left behind when it can be helped
                writer.abort()
            except Exception:  # noqa: BLE001
                pass
        return False
    s.problem = None
    s.dirty = False
    return True


def _fixed_message(fixed):
    """'Hand limit reset' or 'Hand limit +2 reset': the first thing named, the count of
    the rest (each is in details["fixed"])."""
    if len(fixed) == 1:
        return fixed[0] + " reset"
    return "%s +%d reset" % (fixed[0], len(fixed) - 1)
