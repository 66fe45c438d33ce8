"""A settings file that is JSON but not an object ([] or "" or a number) is damage like
any other (issue 22): "Settings file damaged: reset", the defaults, and the file kept
as settings.badN; before, the boot read (firmware.settings.read) found no key in it to
refuse and took it silently as the defaults, leaving it as it was."""

import pytest

from firmware.settings import Settings, defaults
from firmware.storage import Storage
from tests.fw_helpers import new_device
from tests.test_fw_settings import write_settings

NOT_OBJECTS = (b"[]", b'""', b"7", b"null", b"true", b'"players"', b"[]\n")


@pytest.mark.parametrize("junk", NOT_OBJECTS)
def test_json_that_is_not_an_object_is_damage(tmp_path, junk):
    (tmp_path / "settings.json").write_bytes(junk)
    st = Storage(str(tmp_path))
    s = Settings(st)
    assert s.report == "Settings file damaged: reset"
    assert s.data == defaults()
    assert st.read_bytes(s.details["aside"]) == junk and s.details["aside"] == "settings.bad1"
    assert Settings(st).report is None  # the defaults were written: said once


@pytest.mark.parametrize("junk", (b"[]", b'""'))
def test_the_device_says_so_at_boot(tmp_path, junk):
    write_settings(tmp_path, None, raw=junk)
    dev = new_device(tmp_path)
    assert dev.app.toast_text() == ["Settings file", "damaged: reset"]
    assert (tmp_path / "flash" / "settings.bad1").read_bytes() == junk
    assert new_device(tmp_path).app.toast_text() is None
