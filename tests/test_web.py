"""The device in a browser (host_sim/web/, tools/web), driven in a real headless Chromium.

tools/web builds the static page into a temporary folder and serves it on 127.0.0.1;
Debian's chromium (headless, a fresh profile) opens it through chromium-driver and
selenium. The page runs the unchanged firmware on the MicroPython WebAssembly build;
the test presses its buttons by taps (pointer down and up) and by keys (the terminal
simulator's key map), and compares what the canvas shows, pixel for pixel,
with the simulator's picture (host_sim.screenshot.render of host_sim.device.SimDevice's
emulated panel, the gallery's PNG pixels) after the same presses:

1. the home screen;
2. a Stack 31 turn (new game, draws, Play with the card picker), and the journal under
   the device equals the simulator's journal;
3. a reload of the page resumes the game (the flash lives in localStorage);
4. long BACK home, a Stress match, the countdown, a call by the P1 button: the call
   view; OK rules on it, and the journal holds the call's edges stamped in
   microseconds by the page's clock.

The test waits on the page, never on the clock: after every press it waits (a generous
timeout) for the page's `window.tabletop.settled` (every edge taken, the firmware done
with it, its frame on the canvas), and a comparison waits until the canvas shows the
simulator's frame. A press is a tap or a key whose two edges the page receives in one task (its own
listeners, synthetic events): the page holds it MIN_HOLD_MS in the device's time
however late the machine lets it run (a click through chromedriver is stamped when a
busy machine lets the browser send it: a tap can become a long press; real clicks and
keys are checked where their length does not matter). So a busy machine makes the
test slower, never wrong.

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
SETTLE_S = 120.0  # the longest the page may take to answer a press (a busy machine)
MATCH_S = 120.0  # ... and to show the simulator's frame (a countdown runs 3 s of them)


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
def site(tmp_path_factory):
    """The page built by tools/web and served on 127.0.0.1: its address."""
    require_node()  # the MicroPython package comes from node_modules
    _need_browser()
    folder = str(tmp_path_factory.mktemp("site"))
    web.build(folder)
    server, url = web.serve_in_thread(folder)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def page(site, tmp_path_factory):
    profile = str(tmp_path_factory.mktemp("chromium-profile"))
    driver = web.start_chromium(profile)
    driver.set_page_load_timeout(60)
    try:
        driver.get(site)
        web.wait_ready(driver)
        yield Page(driver, site, str(tmp_path_factory.mktemp("shots")))
    finally:
        driver.quit()
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


TAP_JS = """
const el = document.querySelector('[data-button="' + arguments[0] + '"]');
const at = {bubbles: true, cancelable: true, pointerId: 7, pointerType: 'touch', isPrimary: true, button: 0};
// both made first: an event is stamped when it is made, and the page may take long
// over the first on a busy machine (the second's stamp must not wait for it)
const down = new PointerEvent('pointerdown', at), up = new PointerEvent('pointerup', at);
el.dispatchEvent(down);
el.dispatchEvent(up);
"""
KEY_JS = """
const [key, long] = arguments;
const code = key === ' ' ? 'Space' : /^[0-9]$/.test(key) ? 'Digit' + key : key.length === 1 ? 'Key' + key.toUpperCase() : key;
const events = [];
if (long) events.push(['keydown', 'l', 'KeyL'], ['keyup', 'l', 'KeyL']);
events.push(['keydown', key, code], ['keyup', key, code]);
const made = events.map(([type, k, c]) => new KeyboardEvent(type, {key: k, code: c, bubbles: true, cancelable: true}));
for (const ev of made) document.dispatchEvent(ev);
"""


class Page:
    def __init__(self, driver, url, shots):
        self.d = driver
        self.url = url
        self.shots = shots

    def _button(self, name):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, '[data-button="%s"]' % name)

    def click(self, name):
        """A tap on the on-screen button: pointer down and up on it in one task of the
        page (the events its own listeners take), so the page holds it MIN_HOLD_MS in
        its own time: a real click's up edge is stamped when a busy machine lets the
        browser send it, which can turn a tap into a long press. Then wait until the
        page has answered it."""
        self.d.execute_script(TAP_JS, name)
        self.settle("click " + name)

    def key(self, key, long=False):
        """A key pressed and let go in one task (the terminal's key map); long: after
        the page's `l` (held LONG_MS by the page)."""
        self.d.execute_script(KEY_JS, key, long)
        self.settle("key %r" % key)

    def real_click(self, name):
        """A click through chromedriver (hit testing, pointer capture, real events)."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.d, duration=0).click_and_hold(self._button(name)).release().perform()
        self.settle("real click " + name)

    def real_key(self, key):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.d, duration=0).key_down(key).key_up(key).perform()
        self.settle("real key %r" % key)

    def settle(self, what, timeout=SETTLE_S):
        """Wait until the page has taken every edge and the firmware has answered
        (window.tabletop.settled), however long a busy machine makes that."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.ui import WebDriverWait
        try:
            WebDriverWait(self.d, timeout, poll_frequency=0.02).until(
                lambda d: d.execute_script("return window.tabletop.settled === true"))
        except TimeoutException:
            inputs = self.d.execute_script("return window.tabletop.inputs.slice(-12)")
            pytest.fail("%s: the page did not settle in %d s (last edges: %s)" % (what, timeout, inputs))

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
        self.settle("reload")

    def matches(self, sim, what, timeout=MATCH_S):
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
        pytest.fail("%s: the canvas differs from the simulator's frame after %d s (%d bytes of %d; pictures in "
                    "%s)\npage:\n%s\nsimulator:\n%s\nthe page's last input edges (ms, button, down): %s"
                    % (what, timeout, diff, len(want.tobytes()), self.shots, to_text(rows), sim.dev.text(),
                       inputs))


def test_home_screen_is_the_simulators(page, sim):
    sim.settle()
    page.matches(sim, "home")
    assert page.canvas().size == (512, 256)  # the simulator's PNG: 4x, 128x64
    # real input through chromedriver reaches the device: a click and a key (call
    # buttons, which the home screen ignores, so their length does not matter)
    page.real_click("CALL2")
    page.real_key("3")
    edges = page.d.execute_script("return window.tabletop.inputs")
    assert [e[1:] for e in edges[-4:]] == [["CALL2", 1], ["CALL2", 0], ["CALL3", 1], ["CALL3", 0]], edges
    page.matches(sim, "home-after-calls")
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
    # (page action, simulator button): clicks and keys mixed
    steps = [
        (lambda: page.click("OK"), "OK"),  # home: Stack 31
        (lambda: page.key("Enter"), "OK"),  # start a 2-player game
        (lambda: page.click("OK"), "OK"),  # P1 draws
        (lambda: page.key(" "), "OK"),  # P2 draws (Space is OK too)
        (lambda: page.key("ArrowRight"), "RIGHT"),  # the action line: Play
        (lambda: page.click("OK"), "OK"),  # the card picker
    ]
    steps += [(lambda: page.key("ArrowUp"), "UP")] * 6
    steps += [(lambda: page.click("RIGHT"), "RIGHT")] * 3
    steps += [(lambda: page.key("Enter"), "OK")]  # P1 plays the king of spades
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
    page.key("Escape", long=True)  # a long BACK (`l` Esc): home
    sim.dev.long("BACK")
    sim.settle()
    page.matches(sim, "long-back-home")
    # down the home menu to Stress (its place depends on the entries: a saved game
    # adds "Resume ..."), by clicks and keys in turn
    menu = sim.dev.screen.menu
    downs = menu.items.index("Stress") - menu.index
    assert downs >= 0, menu.items
    for i in range(downs):
        page.click("DOWN") if i % 2 == 0 else page.key("ArrowDown")
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
    page.key("Enter")  # the 3-2-1 countdown to the flip
    sim.dev.press("OK")
    sim.dev.step(3500)
    page.matches(sim, "stress-flip")  # after the flip: 3 s of the page's countdown
    page.click("BACK")  # no centre cards entered
    sim.dev.press("BACK")
    page.click("CALL1")  # P1 calls
    sim.dev.call(1)
    sim.dev.step(1000)
    page.matches(sim, "stress-call")
    page.key("Enter")  # the table rules on the call (the default ruling): the call's
    sim.dev.press("OK")  # lines reach the journal (they wait in RAM until then)
    sim.settle()
    page.matches(sim, "stress-ruled")
    lines = page.journal().split("\n")
    assert [re.sub(r"^@\d+ ", "", ln) for ln in lines] == \
        [re.sub(r"^@\d+ ", "", ln) for ln in sim.journal().split("\n")]
    stamps = {ln.split()[-1]: int(ln.split()[0][1:]) for ln in lines if ln.startswith("@") and "P1" in ln}
    assert set(stamps) == {"down", "up"}, lines
    held_us = stamps["up"] - stamps["down"]
    assert abs(held_us - 60_000) <= 1, held_us  # a tap: MIN_HOLD_MS, stamped in us by the page's clock


PHONE_WIDTHS = (360, 390, 420)  # CSS px: small Android phones to the largest iPhones
THUMB_PX = 44  # the smallest button a thumb hits reliably (Apple's and Google's guides)


@pytest.mark.parametrize("width", PHONE_WIDTHS)
def test_on_a_phone_every_button_is_on_the_screen_and_works(site, tmp_path, width):
    """The page on a phone held upright (Chromium's mobile emulation: the viewport, a
    device pixel ratio of 3, touch): it lays out no wider than the screen, the whole
    panel shows, and every button (BACK and P4 too) lies inside the screen's width, is
    big enough for a thumb and is the element under its own centre, so a tap reaches
    it. Taps work: OK opens Stack 31, BACK comes home, P4's edges reach the device."""
    driver = web.start_chromium(str(tmp_path / "profile"), phone_width=width)
    try:
        driver.set_page_load_timeout(60)
        driver.get(site)
        web.wait_ready(driver)
        page = Page(driver, site, str(tmp_path))
        page.settle("start")
        layout = driver.execute_script("""
            const r = (el) => { const b = el.getBoundingClientRect();
              return {left: b.left, right: b.right, top: b.top + scrollY, width: b.width, height: b.height}; };
            const out = {inner: innerWidth, scroll: document.documentElement.scrollWidth,
                         canvas: r(document.getElementById('panel')), buttons: {}};
            for (const el of document.querySelectorAll('[data-button]')) out.buttons[el.dataset.button] = r(el);
            return out;""")
        assert layout["inner"] == width
        assert layout["scroll"] <= width, layout  # nothing wider than the screen
        canvas = layout["canvas"]
        assert canvas["left"] >= 0 and canvas["right"] <= width, canvas
        assert canvas["width"] >= 2 * 128 and abs(canvas["width"] - 2 * canvas["height"]) <= 1, canvas
        assert set(layout["buttons"]) == {"UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK",
                                          "CALL1", "CALL2", "CALL3", "CALL4"}
        for name, box in layout["buttons"].items():
            assert box["left"] >= 0 and box["right"] <= width, (name, box)
            assert box["width"] >= THUMB_PX and box["height"] >= THUMB_PX, (name, box)
            hit = driver.execute_script("""
                const el = document.querySelector('[data-button="' + arguments[0] + '"]');
                el.scrollIntoView({block: 'center'});
                const b = el.getBoundingClientRect();
                const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
                return !!at && (at === el || el.contains(at));""", name)
            assert hit, name + " is covered by another element"
        home = page.canvas().tobytes()
        page.click("OK")  # Stack 31: the new-game screen
        assert page.canvas().tobytes() != home, driver.execute_script("return window.tabletop.inputs")
        page.click("BACK")
        deadline = time.monotonic() + MATCH_S
        while page.canvas().tobytes() != home:
            assert time.monotonic() < deadline, "BACK did not come home"
            time.sleep(0.1)
        # a journal's long line (a checkpoint record) scrolls in its box, not the page
        wide = driver.execute_script("""
            const pre = document.getElementById('journal');
            pre.classList.remove('empty');
            pre.textContent = 'game stack31 players 3\\n#= ' + 'x'.repeat(400);
            return [document.documentElement.scrollWidth, pre.getBoundingClientRect().right];""")
        assert wide[0] <= width and wide[1] <= width, wide
        for name in ("BACK", "CALL4"):  # a real tap through chromedriver reaches them
            page.real_click(name)
            edges = driver.execute_script("return window.tabletop.inputs")
            assert [e[1:] for e in edges[-2:]] == [[name, 1], [name, 0]], edges
    finally:
        driver.quit()
