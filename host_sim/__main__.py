"""python -m host_sim [OPTIONS]            the device in this terminal (host_sim.terminal)
python -m host_sim script FILE [...]       a scripted run, headless (host_sim.script)
python -m host_sim replay FILE             a transcript applied, the state as JSON
python -m host_sim report FILE_OR_FOLDER... --out DIR
                                           charts and tables of played games (host_sim.report)"""

import sys


def main(argv):
    if argv and argv[0] == "replay":
        from host_sim import replay
        return replay.main(argv[1:])
    if argv and argv[0] == "report":
        from host_sim import report
        return report.main(argv[1:])
    if argv and argv[0] == "script":
        from host_sim import script
        return script.main(argv[1:])
    if argv and argv[0] in ("help", "-h", "--help"):
        sys.stdout.write(__doc__ + "\n")
        from host_sim import terminal
        sys.stdout.write("\n" + terminal.__doc__)
        return 0
    if argv and not argv[0].startswith("-"):
        sys.stderr.write("usage: python -m host_sim [--board B] [--speed X] [--dir D]\n"
                         "       python -m host_sim script FILE [--out DIR]\n"
                         "       python -m host_sim replay FILE\n"
                         "       python -m host_sim report FILE_OR_FOLDER... --out DIR\n")
        return 2
    from host_sim import terminal
    return terminal.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
