// Runs Python code in the real MicroPython interpreter (the WebAssembly port, pinned in
// package.json) under Node. Used by host_sim/micropython.py; not meant to be called by hand.
//
// Input: one JSON object on standard input:
//   {"code": "...",                      the program to run as __main__
//    "files": {"core/x.py": "<base64>"},  written into the interpreter's file system
//                                         (relative to its working directory "/")
//    "heapsize": 1048576, "pystack": 2048}   optional
// Output: the program's standard output, byte for byte, on standard output. On an
// uncaught exception: the interpreter's traceback on standard error, exit status 1.
// A failure of the runner itself (bad input, missing package): exit status 3.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on("data", (c) => chunks.push(c));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", reject);
  });
}

function mkdirs(FS, path) {
  const parts = path.split("/").filter((p) => p !== "");
  let cur = "";
  for (const part of parts) {
    cur += "/" + part;
    try {
      FS.mkdir(cur);
    } catch (e) {
      // already there
    }
  }
}

async function main() {
  let spec;
  try {
    spec = JSON.parse(await readStdin());
  } catch (e) {
    process.stderr.write("mp_runner: bad input: " + e + "\n");
    process.exit(3);
  }
  const out = [];
  const err = [];
  const options = {
    linebuffer: false,
    stdout: (bytes) => out.push(Buffer.from(bytes)),
    stderr: (bytes) => err.push(Buffer.from(bytes)),
  };
  if (spec.heapsize) options.heapsize = spec.heapsize;
  if (spec.pystack) options.pystack = spec.pystack;
  const mp = await loadMicroPython(options);
  for (const [path, b64] of Object.entries(spec.files || {})) {
    const full = "/" + path.replace(/^\/+/, "");
    mkdirs(mp.FS, full.slice(0, full.lastIndexOf("/")));
    mp.FS.writeFile(full, new Uint8Array(Buffer.from(b64, "base64")));
  }
  let status = 0;
  let traceback = "";
  try {
    mp.runPython(spec.code);
  } catch (e) {
    status = 1;
    traceback = e && e.message !== undefined ? String(e.message) : String(e);
  }
  process.stdout.write(Buffer.concat(out));
  const errText = Buffer.concat(err).toString("utf8") + traceback;
  if (errText) process.stderr.write(errText);
  process.exitCode = status;
}

main().catch((e) => {
  process.stderr.write("mp_runner: " + (e && e.stack ? e.stack : e) + "\n");
  process.exit(3);
});
