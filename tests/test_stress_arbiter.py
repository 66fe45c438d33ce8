"""The call arbiter on its own, fed like the device feeds it: wrapped ticks, raw edges.

Each test names the rule of seeds/stress.md it checks (STR-12 to STR-21)."""

from core.stress.arbiter import (
    BOUNCE, CALL, LATE, PRESS, TICKS_HALF, TICKS_MAX, TICKS_PERIOD, Arbiter, ticks_add,
    ticks_diff)


def feed(arbiter, edges):
    """edges: (button, 'd'/'u', t) -> the results."""
    return [arbiter.edge(b, what == "d", t & TICKS_MAX) for b, what, t in edges]


def decision(a):
    return (a.winner(), a.tie(), a.margin_us(), a.loser())


def armed(players=2, at=0, **kw):
    a = Arbiter(players, now=at, **kw)
    a.arm(at)
    return a


def test_STR_18_ticks_diff_is_micropythons():
    for end, start in ((5, 3), (3, 5), (0, TICKS_MAX), (TICKS_MAX, 0), (TICKS_HALF, 0),
                       (0, TICKS_HALF), (TICKS_HALF - 1, 0), (123, 123)):
        expect = ((end - start + TICKS_HALF) & TICKS_MAX) - TICKS_HALF
        assert ticks_diff(end, start) == expect
        assert -TICKS_HALF <= ticks_diff(end, start) < TICKS_HALF
    assert ticks_diff(2, TICKS_MAX - 1) == 4
    assert ticks_add(TICKS_MAX, 3) == 2 and ticks_add(1, -3) == TICKS_MAX - 1


def test_STR_18_wrap_between_two_presses_at_every_offset():
    for start in (0, TICKS_MAX - 1500, TICKS_MAX - 1, TICKS_MAX, TICKS_HALF - 300):
        a = armed(at=start)
        feed(a, [(1, "d", start + 1000), (0, "d", start + 1600)])
        assert decision(a) == (1, False, 600, 0), start
        a = armed(at=start)
        feed(a, [(0, "d", start + 1000), (1, "d", start + 1001)])
        assert decision(a) == (None, True, 1, None), start


def test_STR_18_long_silences_through_poll_and_advance():
    a = Arbiter(2)
    feed(a, [(0, "d", 100), (0, "u", 200)])
    t = 200
    for _ in range(40):  # ten minutes, polled every 15 s: ticks wrap several times
        t += 15000000
        a.poll(t & TICKS_MAX)
    a.arm(t & TICKS_MAX)
    assert feed(a, [(0, "d", t + 5)]) == [CALL]
    # one silence longer than the half period, told with advance()
    a = Arbiter(2)
    feed(a, [(1, "d", 100), (1, "u", 200)])
    a.advance(3 * TICKS_PERIOD + 12345)
    now = (200 + 3 * TICKS_PERIOD + 12345) & TICKS_MAX
    a.arm(now)
    assert feed(a, [(1, "d", now)]) == [CALL]
    # margin across a long open call, counted exactly
    a = armed()
    feed(a, [(0, "d", 10)])
    t = 10
    for _ in range(100):
        t += 10000000
        a.poll(t & TICKS_MAX)
    feed(a, [(1, "d", t + 1)])
    assert a.margin_us() == 1000000001


def test_STR_12_bounce_on_press():
    a = armed()
    res = feed(a, [(0, "d", 1000), (0, "u", 1040), (0, "d", 1090), (0, "u", 1500),
                   (0, "d", 1600)])
    assert res == [CALL, BOUNCE, BOUNCE, BOUNCE, BOUNCE]
    assert a.pressed_at(0) == 1000 and decision(a) == (0, False, None, 1)


def test_STR_12_bounce_on_release_is_not_a_second_press():
    a = armed(debounce_us=20000)
    feed(a, [(0, "d", 1000), (0, "u", 90000)])
    assert feed(a, [(0, "d", 90300), (0, "u", 90350), (0, "d", 109999)]) == [BOUNCE] * 3
    a.arm(120000)
    assert feed(a, [(0, "u", 120000), (0, "d", 140000)]) == [BOUNCE, CALL]


def test_STR_12_the_debounce_limit_is_inclusive():
    for gap, expect in ((19999, BOUNCE), (20000, CALL)):
        a = Arbiter(2)
        feed(a, [(0, "d", 0), (0, "u", 50000)])
        a.arm(50000)
        assert feed(a, [(0, "d", 50000 + gap)]) == [expect]


def test_STR_12_a_never_pressed_button_is_settled():
    a = armed(at=TICKS_MAX)
    assert feed(a, [(1, "d", TICKS_MAX)]) == [CALL]


def test_STR_13_presses_before_the_arm_are_not_calls():
    a = Arbiter(2)
    assert feed(a, [(0, "d", 10), (0, "u", 50000), (1, "d", 60000)]) == [PRESS, BOUNCE, PRESS]
    assert not a.called()
    a.arm(70000)
    assert not a.called() and decision(a) == (None, False, None, None)
    assert feed(a, [(1, "u", 80000), (0, "d", 90000)]) == [BOUNCE, CALL]


def test_STR_13_a_countdown_arm_and_presses_stamped_before_it():
    a = Arbiter(2)
    a.arm(1000, delay_us=3000000)
    assert a.countdown_us(1000) == 3000000 and a.countdown_us(2500000) == 501000
    assert feed(a, [(0, "d", 2000000), (0, "u", 2100000)]) == [PRESS, BOUNCE]
    assert a.countdown_us(3001000) == 0
    assert feed(a, [(1, "d", 3001000)]) == [CALL]
    # an edge stamped before the arm but delivered after it
    a = Arbiter(2)
    a.poll(5000)
    a.arm(5000)
    assert feed(a, [(0, "d", 4990)]) == [PRESS] and not a.called()
    a.disarm()
    assert a.countdown_us(6000) is None


def test_STR_13_held_through_the_arm():
    a = Arbiter(2)
    feed(a, [(0, "d", 100)])
    a.arm(200)
    assert feed(a, [(0, "d", 300), (1, "d", 400)]) == [BOUNCE, CALL]
    a.arm(500)  # resume: P2 still held, P1 still held
    assert feed(a, [(1, "d", 600), (0, "u", 700), (0, "d", 5000), (0, "u", 5100),
                    (0, "d", 25100)]) == [BOUNCE, BOUNCE, BOUNCE, BOUNCE, CALL]


def test_STR_14_later_presses_change_nothing():
    a = armed(players=3)
    assert feed(a, [(2, "d", 100), (0, "d", 5000), (1, "d", 6000), (2, "u", 7000),
                    (2, "d", 50000)]) == [CALL, LATE, LATE, BOUNCE, LATE]
    assert decision(a) == (2, False, 4900, 1)
    assert a.pressed_at(2) == 100


def test_STR_15_within_one_microsecond_and_equal_stamps():
    a = armed(tie_window_us=0)
    feed(a, [(0, "d", 1000), (1, "d", 1001)])
    assert decision(a) == (0, False, 1, 1)
    a = armed(tie_window_us=0)
    feed(a, [(1, "d", 1000), (0, "d", 1000)])
    assert decision(a) == (None, True, 0, None)
    a = armed()
    feed(a, [(1, "d", 1000), (0, "d", 1001)])
    assert decision(a) == (None, True, 1, None)


def test_STR_15_the_screen_can_tell_when_the_decision_is_known():
    a = armed(players=3)
    feed(a, [(0, "d", 1000)])
    assert not a.winner_known(1400) and a.winner_known(1501)
    assert a.since_call_us(1400) == 400
    assert not a.loser_known(900000) and a.loser_known(1001001)
    feed(a, [(1, "d", 1200)])
    assert a.winner_known(1200) and a.tie()
    feed(a, [(2, "d", 300000)])
    assert a.loser_known(300000) and a.loser() == 2


def test_STR_16_loser_rules():
    a = armed(players=4, slow_window_us=100000)
    feed(a, [(3, "d", 10), (0, "d", 20000), (1, "d", 50000)])
    assert a.loser() == 2  # the one who did not press
    feed(a, [(2, "d", 150000)])  # too late to count: still last
    assert a.loser() == 2
    a = armed(players=4, slow_window_us=100000)
    feed(a, [(3, "d", 10), (0, "d", 20000), (1, "d", 50000), (2, "d", 90000)])
    assert a.loser() == 2 and a.winner() == 3


def test_STR_20_no_new_objects_per_edge():
    a = armed(players=4)
    before = [id(x) for x in (a._closed, a._opened, a._settled, a._press)]
    t = TICKS_MAX - 50000
    for i in range(2000):
        a.edge(i % 4, i % 2 == 0, t & TICKS_MAX)
        t += 37
    assert [id(x) for x in (a._closed, a._opened, a._settled, a._press)] == before


def test_STR_21_out_of_order_delivery_between_buttons():
    a = armed()
    assert feed(a, [(1, "d", 2000), (0, "d", 1000)]) == [CALL, CALL]
    assert decision(a) == (0, False, 1000, 1)  # the stamps decide, not the delivery


def test_STR_22_save_and_restore():
    a = armed(players=3)
    feed(a, [(0, "d", 10), (1, "d", 20)])
    saved = a.save()
    feed(a, [(0, "u", 30), (2, "d", 90000)])
    a.arm(100000)
    a.restore(saved)
    assert a.save() == saved and decision(a) == (None, True, 10, 2)


def test_STR_16_the_slow_window_limit_is_inclusive():
    for gap, expect in ((100000, 2), (100001, None)):
        a = armed(players=3, slow_window_us=100000)
        feed(a, [(0, "d", 10), (1, "d", 10 + gap), (2, "d", 11 + gap)])
        assert a.loser() == expect, gap  # P2 in time: P3 alone is late; else both are
