"""A stand-in UCI engine for the failure tests: ``fake_uci.py MODE``.

MODE ``illegal`` answers a move our rules forbid; ``hang`` never answers ``go``;
``die`` exits when asked to search.
"""

import sys


def main(mode: str) -> None:
    for line in sys.stdin:
        command = line.split()
        if not command:
            continue
        if command[0] == "uci":
            print("id name fake\nuciok", flush=True)
        elif command[0] == "isready":
            print("readyok", flush=True)
        elif command[0] == "go":
            if mode == "die":
                sys.exit(3)
            if mode == "illegal":
                print("info depth 1 score cp 5 nodes 1 pv a1a8 a8a1\nbestmove a1a8", flush=True)
        elif command[0] == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1])
