"""Session.rewrite: the journal written anew after an edit of history (Stack the Deck's
edit of an ended round), a rare path, loaded for it and let go after it on a board
(the format: firmware/journal/__init__.py).

    rewrite(session, game_from_header)
"""

from core.errors import IllegalAction
from firmware.journal import checkpoint_parts
from firmware.journal.new import begin
from firmware.journal.record import ACTION, CHUNK, seal_bytes, void_bytes


def rewrite(s, from_header):
    """Write the journal anew after an edit of history (rare), so that it replays
    to the game's state and resumes with its history (undo):
      - no base checkpoint (the history starts at the beginning): the header and
        the history, a fresh file (atomic);
      - a game whose rounds rebuild its base (Stack the Deck, bounded by its
        rounds): the header, every round's lines, a checkpoint of the base, the
        history, a fresh file streamed (atomic); `moves` then counts the lines of
        that transcript (the game is set to it);
      - otherwise (Stress: an edit inside the history, the base unchanged): the
        records since the base checkpoint are voided in place and the history is
        appended again, in one patch.
    OSError: nothing changed (the caller puts the game back)."""
    game = s.game
    s.held = 0
    s.fill = 0
    j = s.journal
    base = game.base_checkpoint()
    if base is None:
        _write_anew(s, None)
    else:
        rounds = None
        bg = from_header(s.header)
        try:
            bg.restore(base)
            rounds = _round_lines(bg)
        except IllegalAction:
            pass
        if rounds is not None:
            _write_anew(s, base, bg, rounds, from_header)
        elif not j.overflow:  # the stack knows every record since the base
            parts = []
            starts = [0]
            for action in game.history:
                parts.append(seal_bytes(game.format(action)))
                starts.append(starts[-1] + len(parts[-1]))
            off = _void_all(j, b"".join(parts))
            for i in range(len(parts)):
                j.stack_push(off + starts[i], starts[i + 1] - starts[i], ACTION)
        else:  # records the stack does not know: the base as it is (resumes)
            _write_anew(s, base)
    s.ring = []
    s.since = len(game.history)


def _write_anew(s, base, bg=None, rounds=None, from_header=None):
    """The journal as a fresh file, streamed (atomic): header, [the rounds of the
    base position bg, then a checkpoint of it], the history. With rounds the game
    is renumbered to the new transcript (its base: that checkpoint)."""
    game = s.game
    j = s.journal
    new_base = None
    moves = game.moves - len(game.history)
    if rounds is not None:
        fresh = from_header(s.header)
        for lines in rounds:
            for line in lines:
                fresh.push(line)
        a, b = fresh.state(), bg.state()
        a.pop("moves", None)
        b.pop("moves", None)
        if a != b:  # the rounds do not give the base back: keep it as it is
            rounds = None
        else:
            new_base = fresh.checkpoint()
            moves = fresh.moves
        fresh = None
    records = []  # (offset, length) of the history's records in the new file
    w = begin(j, s.header)
    try:
        buf = []
        size = 0
        pos = w.size
        for lines in rounds or ():
            for line in lines:
                rec = seal_bytes(line)
                buf.append(rec)
                size += len(rec)
            if size >= CHUNK:
                pos += size
                w.write(b"".join(buf))
                buf, size = [], 0
        if base is not None:  # sealed into the hold buffer (idle), written in parts
            if buf:
                pos += size
                w.write(b"".join(buf))
                buf, size = [], 0
            block = s.header + (new_base or base)
            parts = checkpoint_parts(block, moves, s.buf)
            pos += next(parts)[0]
            for part in parts:
                w.write(part, 0)
            w.n += len(block) + 1
        for action in game.history:
            rec = seal_bytes(game.format(action))
            records.append((pos + size, len(rec)))
            buf.append(rec)
            size += len(rec)
            if size >= CHUNK:
                pos += size
                w.write(b"".join(buf))
                buf, size = [], 0
        if buf:
            w.write(b"".join(buf))
        w.commit()
    except OSError:
        w.abort()
        raise
    if new_base is not None:  # moves as the new transcript counts them
        history = list(game.history)
        for _ in history:
            game.pop()
        game.restore(new_base)
        for action in history:
            game.push(action)
    for off, length in records:
        j.stack_push(off, length, ACTION)


def _round_lines(game):
    """The lines that rebuild a Stack the Deck position from the start: each ended
    round (`round`, its entries, `end`), then the open round; None for a game that
    has no rounds to rebuild (see Session.rewrite)."""
    entries = getattr(game, "entries", None)
    if entries is None or not hasattr(game, "scores") or not hasattr(game, "open"):
        return None
    out = []
    ended = len(game.scores)
    for r in range(1, ended + 1):
        out.append(["round"] + entries(r) + ["end"])
    if game.open is not None:
        out.append(["round"] + entries(ended + 1))
    return out


def _void_all(j, tail=None):
    """Void every record on the stack and append tail (sealed records) in one
    patch (the newest void first: a power cut leaves a prefix of the old records);
    returns the offset where tail starts. A failure puts it all back."""
    edits = []
    for k in range(j.n - 1, -1, -1):
        edits.append((j.offs[k], void_bytes(j.lens[k])))
    off = j._size()
    if tail:
        j.room(len(tail))
    j._patch_or_back(edits, tail=tail)
    if tail:
        j.size = off + len(tail)
    j.n = 0
    return off
