"""The device in a browser (host_sim/web/, tools/web), driven in a real headless Chromium.

tools/web builds the static page into a temporary folder and serves it on 127.0.0.1;
Debian's chromium (headless, a fresh profile) opens it through chromium-driver and
selenium. The page runs the unchanged firmware on the MicroPython WebAssembly build;
the test presses its buttons by clicks (pointer down, hold, up) and by keys (the
terminal simulator's key map), and compares what the canvas shows, pixel for pixel,
with the simulator's picture (host_sim.screenshot.render of host_sim.device.SimDevice's
emulated panel, the gallery's PNG pixels) after the same presses:

1. the home screen;
2. a Stack 31 turn (new game, draws, Play with the card picker), and the journal under
   the device equals the simulator's journal;
3. a reload of the page resumes the game (the flash lives in localStorage);
4. long BACK home, a Stress match, the countdown, a call by the P1 button: the call
   view; OK rules on it, and the journal holds the call's edges stamped in
   microseconds by the page's clock.

Without chromium, chromium-driver or selenium the test skips with the reason; under CI
(environment variable CI set) it fails instead: .ci/run installs the browser.
"""

import base64
import importlib.machinery
import importlib.util
import io
import os
import re
import shutil
import time

import pytest

from host_sim.micropython import require_node

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRESS_S = 0.08  # a press held this long (SimDevice.PRESS_MS)
AFTER_S = 0.1  # and this long before the next


def _load_tool():
    loader = importlib.machinery.SourceFileLoader("tools_web", os.path.join(ROOT, "tools", "web"))
    spec = importlib.util.spec_from_loader("tools_web", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


web = _load_tool()


def _need_browser():
    why = None
    try:
        import selenium  # noqa: F401
    except ImportError:
        why = "selenium is not installed (tools/setup installs requirements-dev.txt)"
    browser, driver = web.chromium_paths()
    if why is None and (not browser or not driver):
        why = ("headless Chromium is not installed here (apt-get install chromium "
               "chromium-driver; .ci/run installs it under CI)")
    if why:
        if os.environ.get("CI"):
            pytest.fail("the browser test cannot run under CI: " + why)
        pytest.skip(why)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    require_node()  # the MicroPython package comes from node_modules
    _need_browser()
    site = str(tmp_path_factory.mktemp("site"))
    web.build(site)
    server, url = web.serve_in_thread(site)
    profile = str(tmp_path_factory.mktemp("chromium-profile"))
    driver = web.start_chromium(profile)
    driver.set_page_load_timeout(60)
    try:
        driver.get(url)
        web.wait_ready(driver)
        yield Page(driver, url, str(tmp_path_factory.mktemp("shots")))
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    from host_sim.device import SimDevice

    folder = str(tmp_path_factory.mktemp("sim-flash"))
    return Sim(SimDevice(folder), folder)


class Sim:
    def __init__(self, dev, folder):
        self.dev = dev
        self.folder = folder

    def restart(self):
        from host_sim.device import SimDevice
        self.dev = SimDevice(self.folder)

    def image(self):
        from host_sim.screenshot import render
        return render(self.dev.emu)

    def settle(self):
        self.dev.step(3000)  # toasts gone, as the page is when it matches

    def journal(self):
        from firmware.journal import unseal
        path = os.path.join(self.folder, "game.txt")
        if not os.path.exists(path):
            return ""
        out = []
        with open(path, "rb") as f:
            for raw in f.read().split(b"\n"):
                if raw.strip():
                    text = unseal(raw)
                    if text:
                        out.append(text)
        return "\n".join(out)


class Page:
    def __init__(self, driver, url, shots):
        self.d = driver
        self.url = url
        self.shots = shots

    def _button(self, name):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, '[data-button="%s"]' % name)

    def click(self, name, hold=PRESS_S):
        """Pointer down on the on-screen button, held, pointer up."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.d, duration=0).click_and_hold(self._button(name)).pause(hold).release().perform()
        time.sleep(AFTER_S)

    def key(self, key, hold=PRESS_S):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.d, duration=0).key_down(key).pause(hold).key_up(key).perform()
        time.sleep(AFTER_S)

    def canvas(self):
        from PIL import Image
        url = self.d.execute_script("return document.getElementById('panel').toDataURL('image/png')")
        data = base64.b64decode(url.split(",", 1)[1])
        return Image.open(io.BytesIO(data)).convert("RGB")

    def journal(self):
        return self.d.execute_script("return document.getElementById('journal').textContent")

    def reload(self):
        self.d.refresh()
        web.wait_ready(self.d)

    def matches(self, sim, what, timeout=8.0):
        """Wait until the canvas holds exactly the simulator's picture."""
        from host_sim.screenshot import to_text
        want = sim.image()
        deadline = time.monotonic() + timeout
        while True:
            got = self.canvas()
            if got.size == want.size and got.tobytes() == want.tobytes():
                return
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        got.save(os.path.join(self.shots, what + "-page.png"))
        want.save(os.path.join(self.shots, what + "-sim.png"))
        bits = self.d.execute_script("return window.tabletop.pixels()")
        rows = [[int(c) for c in line] for line in bits.split("\n")]
        diff = sum(1 for a, b in zip(got.tobytes(), want.tobytes()) if a != b)
        inputs = self.d.execute_script("return window.tabletop.inputs.slice(-12)")
        pytest.fail("%s: the canvas differs from the simulator's frame (%d bytes of %d; pictures in "
                    "%s)\npage:\n%s\nsimulator:\n%s\nthe page's last input edges (ms, button, down): %s"
                    % (what, diff, len(want.tobytes()), self.shots, to_text(rows), sim.dev.text(), inputs))


def test_home_screen_is_the_simulators(page, sim):
    sim.settle()
    page.matches(sim, "home")
    assert page.canvas().size == (512, 256)  # the simulator's PNG: 4x, 128x64
    errors = [e["message"] for e in page.d.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors  # no script error, no missing file


def test_the_page_is_cross_origin_isolated_so_its_clock_is_fine(page):
    """tools/web sends COOP/COEP: the referee's stamps come from performance.now(),
    which browsers coarsen to 100 us (1 ms in Firefox) on a page that is not isolated."""
    assert page.d.execute_script("return self.crossOriginIsolated") is True
    steps = page.d.execute_script(
        "const s = new Set(); let a = performance.now();"
        "for (let i = 0; i < 200000 && s.size < 50; i++) { const b = performance.now();"
        " if (b > a) { s.add(Math.round((b - a) * 1000)); a = b; } } return [...s];")
    assert min(steps) < 100, steps  # microseconds between two readings that differ


def test_a_stack31_turn_by_clicks_and_keys_then_a_reload_resumes_it(page, sim):
    from selenium.webdriver.common.keys import Keys

    # (page action, simulator button): clicks and keys mixed
    steps = [
        (lambda: page.click("OK"), "OK"),  # home: Stack 31
        (lambda: page.key(Keys.ENTER), "OK"),  # start a 2-player game
        (lambda: page.click("OK"), "OK"),  # P1 draws
        (lambda: page.key(" "), "OK"),  # P2 draws (Space is OK too)
        (lambda: page.key(Keys.ARROW_RIGHT), "RIGHT"),  # the action line: Play
        (lambda: page.click("OK"), "OK"),  # the card picker
    ]
    steps += [(lambda: page.key(Keys.ARROW_UP), "UP")] * 6
    steps += [(lambda: page.click("RIGHT"), "RIGHT")] * 3
    steps += [(lambda: page.key(Keys.RETURN), "OK")]  # P1 plays the king of spades
    for act, button in steps:
        act()
        sim.dev.press(button)
    sim.settle()
    page.matches(sim, "stack31-turn")
    journal = sim.journal()
    assert journal.startswith("game stack31"), "the simulator did not start the game:\n" + sim.dev.text()
    assert len(journal.split("\n")) >= 4, journal
    assert page.journal() == journal

    # the flash is in the browser's storage: a reload resumes the game
    stored = page.d.execute_script("return localStorage.getItem('tabletop-flash:game.txt')")
    assert stored and "stack31" in stored
    page.reload()
    sim.restart()
    sim.settle()
    page.matches(sim, "stack31-resumed")
    assert page.journal() == journal


def test_a_stress_call_by_the_call_button(page, sim):
    from selenium.webdriver.common.keys import Keys

    page.key(Keys.ESCAPE, hold=1.0)  # a long BACK: home
    sim.dev.long("BACK")
    sim.settle()
    page.matches(sim, "long-back-home")
    # down the home menu to Stress (its place depends on the entries: a saved game
    # adds "Resume ..."), by clicks and keys in turn
    menu = sim.dev.screen.menu
    downs = menu.items.index("Stress") - menu.index
    assert downs >= 0, menu.items
    for i in range(downs):
        page.click("DOWN") if i % 2 == 0 else page.key(Keys.ARROW_DOWN)
        sim.dev.press("DOWN")
    page.click("OK")
    sim.dev.press("OK")
    # a new game over a saved one may ask first: press OK until the match view, as the
    # simulator does (at most three times), the page showing what the simulator shows
    for i in range(3):
        sim.dev.step(200)
        page.matches(sim, "stress-new-%d" % i)
        if sim.journal().startswith("game stress"):
            break
        page.click("OK")
        sim.dev.press("OK")
    assert sim.journal().startswith("game stress"), "no Stress match in the simulator:\n" + sim.dev.text()
    sim.settle()
    page.matches(sim, "stress-match")
    page.key(Keys.ENTER)  # the 3-2-1 countdown to the flip
    sim.dev.press("OK")
    sim.dev.step(3500)
    time.sleep(3.0)
    page.matches(sim, "stress-flip")  # after the flip (waits for a slow page)
    page.click("BACK")  # no centre cards entered
    sim.dev.press("BACK")
    page.click("CALL1")  # P1 calls
    sim.dev.call(1)
    sim.dev.step(1000)
    page.matches(sim, "stress-call")
    page.key(Keys.ENTER)  # the table rules on the call (the default ruling): the call's
    sim.dev.press("OK")  # lines reach the journal (they wait in RAM until then)
    sim.settle()
    page.matches(sim, "stress-ruled")
    lines = page.journal().split("\n")
    assert [re.sub(r"^@\d+ ", "", ln) for ln in lines] == \
        [re.sub(r"^@\d+ ", "", ln) for ln in sim.journal().split("\n")]
    stamps = {ln.split()[-1]: int(ln.split()[0][1:]) for ln in lines if ln.startswith("@") and "P1" in ln}
    assert set(stamps) == {"down", "up"}, lines
    held_us = stamps["up"] - stamps["down"]
    assert 50_000 <= held_us <= 2_000_000, held_us  # microseconds of the page's clock
