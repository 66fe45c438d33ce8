"""One pin map per board (pico.py, esp32_devkit.py): data only. Imported by firmware.start
and the hardware layer (firmware.drivers.hardware); imports nothing."""
