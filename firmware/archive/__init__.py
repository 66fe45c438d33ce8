"""Past games on flash: kept and budgeted (store.py), read for History (read.py),
repaired (fix.py). Imports the journal and storage, never the session; the app and History import it."""
