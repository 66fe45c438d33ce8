// Node side of the virtual board (see host_sim/virtual_board.py, which starts this
// program and connects it to a pseudo-terminal). Not meant to be run by hand.
//
// A real MicroPython interpreter (the WebAssembly port pinned in package.json) made to
// answer on a serial line as a board does:
//   - the friendly and the raw REPL are the interpreter's own (replProcessChar);
//   - raw-paste mode (Ctrl-E A Ctrl-A) is answered here: that build cannot read stdin
//     while it runs, so its own raw-paste hangs; the collected code then goes through
//     the interpreter's raw REPL;
//   - Ctrl-D soft reset and machine.reset() start a fresh interpreter with the same
//     files, print the soft-reboot line and run boot.py (and main.py, outside the raw
//     REPL) as a board does;
//   - the board's file system is a host folder (--flash): read in at every (re)start,
//     every change written through at once, so files survive resets and restarts and
//     the host sees what running code writes;
//   - file-system errors carry MicroPython's errno numbers (ENOENT 2, EEXIST 17,
//     ENOSPC 28, ...) instead of Emscripten's (44, 20, 51, ...);
//   - the root looks like a board's flash (only the board's files; no /tmp, /dev);
//   - os.uname() and the REPL banner name the board ("Virtual Pico with RP2040");
//     host_sim/machine.py (--machine) is the board's built-in `machine` module;
//   - with --vdevice DIR (and --vdevice-py FILE, host_sim/vdevice.py): at every boot,
//     before boot.py and main.py, the board's devices are installed (a panel on the
//     I2C bus at 0x3C whose frames go to DIR/frame.pbm, a player of the button
//     presses scripted in DIR/input.txt; see host_sim/vdevice.py). Without the option
//     the board has no devices (and the host folder gets nothing).
//
// I/O: bytes from the serial line on fd 0, bytes to it on fd 1. On --ctrl-fd N (a control
// pipe to the Python side): "S" once the interpreter is up, "A" for every Ctrl-C read
// (the Python side restarts this process when a Ctrl-C is not acknowledged: running
// code cannot be interrupted otherwise).
//
// Options: --flash DIR  --ctrl-fd N  --machine FILE  --flash-size BYTES  --start boot|interrupted
//          --vdevice DIR --vdevice-py FILE
//          --report-version X.Y.Z (pretend to be another MicroPython release, for tests)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- options
const opts = { flash: null, machine: null, vdevice: null, vdevicePy: null, flashSize: 1408 * 1024, start: "boot", reportVersion: null, name: "Virtual Pico with RP2040" };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i], v = process.argv[i + 1];
  if (a === "--flash") { opts.flash = v; i++; }
  else if (a === "--machine") { opts.machine = v; i++; }
  else if (a === "--vdevice") { opts.vdevice = v; i++; }
  else if (a === "--vdevice-py") { opts.vdevicePy = v; i++; }
  else if (a === "--flash-size") { opts.flashSize = parseInt(v, 10); i++; }
  else if (a === "--start") { opts.start = v; i++; }
  else if (a === "--report-version") { opts.reportVersion = v; i++; }
  else if (a === "--name") { opts.name = v; i++; }
  else if (a === "--ctrl-fd") { opts.ctrlFd = parseInt(v, 10); i++; }
  else { process.stderr.write("vboard: unknown option " + a + "\n"); process.exit(3); }
}
if (!opts.flash) { process.stderr.write("vboard: --flash DIR is required\n"); process.exit(3); }
fs.mkdirSync(opts.flash, { recursive: true });

// ---------------------------------------------------------------- the interpreter
// Emscripten's errno numbers (WASI numbering) -> MicroPython's (Linux numbering).
const WASI_TO_MP = {
  63: 1, 44: 2, 71: 3, 27: 4, 29: 5, 60: 6, 1: 7, 45: 8, 8: 9, 12: 10, 6: 11, 48: 12,
  2: 13, 21: 14, 105: 15, 10: 16, 20: 17, 75: 18, 43: 19, 54: 20, 31: 21, 28: 22,
  41: 23, 33: 24, 59: 25, 74: 26, 22: 27, 51: 28, 70: 29, 69: 30, 34: 31, 64: 32,
  18: 33, 68: 34, 37: 36, 52: 38, 55: 39, 32: 40, 138: 95, 5: 97, 3: 98, 13: 103,
  15: 104, 42: 105, 30: 106, 53: 107, 73: 110, 14: 111, 23: 113, 7: 114, 26: 115, 11: 125,
};
globalThis.__vboardErrno = (e) => (e in WASI_TO_MP ? WASI_TO_MP[e] : e);

// The package's module, with every errno that crosses from the file system into the
// interpreter translated (a textual patch of the pinned build, cached in the temp dir).
async function loadPatchedModule() {
  const pkgFile = require.resolve("@micropython/micropython-webassembly-pyscript/micropython.mjs");
  const src = fs.readFileSync(pkgFile, "utf8");
  const a = '"ErrnoError"!==e.name)throw e;return-e.errno';
  const b = '"ErrnoError"!==e.name)throw e;return e.errno';
  const na = src.split(a).length - 1, nb = src.split(b).length - 1;
  if (na < 10 || nb < 3) throw new Error("vboard: unexpected micropython.mjs build (errno patch points not found)");
  const patched = src
    .split(a).join('"ErrnoError"!==e.name)throw e;return-globalThis.__vboardErrno(e.errno)')
    .split(b).join('"ErrnoError"!==e.name)throw e;return globalThis.__vboardErrno(e.errno)');
  const hash = crypto.createHash("sha256").update(patched).digest("hex").slice(0, 16);
  const out = path.join(os.tmpdir(), `vboard-micropython-${hash}.mjs`);
  if (!fs.existsSync(out)) {
    const tmp = out + "." + process.pid + ".tmp";
    fs.writeFileSync(tmp, patched);
    fs.renameSync(tmp, out);
  }
  const mod = await import(pathToFileURL(out).href);
  return { loadMicroPython: mod.loadMicroPython, wasmUrl: path.join(path.dirname(pkgFile), "micropython.wasm") };
}
const { loadMicroPython, wasmUrl } = await loadPatchedModule();

// ---------------------------------------------------------------- serial output
let outBuf = [];
let lastOut = 0;
const BANNER_FROM = Buffer.from("JS with Emscripten");
const BANNER_TO = Buffer.from(opts.name);
let match = []; // bytes held while they may be the start of BANNER_FROM
let dropOK = 0; // bytes of "OK" still to drop (after an emulated raw paste)
let tail = ""; // the last characters the interpreter printed (for REPL state)

function rawEmit(c) {
  if (c === 10 && lastOut !== 13) outBuf.push(13); // a board's output is "cooked"
  outBuf.push(c);
  lastOut = c;
  if (outBuf.length >= 512 || c === 10) flush();
}
function emitFiltered(c) {
  match.push(c);
  for (;;) {
    let ok = true;
    for (let i = 0; i < match.length; i++) if (match[i] !== BANNER_FROM[i]) { ok = false; break; }
    if (ok) {
      if (match.length === BANNER_FROM.length) { for (const x of BANNER_TO) rawEmit(x); match = []; }
      return;
    }
    rawEmit(match.shift());
    if (!match.length) return;
  }
}
function handleInterpOut(bytes) {
  for (const c of bytes) {
    if (dropOK > 0) {
      if ((dropOK === 2 && c === 79) || (dropOK === 1 && c === 75)) { dropOK--; continue; }
      dropOK = 0;
    }
    tail = (tail + String.fromCharCode(c)).slice(-64);
    emitFiltered(c);
  }
}
function emit(s) {
  for (const c of Buffer.from(s, "latin1")) emitFiltered(c);
}
function flush() {
  if (match.length && outBuf.length === 0) return;
  if (!outBuf.length) return;
  const b = Buffer.from(outBuf);
  outBuf = [];
  let off = 0;
  while (off < b.length) {
    try { off += fs.writeSync(1, b, off); }
    catch (e) { if (e.code === "EAGAIN") { sleep(2); continue; } if (e.code === "EPIPE") process.exit(0); throw e; }
  }
}
function flushAll() { for (const c of match) rawEmit(c); match = []; flush(); }
function control(s) {
  if (opts.ctrlFd === undefined) return; // run standalone
  try { fs.writeSync(opts.ctrlFd, s); } catch (e) { /* the host went away */ }
}
const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms) { Atomics.wait(sleeper, 0, 0, ms); }

// ---------------------------------------------------------------- the board's flash
const FLASH = "/flash";
function hostPath(p) {
  if (p !== FLASH && !p.startsWith(FLASH + "/")) return null;
  return path.join(opts.flash, p.slice(FLASH.length));
}
function absPath(FS, p) {
  if (!p.startsWith("/")) p = FS.cwd().replace(/\/$/, "") + "/" + p;
  return path.posix.normalize(p);
}
function copyIn(FS, hdir, vdir) {
  for (const ent of fs.readdirSync(hdir, { withFileTypes: true })) {
    const h = path.join(hdir, ent.name), v = vdir + "/" + ent.name;
    if (ent.isDirectory()) { FS.mkdir(v); copyIn(FS, h, v); }
    else if (ent.isFile()) FS.writeFile(v, fs.readFileSync(h));
  }
}
function usedBytes(FS, dir) {
  let n = 0;
  for (const name of FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const p = dir + "/" + name, st = FS.stat(p);
    if (FS.isDir(st.mode)) n += 4096 + usedBytes(FS, p);
    else n += Math.ceil(st.size / 4096) * 4096;
  }
  return n;
}
function installFlash(FS) {
  FS.mkdir(FLASH);
  copyIn(FS, opts.flash, FLASH);
  const orig = {};
  for (const k of ["open", "write", "close", "unlink", "rmdir", "mkdir", "rename", "statfs", "truncate", "ftruncate"]) orig[k] = FS[k].bind(FS);
  const capacity = opts.flashSize;
  const syncFile = (p) => {
    const h = hostPath(p);
    if (!h) return;
    try { fs.writeFileSync(h, FS.readFile(p)); } catch (e) { /* gone already */ }
  };
  FS.open = (p, flags, mode) => {
    const s = orig.open(p, flags, mode);
    if (typeof p === "string" && (flags & 3) !== 0) { s.vbPath = absPath(FS, p); if (hostPath(s.vbPath)) syncFile(s.vbPath); }
    return s;
  };
  FS.write = (stream, buffer, offset, length, position, canOwn) => {
    if (stream.vbPath && hostPath(stream.vbPath)) {
      const pos = position !== undefined ? position : (stream.flags & 1024 ? stream.node.usedBytes : stream.position);
      const grow = Math.max(0, pos + length - (stream.node.usedBytes || 0));
      if (grow > 0) {
        const size = stream.node.usedBytes || 0;
        const extra = Math.ceil((size + grow) / 4096) * 4096 - Math.ceil(size / 4096) * 4096;
        if (extra > 0 && usedBytes(FS, FLASH) + extra > capacity) throw new FS.ErrnoError(51); // ENOSPC
      }
      const n = orig.write(stream, buffer, offset, length, position, canOwn);
      syncFile(stream.vbPath);
      return n;
    }
    return orig.write(stream, buffer, offset, length, position, canOwn);
  };
  FS.close = (stream) => {
    const p = stream.vbPath;
    orig.close(stream);
    if (p) syncFile(p);
  };
  FS.truncate = (p, len) => { orig.truncate(p, len); if (typeof p === "string") syncFile(absPath(FS, p)); };
  FS.ftruncate = (fd, len) => { orig.ftruncate(fd, len); const s = FS.getStream(fd); if (s && s.vbPath) syncFile(s.vbPath); };
  FS.unlink = (p) => { orig.unlink(p); const h = hostPath(absPath(FS, p)); if (h) fs.rmSync(h, { force: true }); };
  FS.rmdir = (p) => { orig.rmdir(p); const h = hostPath(absPath(FS, p)); if (h) fs.rmSync(h, { recursive: true, force: true }); };
  FS.mkdir = (p, mode) => {
    const r = orig.mkdir(p, mode);
    const h = hostPath(absPath(FS, p));
    if (h) fs.mkdirSync(h, { recursive: true });
    return r;
  };
  FS.rename = (a, b) => {
    orig.rename(a, b);
    const ha = hostPath(absPath(FS, a)), hb = hostPath(absPath(FS, b));
    if (ha && hb) { try { fs.renameSync(ha, hb); } catch (e) { /* mirrored on next write */ } }
  };
  FS.statfs = (p) => {
    const r = orig.statfs(p);
    if (hostPath(absPath(FS, p))) {
      const blocks = Math.floor(capacity / 4096), used = Math.ceil(usedBytes(FS, FLASH) / 4096);
      Object.assign(r, { bsize: 4096, frsize: 4096, blocks, bfree: Math.max(0, blocks - used), bavail: Math.max(0, blocks - used), files: 0, ffree: 0, namelen: 255 });
    }
    return r;
  };
}

// ---------------------------------------------------------------- boot
const MINIMAL_MACHINE = `
# Minimal machine module of the virtual board (host_sim/machine.py was not found).
def unique_id():
    return b"VBOARD01"
def freq(hz=None):
    return 125000000
def idle():
    pass
`;
const version = opts.reportVersion ? opts.reportVersion.split(".").map((x) => parseInt(x, 10)) : null;
const SETUP = `
def _vb_setup():
    import sys, os, vfs, _vboard
    try:
        sys.path.insert(0, "/vb_builtin")
        try:
            import machine
        except Exception as e:
            print("virtual board: host_sim/machine.py did not load:", repr(e))
            sys.modules.pop("machine", None)
            import _vb_machine as machine
            sys.modules["machine"] = machine
        if ${opts.vdevice ? "True" : "False"}:
            try:
                import vdevice
                vdevice.install(machine, _vboard)
            except Exception as e:
                print("virtual board: host_sim/vdevice.py did not load:", repr(e))
    finally:
        sys.path.pop(0)
    def reset():
        _vboard.reset()
        raise SystemExit
    def soft_reset():
        _vboard.soft_reset()
        raise SystemExit
    def bootloader(*a):
        reset()
    machine.reset = reset
    machine.soft_reset = soft_reset
    machine.bootloader = bootloader
    vfs.umount("/")
    vfs.mount(vfs.VfsPosix("${FLASH}"), "/")
    os.chdir("/")
    _il = os.ilistdir
    def ilistdir(*args):
        # A board's file systems give each entry's size; VfsPosix here does not.
        d = args[0] if args and args[0] else os.getcwd()
        for e in _il(*args):
            if len(e) == 3:
                n = 0
                if e[1] == 0x8000:
                    try:
                        n = os.stat(d.rstrip("/") + "/" + e[0])[6]
                    except OSError:
                        pass
                e = (e[0], e[1], e[2], n)
            yield e
    os.ilistdir = ilistdir
    def rename(a, b):
        # VfsPosix with a root folder (MicroPython 1.27) builds both absolute paths in
        # one buffer, so os.rename('/a', '/b') renames '/b' onto itself (ENOENT): the
        # host renames instead (a board's LittleFS or FAT has no such problem).
        cwd = os.getcwd().rstrip("/")
        e = _vboard.rename(a if a.startswith("/") else cwd + "/" + a, b if b.startswith("/") else cwd + "/" + b)
        if e:
            raise OSError(e)
    os.rename = rename
    v = sys.implementation.version
    rel = "%d.%d.%d" % (v[0], v[1], v[2])
    fake = ${version ? `(${version[0]}, ${version[1] || 0}, ${version[2] || 0}, "")` : "None"}
    if fake:
        rel = "%d.%d.%d" % fake[:3]
    class uname_result(tuple):
        sysname = property(lambda s: s[0])
        nodename = property(lambda s: s[1])
        release = property(lambda s: s[2])
        version = property(lambda s: s[3])
        machine = property(lambda s: s[4])
    name = ${JSON.stringify(opts.name)}
    u = uname_result(("rp2", "rp2", rel, "v%s on 2025-12-10 (virtual board)" % rel, name))
    os.uname = lambda: u
    class impl(tuple):
        name = property(lambda s: s[0])
        version = property(lambda s: s[1])
        _machine = property(lambda s: s[2])
        _mpy = property(lambda s: s[3])
        _build = property(lambda s: s[4])
    i = sys.implementation
    mpy = i._mpy
    if fake:
        mpy = 6 if fake[:2] >= (1, 19) else 5
    sysimpl = impl((i.name, fake or i.version, name, mpy, "RPI_PICO"))
    class _Sys:
        def __getattr__(self, k):
            if k == "implementation":
                return sysimpl
            return getattr(sys, k)
    sys.modules["sys"] = _Sys()
_vb_setup()
del _vb_setup
`;

let mp = null;
let mode = "friendly"; // the interpreter's REPL: "friendly" or "raw"
let rawLineEmpty = true;
let pendingReset = null; // "hard" | "soft", asked for by machine.reset() / soft_reset()

async function newInterpreter() {
  mp = null;
  const m = await loadMicroPython({ url: wasmUrl, stdout: interpOut, stderr: interpOut, linebuffer: false, heapsize: 192 * 1024 });
  const FS = m.FS;
  FS.mkdir("/vb_builtin");
  let machineSrc = MINIMAL_MACHINE;
  if (opts.machine && fs.existsSync(opts.machine)) machineSrc = fs.readFileSync(opts.machine, "utf8");
  FS.writeFile("/vb_builtin/machine.py", machineSrc);
  FS.writeFile("/vb_builtin/_vb_machine.py", MINIMAL_MACHINE);
  if (opts.vdevice && opts.vdevicePy) FS.writeFile("/vb_builtin/vdevice.py", fs.readFileSync(opts.vdevicePy, "utf8"));
  installFlash(FS);
  const flashDir = path.resolve(opts.flash);
  const hostFile = (rel) => {
    const p = path.resolve(flashDir, String(rel).replace(/^\/+/, ""));
    if (p !== flashDir && !p.startsWith(flashDir + path.sep)) throw new Error("outside the board");
    return p;
  };
  m.registerJsModule("_vboard", {
    reset: () => { pendingReset = "hard"; },
    soft_reset: () => { pendingReset = "soft"; },
    // Read a file of the board's flash as the host has it now (changes the host made
    // while code runs are not otherwise seen before the next reset); None if absent.
    // os.rename on the board (see SETUP): 0, or MicroPython's errno number.
    rename: (a, b) => {
      try { FS.rename(FLASH + path.posix.normalize(String(a)), FLASH + path.posix.normalize(String(b))); return 0; }
      catch (e) { if (e && e.name === "ErrnoError") return globalThis.__vboardErrno(e.errno); throw e; }
    },
    host_read: (rel) => { try { return fs.readFileSync(hostFile(rel), "latin1"); } catch (e) { return null; } },
    ...vdeviceLink(),
  });
  try { m.runPython(SETUP); }
  catch (e) { emit("virtual board: setup failed: " + String(e.message || e).replace(/\n/g, "\r\n") + "\r\n"); }
  mp = m;
  control("S");
}

// The host side of host_sim/vdevice.py (only with --vdevice DIR): frames out, presses in.
// input.done (the offset of input.txt played so far) survives resets and restarts of
// this process; the line being played when the board resets is not played again
// unless this process is restarted.
let inputTaken = null; // offset of input.txt handed to the board so far
function vdeviceLink() {
  if (!opts.vdevice) return {};
  const dir = opts.vdevice;
  fs.mkdirSync(dir, { recursive: true });
  const inFile = path.join(dir, "input.txt"), doneFile = path.join(dir, "input.done");
  const frameFile = path.join(dir, "frame.pbm"), logFile = path.join(dir, "log.txt");
  if (inputTaken === null) {
    try { inputTaken = parseInt(fs.readFileSync(doneFile, "utf8"), 10) || 0; } catch (e) { inputTaken = 0; }
  }
  // Interpreters started so far (kept in the folder): frames tell which boot made them.
  const bootFile = path.join(dir, "boots");
  let boot = 0;
  try { boot = parseInt(fs.readFileSync(bootFile, "utf8"), 10) || 0; } catch (e) { /* first */ }
  boot += 1;
  fs.writeFileSync(bootFile, String(boot));
  return {
    // The next whole line of the script (without its newline), or None.
    dev_next: () => {
      let size;
      try { size = fs.statSync(inFile).size; } catch (e) { return null; }
      if (size <= inputTaken) return null;
      const fd = fs.openSync(inFile, "r");
      try {
        const buf = Buffer.alloc(Math.min(size - inputTaken, 4096));
        const n = fs.readSync(fd, buf, 0, buf.length, inputTaken);
        const nl = buf.subarray(0, n).indexOf(10);
        if (nl < 0) return null; // a line still being written
        inputTaken += nl + 1;
        return buf.subarray(0, nl).toString("utf8").replace(/\r$/, "");
      } finally { fs.closeSync(fd); }
    },
    // The lines handed out so far are played.
    dev_done: () => {
      fs.writeFileSync(doneFile + ".tmp", String(inputTaken));
      fs.renameSync(doneFile + ".tmp", doneFile);
    },
    dev_log: (text) => { fs.appendFileSync(logFile, String(text) + "\n"); },
    // A finished frame: a comment and the picture (rows, bit 7 leftmost, 1 = lit) in
    // hex. PBM's 1 is black, so lit pixels are stored as 0: viewers show the panel as
    // it looks (light on black).
    dev_frame: (comment, hex) => {
      const pic = Buffer.from(String(hex), "hex").map((b) => b ^ 0xff);
      const tmp = frameFile + "." + process.pid + ".tmp";
      fs.writeFileSync(tmp, Buffer.concat([Buffer.from("P4\n# vdevice boot " + boot + " " + comment + "\n128 64\n"), pic]));
      fs.renameSync(tmp, frameFile);
    },
  };
}

function runScript(name) {
  let src;
  try { src = mp.FS.readFile(FLASH + "/" + name, { encoding: "utf8" }); } catch (e) { return; }
  try {
    mp.runPython(src);
  } catch (e) {
    if (e && e.name === "PythonError") {
      if (e.type !== "SystemExit") emit(String(e.message).split('"<stdin>"').join('"' + name + '"').replace(/\r?\n/g, "\r\n"));
    } else {
      emit("virtual board: " + name + " crashed the interpreter: " + String(e) + "\r\n");
    }
  }
  flushAll();
}

// Start a fresh interpreter. how: "boot" (power-on or hard reset), "soft" (soft
// reset), "interrupted" (restarted by the host after a Ctrl-C that running code could
// not take). Returns to the REPL in the mode the board would be in.
async function boot(how, rawAfter) {
  for (;;) {
    pendingReset = null;
    await newInterpreter();
    if (how === "interrupted") break;
    runScript("boot.py");
    if (pendingReset) { how = pendingReset === "hard" ? "boot" : "soft"; if (pendingReset === "hard") rawAfter = false; emitSoftReboot(how); continue; }
    if (!rawAfter) {
      runScript("main.py");
      if (pendingReset) { how = pendingReset === "hard" ? "boot" : "soft"; if (pendingReset === "hard") rawAfter = false; emitSoftReboot(how); continue; }
    }
    break;
  }
  // Bring up the interpreter's REPL silently, then print what a board prints.
  const keep = onInterpOutHook;
  onInterpOutHook = () => {};
  mp.replInit();
  if (rawAfter) mp.replProcessChar(1);
  onInterpOutHook = keep;
  tail = "";
  if (how === "interrupted") emit("Traceback (most recent call last):\r\n  File \"main.py\"\r\nKeyboardInterrupt: \r\n");
  if (rawAfter) { mode = "raw"; rawLineEmpty = true; emit("raw REPL; CTRL-B to exit\r\n>"); }
  else { mode = "friendly"; emit(bannerText() + ">>> "); }
  flushAll();
}
function bannerText() {
  const v = version ? version.join(".") : "1.27.0";
  return "MicroPython v" + v + " on 2025-12-10; " + opts.name + "\r\nType \"help()\" for more information.\r\n";
}
function emitSoftReboot(how) {
  if (how === "soft") emit("MPY: soft reboot\r\n");
  flushAll();
}

// The interpreter's output goes through a hook so boot() can silence replInit.
let onInterpOutHook = handleInterpOut;
function interpOut(bytes) { onInterpOutHook(bytes); }

// ---------------------------------------------------------------- serial input
let paste = null; // raw-paste emulation: null | "E" | "EA" | {buf, win}
const WINDOW = 128;

async function feed(c) {
  let r;
  try { r = mp.replProcessChar(c); }
  catch (e) {
    emit("\r\nvirtual board: interpreter crashed (" + String(e && e.message || e).slice(0, 200) + "), rebooting\r\n");
    await boot("interrupted", false);
    return;
  }
  if (mode === "raw" && c !== 3 && c !== 1 && c !== 2 && c !== 4) rawLineEmpty = false;
  if (tail.endsWith("raw REPL; CTRL-B to exit\r\n>")) { mode = "raw"; rawLineEmpty = true; }
  else if (tail.endsWith("for more information.\r\n>>> ")) mode = "friendly";
  else if (mode === "raw" && c === 4 && tail.endsWith(">")) rawLineEmpty = true;
  if (r) {
    // PYEXEC_FORCED_EXIT: Ctrl-D on an empty line, or SystemExit (machine.reset()).
    const how = pendingReset === "hard" ? "boot" : "soft";
    const raw = how === "soft" && mode === "raw";
    emitSoftReboot(how);
    await boot(how, raw);
  }
}

async function onByte(c) {
  if (c === 3) { control("A"); paste = null; rawLineEmpty = true; await feed(c); return; }
  if (paste === "E") { paste = c === 0x41 ? "EA" : null; if (!paste) { await feed(5); await feed(c); } return; }
  if (paste === "EA") {
    if (c === 1) { emit("R\x01"); outBuf.push(WINDOW & 0xff, WINDOW >> 8); flushAll(); paste = { buf: [], win: 0 }; }
    else { paste = null; await feed(5); await feed(0x41); await feed(c); }
    return;
  }
  if (paste) {
    if (c === 4) {
      const code = paste.buf;
      paste = null;
      outBuf.push(4);
      flushAll();
      for (const b of code) { if (b !== 3 && b !== 4 && b !== 1 && b !== 2) mp.replProcessChar(b); }
      dropOK = 2;
      await feed(4);
      dropOK = 0;
      return;
    }
    paste.buf.push(c);
    if (++paste.win === WINDOW) { paste.win = 0; outBuf.push(1); flushAll(); }
    return;
  }
  if (c === 5 && mode === "raw" && rawLineEmpty) { paste = "E"; return; }
  await feed(c);
}

// ---------------------------------------------------------------- main loop
await boot(opts.start === "interrupted" ? "interrupted" : "boot", false);
const inBuf = Buffer.alloc(4096);
for (;;) {
  let n;
  try { n = fs.readSync(0, inBuf, 0, inBuf.length, null); }
  catch (e) { if (e.code === "EAGAIN") { sleep(5); continue; } if (e.code === "EOF") break; throw e; }
  if (n === 0) break;
  for (let i = 0; i < n; i++) await onByte(inBuf[i]);
  flushAll();
}
process.exit(0);
