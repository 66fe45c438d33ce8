# Starts the card-table companion (hold BACK while powering up to skip it).
# Never ends in the REPL because of an error: firmware.start.main logs it, moves a
# journal that cannot be loaded aside, and resets; this is the last guard around it.
try:
    from firmware import start

    start.main()
except KeyboardInterrupt:
    raise
except Exception as e:  # noqa: BLE001
    try:
        import sys

        with open("error.log", "a") as f:
            sys.print_exception(e, f)
    except Exception:  # noqa: BLE001
        pass
    import machine
    import time

    time.sleep(2)
    machine.reset()
