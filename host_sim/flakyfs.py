"""A file system that loses power: the seam for firmware.storage.Storage(fs=...).

    fs = FlakyFS(cut_at=7)          # the 7th write operation is the last one
    st = Storage(tmpdir, fs)
    ... raises PowerCut at that operation ...
    Storage(tmpdir)                  # "power back": the files hold exactly what
                                     # was written before the cut

Write operations, counted in `fs.writes`: opening a file for writing (creates or
truncates it), each file write(), rename and remove. At operation number `cut_at`:
a write() puts only its first `torn(len(data))` bytes on disk (default: half) and
raises PowerCut; any other operation is not done and raises PowerCut. After the cut,
every operation raises PowerCut (the device is off). Reads are never counted.

PowerCut derives from BaseException so that no `except Exception` in the firmware
can swallow it, just as firmware cannot catch a real power cut.

`rename_replaces=False` makes rename refuse an existing target, like FAT.

A full or read-only flash (raised as OSError, which firmware must handle):
    FlakyFS(capacity=20000)   # bytes of the folder's files; a write past it puts what
                              # fits and raises OSError(ENOSPC); statvfs() reports the
                              # free bytes in BLOCK-byte blocks
    FlakyFS(enospc_at=5)      # the 5th write operation fails with ENOSPC (a write()
                              # puts torn(len) bytes first); later ones work again
    FlakyFS(readonly=True)    # every write operation raises OSError(EROFS)
`fs.readonly` and `fs.capacity` may be changed at any time (space comes back).
"""

import errno
import os


class PowerCut(BaseException):
    pass


def half(n):
    return n // 2


class FlakyFile:
    def __init__(self, fs, f, writing):
        self._fs = fs
        self._f = f
        self._writing = writing

    def write(self, data):
        fs = self._fs
        if fs.readonly:
            raise OSError(errno.EROFS, "read-only file system")
        if fs._enospc():
            fs._op()
            n = fs.torn(len(data))
            self._f.write(bytes(data[:n]))
            self._f.flush()
            raise OSError(errno.ENOSPC, "no space (injected)")
        room = fs._room(self._f, len(data))
        if room < len(data):
            fs._op()
            self._f.write(bytes(data[:room]))
            self._f.flush()
            raise OSError(errno.ENOSPC, "no space")
        if fs._op():
            n = fs.torn(len(data))
            self._f.write(bytes(data[:n]))
            self._f.flush()
            self._f.close()
            raise PowerCut("power cut in write #%d (%d of %d bytes)" % (fs.writes, n, len(data)))
        n = self._f.write(data)
        self._f.flush()
        return n

    def read(self, *a):
        self._fs._alive()
        return self._f.read(*a)

    def readline(self, *a):
        self._fs._alive()
        return self._f.readline(*a)

    def __iter__(self):
        return iter(self.readline, b"")

    def seek(self, *a):
        self._fs._alive()
        return self._f.seek(*a)

    def tell(self):
        return self._f.tell()

    def flush(self):
        self._fs._alive()
        self._f.flush()

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FlakyFS:
    BLOCK = 512

    def __init__(self, cut_at=None, torn=half, rename_replaces=True, capacity=None,
                 enospc_at=None, readonly=False):
        self.cut_at = cut_at
        self.torn = torn
        self.rename_replaces = rename_replaces
        self.capacity = capacity
        self.enospc_at = enospc_at
        self.readonly = readonly
        self.dirs = set()  # folders of the files opened (for the capacity)
        self.writes = 0
        self.dead = False
        self.log = []  # (op, path) for every counted operation

    def _alive(self):
        if self.dead:
            raise PowerCut("the power is off")

    def _op(self, what="write", path=None):
        """Count one write operation; True when the power goes at this one."""
        self._alive()
        self.writes += 1
        self.log.append((what, path))
        if self.cut_at is not None and self.writes >= self.cut_at:
            self.dead = True
            return True
        return False

    def _enospc(self):
        return self.enospc_at is not None and self.writes + 1 == self.enospc_at

    def _used(self):
        used = 0
        for d in self.dirs:
            try:
                for name in os.listdir(d):
                    p = os.path.join(d, name)
                    if os.path.isfile(p):
                        used += os.path.getsize(p)
            except OSError:
                pass
        return used

    def _room(self, f, n):
        """How many of n bytes written at f's position fit."""
        if self.capacity is None:
            return n
        pos = f.tell()
        size = os.fstat(f.fileno()).st_size
        grow = max(0, pos + n - size)
        free = self.capacity - self._used()
        if grow <= free:
            return n
        return max(0, n - (grow - max(0, free)))

    def statvfs(self, path):
        self._alive()
        self.dirs.add(path)
        b = self.BLOCK
        if self.capacity is None:
            total = free = 1 << 20
        else:
            total = self.capacity // b
            free = max(0, self.capacity - self._used()) // b
        return (b, b, total, free, free, 0, 0, 0, 0, 255)

    def open(self, path, mode):
        self._alive()
        writing = "w" in mode or "a" in mode or "+" in mode
        self.dirs.add(os.path.dirname(path) or ".")
        if writing and self.readonly:
            raise OSError(errno.EROFS, "read-only file system")
        if writing and self._enospc():
            self._op("open " + mode, path)
            raise OSError(errno.ENOSPC, "no space (injected)")
        if writing and self._op("open " + mode, path):
            raise PowerCut("power cut opening %s" % path)
        f = open(path, mode.replace("b", "") + "b", buffering=0 if writing else -1)
        return FlakyFile(self, f, writing)

    def rename(self, a, b):
        self._alive()
        if self.readonly:
            raise OSError(errno.EROFS, "read-only file system")
        if self._enospc():
            self._op("rename", a)
            raise OSError(errno.ENOSPC, "no space (injected)")
        if not self.rename_replaces and os.path.exists(b):
            raise OSError(errno.EEXIST, "exists")
        if self._op("rename", a + " -> " + b):
            raise PowerCut("power cut renaming %s" % a)
        os.rename(a, b)

    def remove(self, path):
        self._alive()
        if self.readonly:
            raise OSError(errno.EROFS, "read-only file system")
        if not os.path.exists(path):
            raise OSError(errno.ENOENT, "no such file")
        if self._enospc():
            self._op("remove", path)
            raise OSError(errno.ENOSPC, "no space (injected)")
        if self._op("remove", path):
            raise PowerCut("power cut removing %s" % path)
        os.remove(path)

    def stat(self, path):
        self._alive()
        return os.stat(path)

    def listdir(self, path):
        self._alive()
        return os.listdir(path)

    def mkdir(self, path):
        self._alive()
        os.mkdir(path)

    def sync(self):
        self._alive()
