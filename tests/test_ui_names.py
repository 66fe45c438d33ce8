"""Drawing text interns no names on MicroPython: iterating or indexing a str makes each
character a qstr that is never freed (up to 79 of them in a session), so firmware.ui
draws a string from its bytes. Checked on the unix port by counting the qstr pool."""

import pytest

SCRIPT = r'''
import framebuf, micropython
from firmware import ui
fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
def count():
    micropython.qstr_info()
count()
ui.text(fb, "Qz@jJ$%&vVwW", 0, 0)
ui.text(fb, "Qz@jJ$%&vVwW", 0, 8, 0)
ui.big(fb, "Qz@jJ$%&", 0, 16, 2)
ui.big(fb, "-1 23+", 0, 16, 3)
ui.big_center(fb, "45 6", 30, 4)
ui.center(fb, "xXyY\u00e9", 40)
count()
'''


def test_drawing_text_interns_no_character():
    from host_sim.unixport import find_binary, run_unix
    if find_binary() is None:
        pytest.skip("MicroPython unix port not installed")
    out = run_unix(SCRIPT, heap_kb=512)
    counts = [line.split("n_qstr=")[1].split(",")[0] for line in out.splitlines()
              if line.startswith("qstr pool:")]
    assert len(counts) == 2 and counts[0] == counts[1], out
