"""The narrow hardware layer the app runs on: display, buttons, clock, storage, buzzer.

    hw = open_hardware(board, machine, clock, root)
    hw.display    SSD1306_I2C (firmware/drivers/ssd1306.py, a framebuf.FrameBuffer), or None
                  when the panel does not answer (hw.problems says why)
    hw.buttons    firmware.drivers.buttons.Buttons (poll(now_us) -> (events, calls))
    hw.clock      the clock given (firmware.drivers.clock.Clock on the board)
    hw.storage    firmware.storage.Storage rooted at root (interrupted atomic
                  writes already recovered: hw.recovered lists what was done)
    hw.buzzer     firmware.drivers.buzzer.Buzzer (silent when the board has no BUZZER pin)
    hw.board, hw.board_name, hw.machine, hw.i2c, hw.problems (list of short strings)
    hw.reset()    machine.reset(); hw.deinit() lets go of pins and PWM

Every argument has a default: the Pico pin map, the real `machine`, a new Clock, and
the board's STORAGE_ROOT. The display driver is imported only here, when it is
needed, so everything else works without it.
"""


def open_hardware(board=None, machine=None, clock=None, root=None, fs=None,
                  display=True, ring_size=64):
    if board is None:
        from firmware.boards import pico as board
    if machine is None:
        import machine
    if clock is None:
        from firmware.drivers.clock import Clock
        clock = Clock()
    if root is None:
        root = getattr(board, "STORAGE_ROOT", "/")
    from firmware.drivers.buttons import Buttons
    from firmware.drivers.buzzer import Buzzer
    from firmware.storage import Storage

    # Opened here rather than in Hardware.__init__: once the app runs, this module can
    # be let go (firmware.start does on a board) and only the class below stays.
    problems = []
    storage = Storage(root, fs)
    try:
        recovered = storage.recover()
    except OSError as e:
        recovered = []
        problems.append("storage: %s" % (e,))
    Pin = machine.Pin
    i2c = machine.I2C(board.I2C_ID, scl=Pin(board.I2C_SCL), sda=Pin(board.I2C_SDA),
                      freq=board.I2C_FREQ)
    panel = None
    if display:
        try:
            import firmware.drivers.ssd1306 as driver
        except ImportError as e:
            problems.append("no display driver: %s" % (e,))
        else:
            # through getattr: hw.display is any object with the FrameBuffer methods plus
            # show/contrast/poweron/poweroff (the app may put a stand-in there)
            try:
                panel = getattr(driver, "SSD1306_I2C")(
                    board.OLED_WIDTH, board.OLED_HEIGHT, i2c, addr=board.OLED_ADDR)
            except OSError as e:
                problems.append("display not answering at 0x%02x (%s)" % (board.OLED_ADDR, e))
    return Hardware(board, machine, clock, storage, recovered, problems, i2c, panel,
                    Buttons(machine, board, clock, ring_size),
                    Buzzer(machine, getattr(board, "BUZZER", None), clock))


class Hardware:
    """What open_hardware opened (the attributes in the module's docstring)."""

    def __init__(self, board, machine, clock, storage, recovered, problems, i2c, display,
                 buttons, buzzer):
        self.board = board
        self.board_name = getattr(board, "NAME", "board")
        self.machine = machine
        self.clock = clock
        self.storage = storage
        self.recovered = recovered
        self.problems = problems
        self.i2c = i2c
        self.display = display
        self.buttons = buttons
        self.buzzer = buzzer

    def reset(self):
        self.machine.reset()

    def deinit(self):
        self.buttons.deinit()
        self.buzzer.deinit()
