"""The game in play goes to the archive (a new game started over it, or History opened
on a game that is over), in two steps that never share a board's heap: its transcript
summarised (firmware.archive.summary, the replay with the game's rules, and the
journal's reader), those modules let go, then the row committed by the index writer
(firmware.archive.store, with the index reader it builds on: about 14 KB on the unix
port that the replay no longer has beside it; the evening of tools/bench_heap ran out
of memory in the replay there).

    go, said = before_new(app)     the new-game screen (firmware.screens.home_menu)
    said = for_history(app)        History, on a game in play that is over
"""

import gc
import sys

IN_PLAY = "game.txt"  # firmware.archive.store.IN_PLAY, firmware.session.JOURNAL


def before_new(app):
    """Before a new game's journal is started: (go on, what to say or None); never
    raises. When the game in play could not be archived it stays in play and the new
    game must not start."""
    return _keep(app, None, "Not started: %s")


def for_history(app):
    """What to say, or None; never raises ("Game not archived: ..." and the game stays
    in play)."""
    return _keep(app, "end", "Game not archived: %s")[1]


def _summary(storage):
    """The summary of the game in play; the modules its replay loaded go again (on a
    board), so the index writer loads into the room they leave."""
    before = set(sys.modules)
    from firmware.archive.summary import summarize
    try:
        return summarize(storage, IN_PLAY)
    finally:
        summarize = None
        from firmware.modules import forget_new_modules
        forget_new_modules(before)
        gc.collect()


def _keep(app, status, failed):
    """(archived or gone, what to say). The session is let go first, so that the replay
    has its heap (the transcript on flash is the same game); when the game could not
    be archived it is read back from flash (Session.resume, as at power-up) and stays
    in play, and `failed` % the reason is said (no game on flash any more: History says
    it, a new game starts)."""
    app.session = None
    gc.collect()
    storage = app.hw.storage
    try:
        summary = _summary(storage) if storage.exists(IN_PLAY) else None
        from firmware.archive.store import for_app
        return True, for_app(app).keep(status, summary, True)
    except Exception as e:  # noqa: BLE001 - never the error screen for this
        app._log(e)
        from firmware.archive.read import why
        if not storage.exists(IN_PLAY):  # archived, but not all went well
            return True, (failed % why(e)) if status else None
        try:
            app.resume_saved()
        except Exception as e2:  # noqa: BLE001
            app._log(e2)
        return False, failed % why(e)
