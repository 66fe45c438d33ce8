// An emulated SSD1306 OLED controller behind I2C, drawing on a canvas: the browser's
// panel. A port of host_sim/ssd1306_emu.py (decoding) and host_sim/screenshot.py
// (the picture), so that the canvas holds exactly the pixels of the simulator's PNGs:
// 4x scale, a dark line after each pixel, the lit colour (120, 200, 255) dimmed with
// the contrast (0.35 + 0.65 * contrast / 255), black elsewhere.
//
//   const panel = new SSD1306(0x3c);
//   panel.write(bytes)        one I2C write transaction (the bytes after the address)
//   panel.pixels()            64 rows of 128 ints (1 = lit), upright
//   panel.render(imageData)   the picture into a 512x256 ImageData (RGBA)
//   panel.frames, panel.bytes transactions with GDDRAM data / bytes received
export const WIDTH = 128, HEIGHT = 64, PAGES = 8, SCALE = 4;
export const OLED_BLUE = [120, 200, 255];

const HORIZONTAL = 0, VERTICAL = 1, PAGE = 2;
const ARGS = {
  0x20: 1, 0x21: 2, 0x22: 2, 0x23: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0x81: 1,
  0x8d: 1, 0xa3: 2, 0xa8: 1, 0xad: 1, 0xd3: 1, 0xd5: 1, 0xd6: 1, 0xd9: 1, 0xda: 1, 0xdb: 1,
};

export class SSD1306 {
  constructor(address = 0x3c) {
    this.address = address;
    this.ram = new Uint8Array(WIDTH * PAGES); // [page * 128 + segment]
    this.transactions = 0;
    this.bytes = 0;
    this.dataTransactions = 0;
    this.changed = true;
    this.hardReset();
  }

  hardReset() {
    this.displayOn = false;
    this.contrast = 0x7f;
    this.entireOn = false;
    this.inverted = false;
    this.chargePump = false;
    this.mode = PAGE;
    this.colStart = 0; this.colEnd = WIDTH - 1;
    this.pageStart = 0; this.pageEnd = PAGES - 1;
    this.col = 0; this.page = 0;
    this.startLine = 0;
    this.segRemap = false;
    this.comRemap = false;
    this.mux = 64;
    this.offset = 0;
    this.pending = null;
    this.need = 0;
    this.changed = true;
  }

  write(data) {
    const n = data.length;
    this.transactions++;
    this.bytes += n;
    let i = 0, hadData = false;
    while (i < n) {
      const ctl = data[i++];
      const isData = (ctl & 0x40) !== 0;
      let end;
      if (ctl & 0x80) { if (i >= n) break; end = i + 1; } else end = n;
      for (; i < end; i++) {
        if (isData) { this.writeRam(data[i]); hadData = true; } else this.commandByte(data[i]);
      }
    }
    if (hadData) this.dataTransactions++;
    this.changed = true;
  }

  commandByte(b) {
    if (this.pending !== null) {
      this.pending.push(b);
      if (--this.need === 0) { const c = this.pending; this.pending = null; this.execute(c[0], c.slice(1)); }
      return;
    }
    const need = ARGS[b] || 0;
    if (need) { this.pending = [b]; this.need = need; } else this.execute(b, []);
  }

  execute(op, a) {
    if (op === 0x81) this.contrast = a[0];
    else if (op === 0x8d) this.chargePump = (a[0] & 0x04) !== 0;
    else if (op === 0xa4 || op === 0xa5) this.entireOn = op === 0xa5;
    else if (op === 0xa6 || op === 0xa7) this.inverted = op === 0xa7;
    else if (op === 0xae || op === 0xaf) this.displayOn = op === 0xaf;
    else if (op === 0x20) { if ((a[0] & 3) !== 3) this.mode = a[0] & 3; }
    else if (op === 0x21) { this.colStart = a[0] & 0x7f; this.colEnd = a[1] & 0x7f; this.col = this.colStart; }
    else if (op === 0x22) { this.pageStart = a[0] & 7; this.pageEnd = a[1] & 7; this.page = this.pageStart; }
    else if (op <= 0x0f) { if (this.mode === PAGE) this.col = (this.col & 0xf0) | op; }
    else if (op <= 0x1f) { if (this.mode === PAGE) this.col = ((op & 7) << 4) | (this.col & 0x0f); }
    else if (op >= 0xb0 && op <= 0xb7) { if (this.mode === PAGE) this.page = op & 7; }
    else if (op >= 0x40 && op <= 0x7f) this.startLine = op & 0x3f;
    else if (op === 0xa0 || op === 0xa1) this.segRemap = op === 0xa1;
    else if (op >= 0xc0 && op <= 0xcf) this.comRemap = (op & 8) !== 0;
    else if (op === 0xa8) { const m = (a[0] & 0x3f) + 1; if (m >= 16) this.mux = m; }
    else if (op === 0xd3) this.offset = a[0] & 0x3f;
    // the rest (clock, pre-charge, VCOMH, COM pins, scrolling, NOP) changes no pixel here
  }

  writeRam(b) {
    const seg = this.segRemap ? WIDTH - 1 - this.col : this.col;
    this.ram[this.page * WIDTH + seg] = b;
    if (this.mode === HORIZONTAL) {
      if (this.col >= this.colEnd) {
        this.col = this.colStart;
        this.page = this.page >= this.pageEnd ? this.pageStart : this.page + 1;
      } else this.col++;
    } else if (this.mode === VERTICAL) {
      if (this.page >= this.pageEnd) {
        this.page = this.pageStart;
        this.col = this.col >= this.colEnd ? this.colStart : this.col + 1;
      } else this.page++;
    } else this.col = this.col >= WIDTH - 1 ? 0 : this.col + 1;
  }

  lit() { return this.displayOn && this.chargePump; }

  pixels() {
    const rows = [];
    for (let y = 0; y < HEIGHT; y++) rows.push(new Array(WIDTH).fill(0));
    if (!this.lit()) return rows;
    if (this.entireOn) { for (const r of rows) r.fill(1); return rows; }
    const inv = this.inverted ? 1 : 0;
    for (let y = 0; y < HEIGHT; y++) {
      const com = HEIGHT - 1 - y;
      if (com >= this.mux) continue;
      const scan = this.comRemap ? this.mux - 1 - com : com;
      const line = (scan + this.startLine + this.offset) % HEIGHT;
      const bit = line & 7, base = (line >> 3) * WIDTH, row = rows[y];
      for (let x = 0; x < WIDTH; x++) row[x] = ((this.ram[base + WIDTH - 1 - x] >> bit) & 1) ^ inv;
    }
    return rows;
  }

  // The colour of a lit pixel now, as host_sim/screenshot.render computes it.
  color() {
    const k = 0.35 + 0.65 * (this.contrast / 255);
    return OLED_BLUE.map((c) => Math.trunc(c * k));
  }

  render(img) {
    const rows = this.pixels(), [r, g, b] = this.color(), d = img.data, w = WIDTH * SCALE;
    for (let y = 0; y < HEIGHT * SCALE; y++) {
      const row = rows[(y / SCALE) | 0], gapY = y % SCALE === SCALE - 1;
      for (let x = 0; x < w; x++) {
        const on = !gapY && x % SCALE !== SCALE - 1 && row[(x / SCALE) | 0];
        const o = (y * w + x) * 4;
        d[o] = on ? r : 0; d[o + 1] = on ? g : 0; d[o + 2] = on ? b : 0; d[o + 3] = 255;
      }
    }
    this.changed = false;
  }
}
