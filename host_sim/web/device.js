// The device: the MicroPython WebAssembly build running the unchanged firmware on the
// browser's hardware layer (host_sim/web/py/machine.py and host_sim/web/py/webdevice.py, with this file
// as their JavaScript side, the module `_web`). No DOM here: host_sim/web/page.js draws.
//
//   const dev = await startDevice({ loadMicroPython, wasmUrl, bundle, storage, onFrame, onTone });
//   dev.press("OK"); dev.release("OK");    // a button goes down / comes up
//   dev.panel                               // the SSD1306 emulation (host_sim/web/ssd1306.js)
//   dev.journal()                           // the journal as table notation
//   dev.settled()                           // the firmware is done with the edges given
//   dev.stop()                              // stop the loop (before a restart)
//
// The bundle (made by tools/web from the checkout) holds the device files
// (core/ and firmware/ as .mpy in base64, or as source; boot.py, main.py) and the
// browser layer's Python files. The device
// files go to /flash, the board's flash; the flash's own files (the journal, the
// settings) come from `storage` (localStorage in the page) and go back to it after every
// loop turn that wrote something, so a game survives a reload.
import { SSD1306 } from "./ssd1306.js";

const FLASH = "/flash";
const LAYER = "/web";
const MASK = 0x3fffffff; // ticks period 2**30, as MicroPython's ticks_*

function mkdirs(FS, path) {
  let cur = "";
  for (const part of path.split("/").filter(Boolean)) {
    cur += "/" + part;
    try { FS.mkdir(cur); } catch (e) { /* exists */ }
  }
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

// Bytes <-> a string of one char per byte (what localStorage keeps).
export function bytesToLatin1(b) {
  let s = "";
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode.apply(null, b.subarray(i, i + 8192));
  return s;
}
export function latin1ToBytes(s) {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 0xff;
  return b;
}

// A flash kept in a Storage-like object (getItem/setItem/removeItem/key/length).
export class FlashStore {
  constructor(storage, prefix = "tabletop-flash:") {
    this.storage = storage;
    this.prefix = prefix;
  }
  names() {
    const out = [];
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (k && k.startsWith(this.prefix)) out.push(k.slice(this.prefix.length));
    }
    return out.sort();
  }
  get(name) { return this.storage.getItem(this.prefix + name); }
  set(name, latin1) { this.storage.setItem(this.prefix + name, latin1); }
  remove(name) { this.storage.removeItem(this.prefix + name); }
  clear() { for (const n of this.names()) this.remove(n); }
}

export async function startDevice(opts) {
  const { loadMicroPython, wasmUrl, bundle, flash, board = "pico" } = opts;
  const onFrame = opts.onFrame || (() => {});
  const onTone = opts.onTone || (() => {});
  const onReset = opts.onReset || (() => {});
  const onFlash = opts.onFlash || (() => {});
  const log = opts.log || ((s) => console.log(s));
  const now = opts.now || (() => performance.now());
  const panel = new SSD1306(0x3c);
  const out = [];
  const mp = await loadMicroPython({
    url: wasmUrl, heapsize: opts.heapsize || 1024 * 1024, linebuffer: true,
    stdout: (line) => log(line), stderr: (line) => log(line),
  });
  const FS = mp.FS;

  // Files: the browser layer, the device files, then the flash's own files.
  mkdirs(FS, LAYER);
  for (const [name, text] of Object.entries(bundle.web)) FS.writeFile(LAYER + "/" + name, text);
  mkdirs(FS, FLASH);
  const shipped = new Set();
  const put = (path, data) => {
    const full = FLASH + "/" + path;
    mkdirs(FS, full.slice(0, full.lastIndexOf("/")));
    FS.writeFile(full, data);
    shipped.add(path);
  };
  for (const [path, text] of Object.entries(bundle.device)) put(path, text);
  for (const [path, b64] of Object.entries(bundle.device_b64 || {})) put(path, latin1ToBytes(atob(b64)));
  const kept = new Map(); // name -> latin1 content as last stored
  for (const name of flash.names()) {
    if (shipped.has(name)) continue; // a device file: the shipped one wins (as a deploy)
    const data = flash.get(name);
    FS.writeFile(FLASH + "/" + name, latin1ToBytes(data));
    kept.set(name, data);
  }

  // Writes to the file system mark the flash dirty; the loop syncs it after the turn.
  let dirty = false;
  for (const k of ["write", "close", "unlink", "rename", "truncate", "ftruncate", "rmdir"]) {
    const orig = FS[k].bind(FS);
    FS[k] = (...args) => { dirty = true; return orig(...args); };
  }
  function syncFlash() {
    dirty = false;
    const seen = new Set();
    for (const name of FS.readdir(FLASH)) {
      if (name === "." || name === ".." || shipped.has(name)) continue;
      const st = FS.stat(FLASH + "/" + name);
      if (!FS.isFile(st.mode)) continue;
      seen.add(name);
      const data = bytesToLatin1(FS.readFile(FLASH + "/" + name));
      if (kept.get(name) !== data) { flash.set(name, data); kept.set(name, data); }
    }
    for (const name of [...kept.keys()]) if (!seen.has(name)) { flash.remove(name); kept.delete(name); }
    onFlash();
  }

  let edgeTime = null; // the input event's time while its edge is handed to the pin
  let resetAsked = false;
  const ticksUs = () => Math.floor((edgeTime !== null ? edgeTime : now()) * 1000) & MASK;
  const ticksMs = () => Math.floor(now()) & MASK;
  mp.registerJsModule("_web", {
    ticks_us: ticksUs,
    ticks_ms: ticksMs,
    i2c_present: (addr) => addr === panel.address,
    i2c_write: (addr, hex) => { if (addr === panel.address) panel.write(hexBytes(hex)); },
    pwm: (pin, freq, duty) => onTone(duty > 0 && freq > 0 ? freq : 0),
    reset: () => { resetAsked = true; },
  });
  mp.runPython(`import sys\nsys.path.insert(0, "${LAYER}")\nsys.path.insert(1, "${FLASH}")\nimport os\nos.chdir("${FLASH}")`);
  if (opts.onStarting) opts.onStarting();
  const wd = mp.pyimport("webdevice");
  const loopMs = wd.start(board, FLASH);
  const info = wd.info();
  const journalName = wd.journal_name();

  let timer = null, stopped = false, turns = 0;
  function afterTurn() {
    if (dirty) {
      try { syncFlash(); } catch (e) { log("flash not saved in the browser's storage: " + (e.message || e)); }
    }
    if (panel.changed) onFrame(panel);
  }
  function turn() {
    if (stopped) return;
    try {
      if (opts.beforeTurn) opts.beforeTurn(); // edges due by now go in before the turn
      wd.step();
      turns++;
    } catch (e) {
      if (!resetAsked) {
        log("device stopped: " + (e.message || e));
        stopped = true;
        if (opts.onError) { opts.onError(e); return; }
        throw e;
      }
    }
    afterTurn();
    if (resetAsked) { stopped = true; onReset(); }
  }
  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => { turn(); schedule(); }, loopMs);
  }
  afterTurn();
  if (!opts.manual) schedule(); // manual: the caller turns the loop (dev.step(), tests)

  function edge(name, down, t) {
    if (stopped) return;
    edgeTime = t === undefined ? null : t;
    try { down ? wd.press(name) : wd.release(name); } finally { edgeTime = null; }
  }
  return {
    panel, info, journalName, loopMs, mp,
    press: (name, t) => edge(name, true, t),
    release: (name, t) => edge(name, false, t),
    step: () => turn(),
    journal: () => wd.journal_text(),
    settled: () => !stopped && !!wd.settled(),
    pins: () => mp.PyProxy.toJs(wd.pins()),
    mem: () => mp.PyProxy.toJs(wd.mem()),
    get turns() { return turns; },
    stop: () => { stopped = true; if (timer) clearTimeout(timer); },
  };
}
