// The page: the device in a case, its buttons and keys, the panel on a canvas, the
// journal under it, the buzzer through WebAudio. The device itself is host_sim/web/device.js.
import { startDevice, FlashStore } from "./device.js";
import { WIDTH, HEIGHT, SCALE } from "./ssd1306.js";

const t0 = performance.now();
const $ = (id) => document.getElementById(id);
const canvas = $("panel");
const ctx = canvas.getContext("2d", { alpha: false });
const image = ctx.createImageData(WIDTH * SCALE, HEIGHT * SCALE);
// Milestones in ms since the page was opened (performance.now(): navigation start).
const figures = { micropython: null, script_ms: Math.round(t0), mp_ms: null, files_ms: null, started_ms: null, home_ms: null };
const state = { ready: false, error: null, dev: null };

// The page's handle for people and tests (tools/web --measure, tests/test_web.py).
window.tabletop = {
  get ready() { return state.ready; },
  get error() { return state.error; },
  figures() {
    const entries = performance.getEntriesByType("resource").concat(performance.getEntriesByType("navigation"));
    let bytes = 0;
    for (const e of entries) bytes += e.decodedBodySize || 0;
    return Object.assign({}, figures, { error: state.error, requests: entries.length, fetched_bytes: bytes });
  },
  // The panel as 64 lines of 128 '0'/'1' (what the emulated SSD1306 shows).
  pixels() { return state.dev ? state.dev.panel.pixels().map((r) => r.join("")).join("\n") : null; },
  journal() { return state.dev ? state.dev.journal() : null; },
  frames: 0,
  inputs: [], // the last edges handed to the device: [ms, button, 1 down / 0 up]
  // Every edge given to the device has been taken and answered: no button held, no
  // release waiting, a loop turn since the last edge, the firmware done with them
  // (webdevice.settled) and its last frame on the canvas. Tests wait on this, never
  // on the clock (a busy machine only makes it come later).
  get settled() {
    const dev = state.dev;
    if (!state.ready || !dev || drawPending || dev.panel.changed || pendingUps.size) return false;
    for (const set of holders.values()) if (set.size) return false;
    return dev.turns > turnsAtEdge && dev.settled();
  },
};
let turnsAtEdge = 0;
function noteInput(button, down, t) {
  turnsAtEdge = state.dev ? state.dev.turns : 0;
  const log = window.tabletop.inputs;
  log.push([Math.round(t * 10) / 10, button, down]);
  if (log.length > 100) log.shift();
}

// ---------------------------------------------------------------- panel
let drawPending = false;
function draw(panel) {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    panel.render(image);
    ctx.putImageData(image, 0, 0);
    window.tabletop.frames++;
    if (figures.home_ms === null && panel.lit()) {
      figures.home_ms = Math.round(performance.now());
      state.ready = true;
      $("loading").hidden = true;
    }
  });
}

// ---------------------------------------------------------------- buzzer
let audio = null, gain = null, osc = null;
let soundOn = localStorage.getItem("tabletop-sound") !== "off";
function ensureAudio() {
  if (audio || !soundOn) { if (audio && audio.state === "suspended") audio.resume(); return; }
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  audio = new AC();
  gain = audio.createGain();
  gain.gain.value = 0;
  gain.connect(audio.destination);
  osc = audio.createOscillator();
  osc.type = "square"; // a piezo on a PWM pin at 50 % duty
  osc.connect(gain);
  osc.start();
}
function tone(freq) {
  if (!audio || !soundOn) return;
  const t = audio.currentTime;
  if (freq > 0) {
    osc.frequency.setValueAtTime(freq, t);
    gain.gain.setTargetAtTime(0.06, t, 0.002);
  } else gain.gain.setTargetAtTime(0, t, 0.004);
}
function showSound() { $("sound").textContent = "Sound: " + (soundOn ? "on" : "off"); }
$("sound").addEventListener("click", () => {
  soundOn = !soundOn;
  localStorage.setItem("tabletop-sound", soundOn ? "on" : "off");
  if (!soundOn && gain) gain.gain.value = 0;
  ensureAudio();
  showSound();
});
showSound();

// ---------------------------------------------------------------- buttons and keys
// A button is down while any of its holders (a pointer, a key) holds it. A press
// shorter than MIN_HOLD_MS is stretched to it: a click or a tap is a short press
// (the firmware ignores anything shorter than its 20 ms debounce, as a bounce).
const MIN_HOLD_MS = 60;
const LONG_MS = 900; // `l` then a key: held this long (host_sim's long press)
const holders = new Map(); // button -> Set of holder ids
const downAt = new Map(); // button -> performance.now() of the press
const pendingUps = new Map(); // button -> when its stretched release is due
const buttons = new Map(); // button -> element
for (const el of document.querySelectorAll("[data-button]")) buttons.set(el.dataset.button, el);

function hold(button, who, t) {
  ensureAudio();
  let set = holders.get(button);
  if (!set) { set = new Set(); holders.set(button, set); }
  if (set.has(who)) return;
  set.add(who);
  if (set.size > 1) return;
  pendingUps.delete(button); // pressed again before a stretched release: one press
  downAt.set(button, t);
  buttons.get(button)?.classList.add("down");
  noteInput(button, 1, t);
  state.dev?.press(button, t);
}
function letGo(button, who, t) {
  const set = holders.get(button);
  if (!set || !set.delete(who) || set.size) return;
  // in event time: a page busy when both edges came hands them over together late
  const due = downAt.get(button) + MIN_HOLD_MS;
  if (due > t) {
    pendingUps.set(button, due);
    setTimeout(releaseDue, due - t);
  } else up(button, t);
}
function up(button, t) {
  buttons.get(button)?.classList.remove("down");
  noteInput(button, 0, t);
  state.dev?.release(button, t);
}
// A stretched release goes to the device stamped when it was due, and before the next
// loop turn (device.js beforeTurn): a page the machine keeps busy past that moment
// still holds the button exactly MIN_HOLD_MS, never into a long press or a repeat.
function releaseDue() {
  const now = performance.now();
  for (const [button, due] of [...pendingUps]) {
    if (due > now) continue;
    pendingUps.delete(button);
    up(button, due);
  }
}

for (const [button, el] of buttons) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    try { el.setPointerCapture?.(ev.pointerId); } catch (e) { /* a pointer already gone */ }
    hold(button, "p" + ev.pointerId, ev.timeStamp);
  });
  const up = (ev) => letGo(button, "p" + ev.pointerId, ev.timeStamp);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("lostpointercapture", up);
  el.addEventListener("contextmenu", (ev) => ev.preventDefault());
  el.addEventListener("keydown", (ev) => { if (ev.key === " " || ev.key === "Enter") ev.preventDefault(); });
}

// The terminal simulator's key map (host_sim/terminal.py).
const KEYS = {
  ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT",
  Enter: "OK", " ": "OK", Backspace: "BACK", Escape: "BACK",
  1: "CALL1", 2: "CALL2", 3: "CALL3", 4: "CALL4",
};
let longArmed = false;
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const button = KEYS[ev.key];
  if (ev.key === "l" || ev.key === "L") { longArmed = true; $("status").dataset.long = "1"; return; }
  if (!button) return;
  ev.preventDefault();
  if (ev.repeat) return; // a held key is one press, however long
  if (longArmed) {
    longArmed = false;
    delete $("status").dataset.long;
    const who = "long" + ev.timeStamp;
    hold(button, who, ev.timeStamp);
    setTimeout(() => letGo(button, who, performance.now()), LONG_MS);
    return;
  }
  hold(button, "k" + ev.code, ev.timeStamp);
});
document.addEventListener("keyup", (ev) => {
  const button = KEYS[ev.key];
  if (button) { ev.preventDefault(); letGo(button, "k" + ev.code, ev.timeStamp); }
});
window.addEventListener("blur", () => {
  // the page lost the keyboard: let go of every key (pointers have their own capture)
  for (const [button, set] of holders) for (const who of [...set]) if (who.startsWith("k")) letGo(button, who, performance.now());
});

// ---------------------------------------------------------------- journal
let journalText = null;
function showJournal() {
  if (!state.dev) return;
  const text = state.dev.journal();
  if (text === journalText) return;
  journalText = text;
  const pre = $("journal");
  pre.classList.toggle("empty", !text);
  pre.textContent = text || "No game yet: every entry the device accepts appears here, in the table notation.";
  pre.scrollTop = pre.scrollHeight;
}
$("copy").addEventListener("click", async () => {
  const text = journalText ? journalText + "\n" : "";
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const ta = document.createElement("textarea");
    ta.value = text;
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  $("copy").textContent = "Copied";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1200);
});

// ---------------------------------------------------------------- GPIO labels
function picoPin(gp) {
  // the Pico's 40-pin header: every fifth pin is GND (3, 8, 13, 18 / 23, 28, 33, 38)
  if (gp < 16) return gp + 1 + Math.floor((gp + 2) / 4);
  if (gp <= 22) { const m = gp - 16; return 21 + m + Math.floor((m + 2) / 4); }
  return null;
}
function labelPins(dev) {
  const [nav, calls] = dev.pins();
  const names = ["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"];
  const put = (button, gp) => {
    const el = buttons.get(button);
    if (!el) return;
    const pin = dev.info.startsWith("Raspberry Pi Pico") ? picoPin(gp) : null;
    el.querySelector("i").textContent = "GP" + gp;
    el.title = el.title.replace(/ ·.*$/, "") + " · GP" + gp + (pin ? ", Pico pin " + pin : "");
  };
  nav.forEach((gp, i) => put(names[i], gp));
  calls.forEach((gp, i) => put("CALL" + (i + 1), gp));
}

// ---------------------------------------------------------------- start
const flash = new FlashStore(localStorage);
$("erase").addEventListener("click", () => {
  if (!confirm("Erase the flash? The saved game and the settings are lost.")) return;
  state.dev?.stop();
  flash.clear();
  location.reload();
});

function fail(e) {
  state.error = String((e && e.message) || e);
  $("loading").textContent = "The device did not start: " + state.error;
  $("loading").hidden = false;
  $("status").textContent = "Error: " + state.error;
  console.error(e);
}

async function main() {
  const [mod, bundle] = await Promise.all([
    import("./mp/micropython.mjs"),
    fetch("bundle.json").then((r) => { if (!r.ok) throw new Error("bundle.json: " + r.status); return r.json(); }),
  ]);
  figures.micropython = bundle.micropython;
  let tMp = null;
  const loadMicroPython = async (opts) => {
    const m = await mod.loadMicroPython(opts);
    tMp = performance.now();
    figures.mp_ms = Math.round(tMp);
    return m;
  };
  const dev = await startDevice({
    loadMicroPython, bundle, flash,
    wasmUrl: new URL("mp/micropython.wasm", location.href).href,
    heapsize: 512 * 1024,
    onFrame: draw,
    beforeTurn: releaseDue,
    onTone: tone,
    onFlash: showJournal,
    onReset: () => location.reload(),
    onError: fail,
    onStarting: () => { figures.files_ms = Math.round(performance.now()); },
    log: (line) => console.log("device: " + line),
  });
  figures.started_ms = Math.round(performance.now());
  state.dev = dev;
  $("board").textContent = dev.info.split(",")[0];
  $("journal-name").textContent = dev.journalName;
  $("status").textContent = dev.info + " (WebAssembly) · running " + figures.started_ms + " ms after opening the page";
  labelPins(dev);
  showJournal();
  draw(dev.panel);
}
// One device per browser: a second tab waits until the first closes (both would
// write the same flash otherwise).
function oneDevice(run) {
  if (!navigator.locks) return run();
  const waiting = setTimeout(() => {
    $("loading").textContent = "The device is running in another tab of this browser: close it to use it here.";
  }, 500);
  return new Promise((resolve, reject) => {
    navigator.locks.request("tabletop-device", () => {
      clearTimeout(waiting);
      $("loading").textContent = "starting MicroPython...";
      run().then(resolve, reject);
      return new Promise(() => {}); // held while this page lives
    }).catch(reject);
  });
}
oneDevice(main).catch(fail);
