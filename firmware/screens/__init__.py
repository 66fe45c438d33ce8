"""Screens: the menus, settings and questions here, a folder per game and one for History.
Game screens are imported only when a game is opened (heap on the board). Imports core,
the session, the drivers' buttons and firmware.ui; the app imports it."""



def game_screen(app, session):
    import gc
    module_name, class_name = {
        "stack31": ("firmware.screens.stack31", "Stack31Screen"),
        "stackdeck": ("firmware.screens.stackdeck.scoreboard", "StackDeckScreen"),
        "stress": ("firmware.screens.stress", "StressScreen"),
    }[session.name]
    # A game's screens are the biggest code loaded at once: give them a clean heap (what
    # the menus just let go, e.g. the settings store after saving the player count).
    gc.collect()
    module = __import__(module_name, None, None, (class_name,))
    return getattr(module, class_name)(app, session)
