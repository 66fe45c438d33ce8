"""Letting modules go: on a board the bytecode of an imported module sits in the heap
until the module is dropped, so screens that are closed give their modules back
(firmware.app at the home menu, the settings pages after a look at a game's options).
Its own module so that the screens need not import the app loop (no import circle)."""

import sys

# A message a module leaves for later when it may be dropped before it is shown
# (firmware.archive.store: the oldest games dropped for room on a full flash, said by History).
said = None


def forget_module(name):
    """Drop a module from sys.modules and from its package (so that its code is
    garbage once no object of it is alive)."""
    module = sys.modules.pop(name, None)
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot]) if dot > 0 else None
    if module is not None and parent is not None and \
            getattr(parent, name[dot + 1:], None) is module:
        try:
            delattr(parent, name[dot + 1:])
        except Exception:  # noqa: BLE001
            pass


def forget_new_modules(before):
    """Drop the modules imported since `before` (a set of names), on MicroPython."""
    if sys.implementation.name != "micropython":
        return
    for name in list(sys.modules):
        if name not in before:
            forget_module(name)
