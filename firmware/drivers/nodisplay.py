"""A screen nobody sees: the app keeps working when the panel does not answer."""

import framebuf


class NoDisplay(framebuf.FrameBuffer):
    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)

    def show(self, full=False):
        pass

    def poweron(self):
        pass

    def poweroff(self):
        pass

    def contrast(self, value):
        pass

    def invert(self, on):
        pass
