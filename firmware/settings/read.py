"""Settings read at boot without the store (firmware.settings, its docstring): a file
in which every key is known and every value is already what the check would keep, with
no house rules (the games judge those), is taken as it is. Loaded for that and let go
again on a board (a normal boot loads neither this module's code for long nor the
store)."""

import json


def read(s):
    """True when the file needs no check (no leftover of a save; every key known
    and its value as the check keeps it; no house rules, which the games judge) or
    there is none: its values are taken. False: firmware.settings.store reads it."""
    st = s.storage
    name = s.filename
    try:
        if st.exists(name + ".new") or st.exists(name + ".old"):
            return False
        text = st.read_text(name)
        if text is None:
            return True  # no file: the defaults
        obj = json.loads(text)
        if type(obj) is not dict:
            return False  # [] or "" or 7: damage, which the store says and keeps aside
        d = s.data
        for k in obj:
            v = obj[k]
            r = s.INTS.get(k)
            if r is not None:
                if type(v) is not int or not r[1] <= v <= r[2]:
                    return False
            elif k == "buzzer":
                if type(v) is not bool:
                    return False
            elif k == "rules":
                if v != {}:
                    return False
            elif k == "names" and type(v) is list and len(v) <= 8:
                for i in range(len(v)):
                    n = v[i]
                    if type(n) is not str or not 0 < len(n) <= 10 or n != n.strip():
                        return False
                    for c in n.encode():  # (a str's characters would each be a qstr)
                        if not 32 <= c <= 126 or c == 35:  # printable ASCII but '#'
                            return False
                    d[k][i] = n
                continue
            else:
                return False
            d[k] = v
        return True
    except Exception:  # noqa: BLE001 - not JSON, not an object, not text: the check
        return False
