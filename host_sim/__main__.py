"""python -m host_sim [replay FILE | ...]"""

import sys


def main(argv):
    if argv and argv[0] == "replay":
        from host_sim import replay
        return replay.main(argv[1:])
    sys.stderr.write("usage: python -m host_sim replay FILE\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
