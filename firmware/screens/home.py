"""The home menu: the three games, settings, about, history (and the saved game, if any).

The screen is this small class; its rows and what they open are built by
firmware/screens/home_menu.py when the menu is shown (not when a game resumed at start
goes straight over it), and dropped again when a game screen goes over it: home stays at
the bottom of the app's screens through a game, but its code does not stay in the heap
(MicroPython). The cursor stays where it was (keys, menu) across the rebuilds.
"""

from firmware.drivers import buttons as b
from firmware.screen import MenuScreen


class HomeScreen(MenuScreen):
    title = "Tabletop companion"
    keys = ()

    def enter(self):
        self.entries = None  # built when shown (home_menu.rows)
        self.app.redraw()

    def _rows(self):
        if self.entries is None:
            from firmware.screens.home_menu import rows
            rows(self)

    def draw(self, fb):
        self._rows()
        MenuScreen.draw(self, fb)

    def on_button(self, kind, button):
        if button == b.BACK:
            return  # nowhere to go back to from home
        self._rows()
        MenuScreen.on_button(self, kind, button)
