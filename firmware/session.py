"""The game in play and its journal, kept in step.

Every accepted action is applied to the game first (the rules refuse what is wrong)
and then appended to the journal on flash, so a power cut loses at most the action
being entered. On start the journal is replayed to resume the game where it stood.
"""

from core import transcript
from core.errors import IllegalAction
from core.games import new_game

JOURNAL = "game.txt"


def set_aside(journal):
    """Keep a journal that cannot be used under another name (journal.bad1, ...)."""
    journal.set_aside()


class Session:
    def __init__(self, game, journal):
        self.game = game
        self.journal = journal

    @classmethod
    def new(cls, journal, name, players, options=None):
        game = new_game(name, players, options)
        journal.start(game.header_lines())
        return cls(game, journal)

    @classmethod
    def resume(cls, journal):
        """(session or None, report or None) from the journal on flash."""
        lines, message = journal.load()
        if not lines:
            return None, message
        try:
            game, error = transcript.replay(lines)
        except (transcript.TranscriptError, IllegalAction) as e:
            set_aside(journal)
            return None, "Saved game unreadable: %s" % e
        if error is not None:
            # Only lines the rules accepted were ever written, so this is damage:
            # keep the good part, set the whole file aside, and say so.
            set_aside(journal)
            journal.start(transcript.write(game))
            return cls(game, journal), "Saved game cut at line %d" % error[0]
        return cls(game, journal), message

    @property
    def name(self):
        return self.game.NAME

    def push(self, action):
        """Apply an action (tuple or line) and journal it. IllegalAction: nothing changed."""
        action = self.game.push(action)
        try:
            self.journal.append(self.game.format(action))
        except OSError:
            self.game.pop()
            raise IllegalAction("storage full: not saved")
        return action

    def undo(self):
        """Take back the last action, on flash too. IllegalAction when there is none."""
        action = self.game.pop()
        try:
            self.journal.pop()
        except OSError:
            self.game.push(action)
            raise IllegalAction("storage full: not saved")
        return action

    def rewrite(self):
        """Write the journal anew from the game (after an edit of history, which is rare:
        the normal path only appends). Atomic: a power cut leaves the old or the new."""
        self.journal.start(transcript.write(self.game))
