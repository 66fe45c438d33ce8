# Runs first at power-up. Kept empty on purpose: everything starts from main.py,
# and a broken boot.py is the one file that can lock a player out of the board.
