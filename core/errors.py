"""The one error the rules core raises for a refused line or action."""


class IllegalAction(Exception):
    """An action or a line the rules refuse. The state is left exactly as it was.

    `reason` is short plain English, fit for a 21-character screen line where it can be.
    """

    def __init__(self, reason):
        super().__init__(reason)  # Exception.__init__ does not exist on MicroPython
        self.reason = reason

    def __str__(self):
        return self.reason
