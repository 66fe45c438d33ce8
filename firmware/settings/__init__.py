"""The device's settings, here; read at boot (read.py), house rules in words (rules.py),
checked and saved (store.py). Imports core and storage; the app and screens import it.

Settings, saved atomically as a small JSON file through firmware.storage.

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
    s.rules("stress")                # only the options changed from the defaults
    s.rule("stress", "tie_window_us", 5000)      # one option, with a default
    s.set_rule("stress", "tie_window_us", 3000)  # None as value removes it
    s.load() -> report               # read again (never raises)
    s.save()                         # atomic; does nothing when nothing changed; never
                                     # raises for the flash: False and .problem instead
    s.contrast()                     # the SSD1306 contrast, 0..255 (= brightness)

Settings(storage, autosave=False) saves only on save().

Keys and ranges (the ints' in Settings.INTS, the keys in firmware.settings.store.KEYS):
    players     int 1..8          default 2
    names       8 names           default P1..P8; printable ASCII without '#',
                                  at most NAME_MAX characters, blank -> default
    brightness  int 0..255        default 128 (the panel's contrast)
    dim_s       int 0..600        default 180: seconds of inactivity before the screen
                                  dims (0 never)
    sleep_s     int 0..3600       default 600: seconds before it goes off (0 never)
    archive_kb  int 32..1024      default 256: flash for past games (firmware.archive.store)
    buzzer      bool              default True
    rules       {game: {key: int or word}} house rules per game, GAMES only; passed
                to the game as `option KEY VALUE`

Settings that heal: at load every value is checked by its owner. The keys above by
firmware.settings.store; a game's house rules by the game itself (a throwaway game is built with
them, so the game's own option check is the judge: an unknown key, a value of the wrong
type or out of the game's range is refused there). Whatever is refused goes back to its
default, and .report names it ("Hand limit reset"); nothing that was valid is lost. A
file that is not JSON (or not an object) is kept aside as settings.bad1, ... and the
defaults are used. The repaired values are written back, so the message shows once.
Nothing here raises on bad data or on a full or read-only flash.

House rules in words (firmware.settings.rules.RULES): each option a game offers has a
label, a unit and a ladder of steps for the settings screen; rule_text(key, value) -> "20 ms".

Heap on the board: this module is what a game in play needs (reading the values). At
boot, firmware.settings.read takes a file in which every key is known and every value
already valid, with no house rules, as it is (the same values the check would keep).
The rest loads only when it is used and goes again after (the names it interns stay:
never at a normal boot): firmware.settings.store (KEYS, the check and healing of a file
that needs it, changing and saving) and firmware.settings.rules (the
house rules in words, their ladders, the games' own check, and for the settings pages
game_options(s, "stress"): the game's OPTIONS defaults with the house rules, and
step_game_option(s, "stress", "tie_window_us", +1) -> None, or why it cannot).
"""

import sys


def defaults():
    """The values with no file (Settings.INTS' defaults, P1..P8, buzzer on, no house
    rules)."""
    d = {"names": ["P%d" % i for i in range(1, 9)], "buzzer": True, "rules": {}}
    ints = Settings.INTS
    for k in ints:
        d[k] = ints[k][0]
    return d


def _call(module, fn, *args):
    """`fn` of a module loaded for it (firmware.settings.store, settings_read), the
    module dropped again after it on MicroPython unless something had it loaded (the
    settings pages keep the store while they are open: a press there must not load it
    from flash)."""
    had = module in sys.modules
    m = __import__(module, None, None, (fn,))
    try:
        return getattr(m, fn)(*args)
    finally:
        m = None
        if not had and sys.implementation.name == "micropython":
            from firmware.modules import forget_module
            forget_module(module)


class Settings:
    _loading = False
    # The ints: key -> (default, low, high) (firmware.settings.store uses them too)
    INTS = {
        "players": (2, 1, 8),
        "brightness": (128, 0, 255),
        # screen care: dim after 3 minutes, off after 10 (a player thinking at the
        # table must not find the screen dark; a file's own values stay as they are)
        "dim_s": (180, 0, 600),
        "sleep_s": (600, 0, 3600),
        "archive_kb": (256, 32, 1024),  # the archive of past games (firmware/archive/store.py)
    }
    defaults = staticmethod(defaults)

    def __init__(self, storage, name="settings.json", autosave=True, load=True):
        self.storage = storage
        self.filename = name
        self.autosave = autosave
        self.dirty = False
        self.report = None
        self.details = None
        self.problem = None
        self.data = defaults()
        if load:
            # A file that needs no check is read by firmware.settings.read (a normal
            # boot: loaded for it and let go, as the store is); else the store checks
            # and heals it.
            if not _call("firmware.settings.read", "read", self):
                self.load()

    # --- reading: what a game in play needs --------------------------------------
    def get(self, key):
        v = self.data[key]
        if key == "names":
            return list(v)
        if key == "rules":
            # nothing of get() inside the generator: on MicroPython a name it used would
            # be a closure cell, allocated at every call of get (an idle loop reads
            # dim_s and sleep_s at every turn)
            return dict((g, dict(r)) for g, r in v.items())
        return v

    def name(self, i):
        names = self.data["names"]
        if 1 <= i <= len(names):
            return names[i - 1]
        return "P%d" % i

    player_name = name

    def rules(self, game):
        return dict(self.data["rules"].get(game, {}))

    def rule(self, game, key, default=None):
        return self.data["rules"].get(game, {}).get(key, default)

    def contrast(self):
        return self.data["brightness"]

    # --- changing, checking, saving (firmware.settings.store, loaded for it) -------
    def set(self, key, value):
        """Store a value (numbers clamped). False when refused."""
        return _call("firmware.settings.store", "set_value", self, key, value)

    def set_name(self, i, name):
        """Returns the name as stored (cleaned), or None for a bad player number."""
        return _call("firmware.settings.store", "set_name", self, i, name)

    set_player_name = set_name

    def set_rule(self, game, key, value):
        """value None removes the option. False when refused."""
        return _call("firmware.settings.store", "set_rule", self, game, key, value)

    def load(self):
        """Read the file and heal it; never raises. Returns (and keeps in .report) None
        or a short message; .details has the whole report."""
        return _call("firmware.settings.store", "load_file", self)

    def save(self, force=False):
        """Write atomically when something changed. True if written; False and
        .problem on a full or read-only flash (never raises for the flash)."""
        if not (self.dirty or force):
            return False
        return _call("firmware.settings.store", "save", self, force)
