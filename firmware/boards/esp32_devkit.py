"""Pin map: ESP32 DevKit (ESP32-WROOM-32, 30/38-pin DevKitC). Second profile.

Plain constants, same names as boards/pico.py. Buttons active low, switch to GND,
internal pull-ups. GPIO 34-39 have no pull-ups and 0, 2, 5, 12, 15 are strapping
pins, so none of them is used for a button.

    part              GPIO   DevKitC label
    ----------------  -----  -------------
    OLED SDA (I2C0)   21     D21 / G21
    OLED SCL (I2C0)   22     D22 / G22
    button UP         32     D32
    button DOWN       33     D33
    button LEFT       25     D25
    button RIGHT      26     D26
    button OK         27     D27
    button BACK       14     D14
    call P1 (Stress)  16     RX2 (not free on WROVER: PSRAM)
    call P2 (Stress)  17     TX2 (not free on WROVER: PSRAM)
    call P3 (Stress)  18     D18
    call P4 (Stress)  19     D19
    piezo (LEDC PWM)  23     D23
"""

NAME = "ESP32 DevKit"

I2C_ID = 0
I2C_SDA = 21
I2C_SCL = 22
I2C_FREQ = 400000
OLED_ADDR = 0x3C
OLED_WIDTH = 128
OLED_HEIGHT = 64

BTN_UP = 32
BTN_DOWN = 33
BTN_LEFT = 25
BTN_RIGHT = 26
BTN_OK = 27
BTN_BACK = 14
NAV_PINS = (BTN_UP, BTN_DOWN, BTN_LEFT, BTN_RIGHT, BTN_OK, BTN_BACK)

CALL_P1 = 16
CALL_P2 = 17
CALL_P3 = 18
CALL_P4 = 19
CALL_PINS = (CALL_P1, CALL_P2, CALL_P3, CALL_P4)

BUZZER = 23
LED = 2

ACTIVE_LOW = True
STORAGE_ROOT = "/"
