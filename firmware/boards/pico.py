"""Pin map: Raspberry Pi Pico (RP2040). The default board.

Plain constants only. Buttons are active low: each switch between its GPIO and GND,
internal pull-ups on (no resistors needed). The navigation tuple order is the
button numbering of firmware.drivers.buttons (UP, DOWN, LEFT, RIGHT, OK, BACK).

Wiring (physical pin numbers of the Pico's 40-pin header):

    part              GPIO   Pico pin   other side
    ----------------  -----  ---------  ----------------------------
    OLED SDA (I2C0)   GP4    6          SSD1306 SDA
    OLED SCL (I2C0)   GP5    7          SSD1306 SCL
    OLED VCC / GND    -      36 / 38    3V3(OUT) / GND
    button UP         GP10   14         GND (pin 13)
    button DOWN       GP11   15         GND
    button LEFT       GP12   16         GND
    button RIGHT      GP13   17         GND (pin 18)
    button OK         GP14   19         GND
    button BACK       GP15   20         GND
    call P1 (Stress)  GP16   21         GND (pin 23)
    call P2 (Stress)  GP17   22         GND
    call P3 (Stress)  GP18   24         GND
    call P4 (Stress)  GP19   25         GND (pin 28)
    piezo (PWM 2A)    GP20   26         piezo +, piezo - to GND (pin 28)

GP0/GP1 (UART0 for a serial console), GP25 (on-board LED) and GP26-28 (ADC) stay free.
"""

NAME = "Raspberry Pi Pico"

I2C_ID = 0
I2C_SDA = 4
I2C_SCL = 5
I2C_FREQ = 400000
OLED_ADDR = 0x3C
OLED_WIDTH = 128
OLED_HEIGHT = 64

BTN_UP = 10
BTN_DOWN = 11
BTN_LEFT = 12
BTN_RIGHT = 13
BTN_OK = 14
BTN_BACK = 15
NAV_PINS = (BTN_UP, BTN_DOWN, BTN_LEFT, BTN_RIGHT, BTN_OK, BTN_BACK)

CALL_P1 = 16
CALL_P2 = 17
CALL_P3 = 18
CALL_P4 = 19
CALL_PINS = (CALL_P1, CALL_P2, CALL_P3, CALL_P4)

BUZZER = 20  # None when no piezo is fitted
LED = 25

ACTIVE_LOW = True
STORAGE_ROOT = "/"
