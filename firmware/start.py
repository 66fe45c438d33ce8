"""Start the device: pick the board's pin map, open the hardware layer, run the app.

Hold BACK while powering up to skip the app and land in the REPL (for mpremote).
"""

import sys


def board_module(name=None):
    """The pin map: named, or from the port we run on (rp2 -> Pico, esp32 -> DevKit)."""
    if name is None:
        name = "esp32_devkit" if sys.platform == "esp32" else "pico"
    module = __import__("firmware.boards." + name, None, None, ("NAME",))
    return module


def build(machine, board, clock, root, fs=None):
    """The app on a hardware layer: shared by the board and the simulator."""
    from firmware import session
    from firmware.journal import Journal

    # The big buffers that live as long as the app first, while the heap is still in
    # one piece (allocated later, between the modules' code, they would need holes of
    # 4 KB that a fragmented heap no longer has): the journal's record stack and the
    # session's hold buffer.
    import gc
    if hasattr(gc, "threshold"):
        # MicroPython: collect after every 16 KB allocated, not only when an allocation
        # finds no room: a resume or a burst of presses then leaves its garbage in small
        # patches instead of spreading it over the heap, and the long-lived objects
        # allocated meanwhile stay packed (tools/bench_heap, smallest heap for the
        # Stress session: 188 -> 172 KB; the largest free block after start 6.7 -> 48
        # KB). A collection costs a few ms on a Pico.
        gc.threshold(16 * 1024)
    journal = Journal(None, session.JOURNAL)
    session._hold_buffers()
    from firmware.app import App
    from firmware.drivers.hardware import open_hardware
    from firmware.settings import Settings

    hw = open_hardware(board, machine, clock, root, fs=fs)
    if sys.implementation.name == "micropython":
        # start-only code: once the hardware is open its module goes (hw keeps its
        # class and two methods)
        from firmware.modules import forget_module
        open_hardware = None
        forget_module("firmware.drivers.hardware")
    setattr(journal, "storage", hw.storage)  # its storage is known from here on
    if hw.display is None:
        # No panel answered: keep the game going (journal, buzzer) on a screen nobody
        # sees, rather than stop; the problem goes to the log.
        from firmware.drivers.nodisplay import NoDisplay
        hw.display = NoDisplay(board.OLED_WIDTH, board.OLED_HEIGHT)
    settings = Settings(hw.storage)  # loads at once; never raises on a bad file
    app = App(hw, settings, journal)
    app.report = settings.report
    return app


def _log(root, error):
    try:
        from firmware.app import format_error
        text = format_error(error)
    except Exception:  # noqa: BLE001
        text = "%s: %s\n" % (type(error).__name__, error)
    try:
        with open(root.rstrip("/") + "/" + "error.log", "a") as f:  # app's name too
            f.write(text)
    except Exception:  # noqa: BLE001
        pass


def main(board_name=None):
    """Run the app; never end in the REPL. If building or running the app fails (a
    MemoryError at power-up, say), the error goes to error.log; the second failure
    moves the journal aside (kept as game.badN, never deleted); the third resets the
    board."""
    import gc
    import machine
    from firmware.drivers.clock import Clock

    board = board_module(board_name)
    if machine.Pin(board.BTN_BACK, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        print("BACK held at power-up: app not started")
        return None
    for attempt in range(3):
        try:
            app = build(machine, board, Clock(), board.STORAGE_ROOT)
            # A simulated board's stand-in machine offers sim_idle (scripted presses, a
            # panel that writes its frames out); a real board's machine has none.
            app.run(getattr(machine, "sim_idle", None))
            return None
        except KeyboardInterrupt:
            raise
        except Exception as e:  # noqa: BLE001 - never a dead board
            app = None
            gc.collect()
            _log(board.STORAGE_ROOT, e)
            if attempt == 1:
                try:
                    from firmware.journal import Journal
                    from firmware.session import JOURNAL
                    from firmware.storage import Storage
                    Journal(Storage(board.STORAGE_ROOT), JOURNAL).set_aside()
                except Exception:  # noqa: BLE001
                    pass
            gc.collect()
    machine.reset()
