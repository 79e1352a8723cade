package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A burst of SIP messages runs the proxy's timers once per interval, not once per message. */
class TimerScansTest {
    private static final long MS = 1_000_000L;

    @Test
    void aThousandMessagesInOneSecondScanAtMostOncePerInterval() {
        TimerScans scans = new TimerScans(20 * MS);
        int scanned = 0;
        long now = 5_000 * MS;
        for (int i = 0; i < 1000; i++, now += MS) {
            if (scans.scanNow(now, true)) {
                scanned++;
            } else {
                assertThat(scans.nextScanNanos() - now).isBetween(1L, 20 * MS);
            }
        }
        assertThat(scanned).isBetween(50, 51);
    }

    @Test
    void withoutAnArmedTimerEveryMessageScans() {
        TimerScans scans = new TimerScans(20 * MS);
        assertThat(scans.scanNow(0, true)).as("the first scan is never deferred").isTrue();
        assertThat(scans.scanNow(MS, false)).isTrue();
        assertThat(scans.scanNow(2 * MS, false)).isTrue();
        assertThat(scans.scanNow(3 * MS, true)).isFalse();
        assertThat(scans.nextScanNanos()).isEqualTo(22 * MS);
        assertThat(scans.scanNow(22 * MS, true)).isTrue();
    }
}
