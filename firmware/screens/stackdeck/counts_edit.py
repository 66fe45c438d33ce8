"""Stack the Deck: the counters' rare paths, loaded when used (the counters are open
for every player of every round; these are not): what the checker found as counts,
the player's counts lines replaced in place, and the questions before a save."""

from core.stackdeck.counts import COUNTS


def floor(actions):
    """The player's named stacks as counts (pairs, one-colour pairs, runs, one-colour
    runs, unturned, their wilds): what the counters cannot go below."""
    from core.stackdeck import stacks as st
    out = [0] * 6
    for _, a in actions:
        if a[1] == "turned" or a[1] == "unturned":
            for s in a[2]:
                if a[1] == "turned":
                    out[(0 if st.complete_kind(s) == st.PAIR else 2)
                        + (1 if st.one_colour(s) else 0)] += 1
                else:
                    out[4] += 1
                    out[5] += s.count(st.WILD)
    return out


def replace(target, p, line, keep):
    """Player p's counts lines become LINE (none when not keep), where the first was:
    the round rewritten (IllegalAction: nothing changed)."""
    old = [i for i, a in target.actions(p) if a[1] == COUNTS]
    lines = target.lines()
    new = [lines[i] for i in range(len(lines)) if i not in old]
    if keep:
        new.insert(old[0], line)
    target.edit(new)


def ask(screen, question=None):
    """Before a save: "Save changes?" on BACK (question None: OK saves, BACK
    discards), or, editing an ended round, the save in words (`question`)."""
    from firmware.screens.stackdeck.ask import Ask
    app = screen.app
    if question is None:
        app.push(Ask(app, "Save changes?", lambda: screen.save(True, False), app.pop,
                     "OK: save", "BACK: discard"))
    else:
        app.push(Ask(app, question, lambda: screen.save(True)))
