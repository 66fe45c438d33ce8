"""Pictures of every screen, made by the firmware itself: runs tools/gallery/*.script
(each in a fresh `python -m host_sim script` process, so each starts from an empty
flash and a freshly started device) and writes the PNGs of their `shot` lines plus a
markdown index with a caption under every image.

    tools/gallery/make                    # all scripts -> tools/gallery/png/, README.md
    tools/gallery/make --only home,stack31 --out /tmp/g

A script that fails is reported (on standard error, in the index, and by the exit
status 1); the shots it took before the failing line are kept. With no --only, PNGs
in the output folder that no script makes any more are removed.
"""

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)

from host_sim.script import ScriptError, shots  # noqa: E402

ORDER = ("home", "stack31", "stackdeck", "stress")  # the rest follow by name
SCALE = 4


def scripts(folder=HERE):
    names = [f[:-7] for f in os.listdir(folder) if f.endswith(".script")]
    return sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))


def title_of(text, name):
    """(title, description): the script's leading comment block, first line and rest."""
    block = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("#"):
            break
        block.append(line.lstrip("#").strip())
    if not block:
        return name, ""
    return block[0].rstrip("."), " ".join(block[1:])


def run_one(name, folder, out, python):
    """-> dict(name, title, shots=[(png, caption)], error=None|str)."""
    path = os.path.join(folder, name + ".script")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    title, about = title_of(text, name)
    result = {"name": name, "title": title, "about": about, "shots": [], "error": None}
    try:
        planned = shots(text)
    except ScriptError as e:
        result["error"] = "%s.script %s" % (name, e)
        return result
    tmp = tempfile.mkdtemp(prefix="gallery-")
    try:
        proc = subprocess.run([python, "-m", "host_sim", "script", path, "--out", tmp,
                               "--scale", str(SCALE)], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        if proc.returncode != 0:
            first = (proc.stderr.strip().splitlines() or ["exit status %d" % proc.returncode])[0]
            result["error"] = "%s.script %s" % (name, first)
        for shot, caption, _line in planned:
            src = os.path.join(tmp, shot + ".png")
            if os.path.exists(src):
                shutil.copyfile(src, os.path.join(out, shot + ".png"))
                result["shots"].append((shot, caption))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def index(results, png_rel):
    """The markdown page."""
    lines = [
        "# Gallery: every screen, drawn by the firmware",
        "",
        "Made by `tools/gallery/make` from the scripts in this folder: the unchanged",
        "firmware runs in the simulator (`python -m host_sim script`), and each `shot`",
        "line of a script saves the emulated SSD1306 panel as it shows at that moment.",
        "Run it again after changing a screen, and commit the pictures with the change.",
        "",
    ]
    failed = [r for r in results if r["error"]]
    if failed:
        lines += ["**Scripts that failed** (their later screens are missing):", ""]
        lines += ["- `%s`" % r["error"] for r in failed]
        lines.append("")
    for r in results:
        lines += ["## %s" % r["title"], ""]
        if r["about"]:
            lines += [r["about"], ""]
        lines += ["From `%s.script`." % r["name"], ""]
        if not r["shots"]:
            lines += ["(no pictures)", ""]
            continue
        lines += ["| screen | what it shows |", "|---|---|"]
        for shot, caption in r["shots"]:
            cap = (caption or shot).replace("|", "\\|")
            lines.append("| ![%s](%s/%s.png) | %s |" % (shot, png_rel, shot, cap))
        lines.append("")
    return "\n".join(lines)


def main(argv):
    only = None
    out = os.path.join(HERE, "png")
    readme = None
    folder = HERE
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--only", "--out", "--readme", "--scripts") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--only":
                only = [n.strip() for n in v.split(",") if n.strip()]
            elif a == "--out":
                out = v
            elif a == "--readme":
                readme = v
            else:
                folder = v
            i += 2
            continue
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        sys.stderr.write("usage: tools/gallery/make [--only a,b] [--out DIR] [--readme FILE]\n")
        return 2
    if readme is None:
        readme = os.path.join(os.path.dirname(os.path.abspath(out)), "README.md")
    names = scripts(folder)
    if only is not None:
        missing = [n for n in only if n not in names]
        if missing:
            sys.stderr.write("no such script: %s\n" % ", ".join(n + ".script" for n in missing))
            return 2
        names = [n for n in names if n in only]
    os.makedirs(out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda n: run_one(n, folder, out, sys.executable), names))
    if only is None:
        keep = {s[0] + ".png" for r in results for s in r["shots"]}
        planned = set()
        for r in results:
            try:
                with open(os.path.join(folder, r["name"] + ".script"), encoding="utf-8") as f:
                    planned |= {s[0] + ".png" for s in shots(f.read())}
            except ScriptError:
                pass
        for f in os.listdir(out):
            if f.endswith(".png") and f not in keep and f not in planned:
                os.remove(os.path.join(out, f))
    png_rel = os.path.relpath(os.path.abspath(out), os.path.dirname(os.path.abspath(readme)))
    png_rel = png_rel.replace(os.sep, "/")
    with open(readme, "w", encoding="utf-8") as f:
        f.write(index(results, png_rel) + "\n")
    count = sum(len(r["shots"]) for r in results)
    for r in results:
        if r["error"]:
            sys.stderr.write("FAILED %s\n" % r["error"])
    sys.stdout.write("%d pictures from %d scripts in %s; index %s\n"
                     % (count, len(results), os.path.relpath(out), os.path.relpath(readme)))
    return 1 if any(r["error"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
