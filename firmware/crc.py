"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

Pure Python, table driven (a 512-byte array built once at import), the same results
on CPython and MicroPython. crc16(b"123456789") == 0x29B1.
"""

from array import array


def _table():
    t = array("H", [0] * 256)
    for i in range(256):
        c = i << 8
        for _ in range(8):
            if c & 0x8000:
                c = ((c << 1) ^ 0x1021) & 0xFFFF
            else:
                c = (c << 1) & 0xFFFF
        t[i] = c
    return t


_T = _table()


def crc16(data, crc=0xFFFF):
    """CRC of a bytes-like object; pass a previous result as crc to continue."""
    t = _T
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc
