"""The rare paths of firmware.storage (its docstring says what they do): atomic writes
(a new game, settings, the archive) and their recovery at start, and damaged files
kept aside. Loaded when needed and let go after on a board, so none of it stays in
the heap while a game is played.
"""


class AtomicWriter:
    def __init__(self, storage, name):
        self._st = storage
        self.name = name
        st = storage
        recover(st, name)  # leftovers would make the commit point ambiguous
        self._f = st.fs.open(st.path(name + ".new"), "wb")

    def write(self, data):
        # bytes-like as it is (a view of the hold buffer: no copy)
        self._f.write(data.encode("utf-8") if isinstance(data, str) else data)

    def commit(self):
        st = self._st
        fs = st.fs
        self._f.close()
        self._f = None
        fs.sync()
        new, target = st.path(self.name + ".new"), st.path(self.name)
        try:
            fs.rename(new, target)
        except OSError:
            if not st.exists(self.name):
                raise
            old = st.path(self.name + ".old")
            fs.rename(target, old)
            fs.rename(new, target)
            fs.remove(old)
        fs.sync()

    def abort(self):
        if self._f is not None:
            self._f.close()
            self._f = None
        self._st.remove(self.name + ".new")


def copy_aside(st, name, limit=99):
    """Copy a damaged file to base.badN (first free N); the file stays. Streams
    in small chunks (no big buffer)."""
    aside = _aside_name(st, name, limit)
    src = st.fs.open(st.path(name), "rb")
    try:
        dst = st.fs.open(st.path(aside), "wb")
        try:
            while True:
                chunk = src.read(512)
                if not chunk:
                    break
                dst.write(chunk)
        finally:
            dst.close()
    finally:
        src.close()
    st.fs.sync()
    return aside


def _aside_name(st, name, limit):
    dot = name.rfind(".")
    base = name[:dot] if dot > 0 else name
    for n in range(1, limit + 1):
        aside = base + ".bad" + str(n)
        if not st.exists(aside):
            break
    else:
        st.fs.remove(st.path(aside))
    return aside


def keep_aside(st, name, limit=99):
    """Rename a damaged file to base.badN (first free N; the last one is reused)."""
    aside = _aside_name(st, name, limit)
    st.rename(name, aside)
    return aside


def recover(st, name=None):
    """Finish or roll back interrupted atomic writes; returns what was done."""
    if name is None:
        names = []
        for n in st.listdir():
            if n.endswith(".new") or n.endswith(".old"):
                if n[:-4] not in names:
                    names.append(n[:-4])
    else:
        names = [name]
    done = []
    for n in names:
        has_new = st.exists(n + ".new")
        has_old = st.exists(n + ".old")
        has = st.exists(n)
        if has_new and has_old:
            if has:
                st.remove(n + ".new")
                st.remove(n + ".old")
                done.append(n + ": dropped unfinished write")
            else:
                st.rename(n + ".new", n)
                st.remove(n + ".old")
                done.append(n + ": finished write")
        elif has_new:
            st.remove(n + ".new")
            done.append(n + ": dropped unfinished write")
        elif has_old:
            if has:
                st.remove(n + ".old")
            else:
                st.rename(n + ".old", n)
                done.append(n + ": restored")
    if done:
        st.fs.sync()
    return done
