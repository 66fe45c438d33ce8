"""The device: the app loop (app.py), screens, and a package per concept (journal,
session, archive, settings, storage, drivers, boards). Imports core; host_sim and tools import it."""
