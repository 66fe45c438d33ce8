"""Files on flash: a tiny layer over os, here; atomic writes and recovery (atomic.py).
Imports nothing of the project; the journal, settings and archive import it.

A tiny file layer over os/open, the same on MicroPython and CPython.

    st = Storage(root)            # '/' on the device, a temp folder on the computer
    st.read_bytes(name)  -> bytes, or None when missing
    st.read_text(name)   -> str, or None when missing (ValueError if not UTF-8)
    st.open_read(name)   -> binary file object to read line by line, or None
    st.append(name, data)         # one write, closed (flushed) and synced; data may
                                  # also be an iterable of parts, in one open file
    st.write_atomic(name, data)   # name.new, then rename over name
    w = st.atomic(name); w.write(..); w.commit()   # the same, streamed
    st.exists(name) st.size(name) (0 when missing) st.remove(name) st.rename(a, b) st.listdir()
    st.keep_aside(name) -> 'journal.bad1'  (renames a damaged file out of the way)
    st.copy_aside(name) -> 'journal.bad1'  (the same, but the file stays: a copy)
    st.read_at(name, offset, n) -> bytes   (n bytes or fewer at the end)
    st.patch(name, edits, tail=None)       # several overwrites [(offset, data)] then an
                                           # append, in ONE open 'r+b' ... close: littlefs
                                           # commits it all or nothing
    st.free() -> bytes free (os.statvfs), or None where unknown; st.block_size()
    st.recover(name=None) -> [messages]  finishes or rolls back an interrupted
                                         atomic write (call once at start)

Names are plain file names inside root (no folders). Data may be str (written as
UTF-8) or bytes.

Atomic write: write `name.new` completely, close, then rename it over `name`
(LittleFS and POSIX replace in one step). Where rename cannot replace (FAT), `name` is
first renamed to `name.old`, then `name.new` to `name`, then `name.old` removed.
The commit point is the moment `name` is replaced, or `name.old` appears. So at start:
    `name.new` without `name.old`  -> not committed: removed, `name` stays as it was
    `name.new` with `name.old`     -> committed: `name.new` becomes `name`
    `name.old` with `name`         -> leftover: removed
    `name.old` alone               -> put back as `name`

The file system is a seam: `fs` is any object with open(path, mode), rename, remove,
stat, listdir, mkdir and sync (host_sim/flakyfs.py cuts the power in it).

The rare paths (atomic writes, recover, keep_aside, copy_aside) are in
firmware.storage.atomic, loaded when needed and let go after on a board.
"""

import os
import sys

from firmware.modules import forget_module


def _rare(fn):
    """firmware.storage.atomic's `fn`, the module let go again on a board unless
    something had it loaded."""
    had = "firmware.storage.atomic" in sys.modules
    from firmware.storage import atomic as storage_atomic
    f = getattr(storage_atomic, fn)
    if not had and sys.implementation.name == "micropython":
        forget_module("firmware.storage.atomic")
    return f


class OsFS:
    """The real file system (MicroPython or CPython): os's own functions (no method
    of ours each, less code in the heap)."""

    open = staticmethod(open)
    rename = staticmethod(os.rename)
    remove = staticmethod(os.remove)
    stat = staticmethod(os.stat)
    listdir = staticmethod(os.listdir)
    mkdir = staticmethod(os.mkdir)

    def sync(self):
        if hasattr(os, "sync"):
            os.sync()

    def statvfs(self, path):
        return os.statvfs(path)


class Storage:
    def __init__(self, root="/", fs=None):
        self.fs = fs if fs is not None else OsFS()
        root = root.rstrip("/")
        self.root = root
        if root:
            try:
                self.fs.stat(root)
            except OSError:
                self.fs.mkdir(root)

    def path(self, name):
        return self.root + "/" + name

    def exists(self, name):
        try:
            self.fs.stat(self.path(name))
            return True
        except OSError:
            return False

    def size(self, name):
        """Bytes in the file; 0 when there is none."""
        try:
            return self.fs.stat(self.path(name))[6]
        except OSError:
            return 0

    def open_read(self, name):
        try:
            return self.fs.open(self.path(name), "rb")
        except OSError:
            return None

    def read_bytes(self, name):
        f = self.open_read(name)
        if f is None:
            return None
        try:
            return f.read()
        finally:
            f.close()

    def read_text(self, name):
        data = self.read_bytes(name)
        return None if data is None else data.decode("utf-8")

    def append(self, name, data):
        f = self.fs.open(self.path(name), "ab")
        try:
            # str as UTF-8; bytes-like as it is (a memoryview of the hold buffer is
            # written without a copy); anything else is parts (bytes-like), written
            # one after the other in this one open file (littlefs commits at close)
            if isinstance(data, str):
                f.write(data.encode("utf-8"))
            elif isinstance(data, (bytes, bytearray, memoryview)):
                f.write(data)
            else:
                for part in data:
                    f.write(part)
        finally:
            f.close()
        self.fs.sync()

    def read_at(self, name, offset, n):
        f = self.fs.open(self.path(name), "rb")
        try:
            f.seek(offset)
            return f.read(n)
        finally:
            f.close()

    def patch(self, name, edits, tail=None):
        f = self.fs.open(self.path(name), "r+b")
        try:
            for offset, data in edits:
                f.seek(offset)
                f.write(data)
            if tail:
                f.seek(0, 2)
                f.write(tail.encode("utf-8") if isinstance(tail, str) else tail)
        finally:
            f.close()
        self.fs.sync()

    def free(self):
        """Bytes free on the file system (blocks free x block size), None if unknown."""
        fn = getattr(self.fs, "statvfs", None)
        if fn is None:
            return None
        try:
            s = fn(self.root or "/")
        except (OSError, AttributeError):
            return None
        self._bs = s[1] or s[0]
        return s[4] * self._bs

    _bs = 0  # the block size, once known: it never changes, and on littlefs every
    # statvfs walks the whole file system (a journal write asked for it twice)

    def block_size(self):
        if not self._bs:
            self.free()  # knows it from then on, where it can be known
        return self._bs or 4096

    # The rare paths (firmware.storage.atomic) ----------------------------------------

    def atomic(self, name):
        return _rare("AtomicWriter")(self, name)

    def write_atomic(self, name, data):
        w = self.atomic(name)
        w.write(data)
        w.commit()

    def copy_aside(self, name, limit=99):
        """Copy a damaged file to base.badN (first free N); the file stays."""
        return _rare("copy_aside")(self, name, limit)

    def keep_aside(self, name, limit=99):
        """Rename a damaged file to base.badN (first free N; the last one is reused)."""
        return _rare("keep_aside")(self, name, limit)

    def recover(self, name=None):
        """Finish or roll back interrupted atomic writes; returns what was done. Only a
        leftover (name.new, name.old) loads the rare module: a normal boot does not."""
        if name is None:
            left = [n for n in self.listdir() if n[-4:] in (".new", ".old")]
        else:
            left = self.exists(name + ".new") or self.exists(name + ".old")
        return _rare("recover")(self, name) if left else []

    def remove(self, name):
        """True when a file was removed, False when there was none."""
        if not self.exists(name):
            return False
        self.fs.remove(self.path(name))
        return True

    def rename(self, a, b):
        self.fs.rename(self.path(a), self.path(b))

    def listdir(self):
        try:
            return sorted(self.fs.listdir(self.root or "/"))
        except OSError:
            return []
