"""The narrow hardware layer the app runs on: display, buttons, clock, storage, buzzer.

    hw = open_hardware(board, machine, clock, storage_root)
    hw.display    SSD1306_I2C (firmware/ssd1306.py, a framebuf.FrameBuffer), or None
                  when the panel does not answer (hw.problems says why)
    hw.buttons    firmware.buttons.Buttons (poll(now_us) -> (events, calls))
    hw.clock      the clock given (firmware.clock.Clock on the board)
    hw.storage    firmware.storage.Storage rooted at storage_root (interrupted atomic
                  writes already recovered: hw.recovered lists what was done)
    hw.buzzer     firmware.buzzer.Buzzer (silent when the board has no BUZZER pin)
    hw.board, hw.board_name, hw.machine, hw.i2c, hw.problems (list of short strings)
    hw.reset()    machine.reset(); hw.deinit() lets go of pins and PWM

Every argument has a default: the Pico pin map, the real `machine`, a new Clock, and
the board's STORAGE_ROOT. The display driver is imported only here, when it is
needed, so everything else works without it.
"""


def open_hardware(board=None, machine=None, clock=None, storage_root=None, fs=None,
                  display=True, ring_size=64):
    if board is None:
        from firmware.boards import pico as board
    if machine is None:
        import machine
    if clock is None:
        from firmware.clock import Clock
        clock = Clock()
    if storage_root is None:
        storage_root = getattr(board, "STORAGE_ROOT", "/")
    return Hardware(board, machine, clock, storage_root, fs, display, ring_size)


class Hardware:
    def __init__(self, board, machine, clock, storage_root, fs=None, display=True,
                 ring_size=64):
        from firmware.buttons import Buttons
        from firmware.buzzer import Buzzer
        from firmware.storage import Storage

        self.board = board
        self.board_name = getattr(board, "NAME", "board")
        self.machine = machine
        self.clock = clock
        self.problems = []
        self.storage = Storage(storage_root, fs)
        try:
            self.recovered = self.storage.recover()
        except OSError as e:
            self.recovered = []
            self.problems.append("storage: %s" % (e,))
        Pin = machine.Pin
        self.i2c = machine.I2C(board.I2C_ID, scl=Pin(board.I2C_SCL), sda=Pin(board.I2C_SDA),
                               freq=board.I2C_FREQ)
        self.display = self._open_display() if display else None
        self.buttons = Buttons(machine, board, clock, ring_size)
        self.buzzer = Buzzer(machine, getattr(board, "BUZZER", None), clock)

    def _open_display(self):
        b = self.board
        try:
            import firmware.ssd1306 as driver
        except ImportError as e:
            self.problems.append("no display driver: %s" % (e,))
            return None
        # through getattr: hw.display is any object with the FrameBuffer methods plus
        # show/contrast/poweron/poweroff (the app may put a stand-in there)
        SSD1306_I2C = getattr(driver, "SSD1306_I2C")
        try:
            return SSD1306_I2C(b.OLED_WIDTH, b.OLED_HEIGHT, self.i2c, addr=b.OLED_ADDR)
        except OSError as e:
            self.problems.append("display not answering at 0x%02x (%s)" % (b.OLED_ADDR, e))
            return None

    def reset(self):
        self.machine.reset()

    def deinit(self):
        self.buttons.deinit()
        self.buzzer.deinit()
