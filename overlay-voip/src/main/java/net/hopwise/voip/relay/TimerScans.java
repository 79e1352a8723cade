package net.hopwise.voip.relay;

/**
 * When the relay runs its proxy's timers. A run scans every transaction and call, and a relay used to
 * run one after every SIP message: at 1000 calls that was about 5% of its loop, spent finding nothing
 * due. No message makes anything due at once (every SIP timer a message starts is at least T1 ahead),
 * so after a message the scan may wait until the previous one is {@code minIntervalNanos} old, as long
 * as the loop's timer is armed to fire by then. A timer that runs at most that late is within the
 * tolerance RFC 3261's timers already have (a tenth of T1 at most). Time is passed in.
 */
final class TimerScans {
    private final long minIntervalNanos;
    private long lastScanNanos;
    private boolean scanned;

    TimerScans(long minIntervalNanos) {
        if (minIntervalNanos < 0) {
            throw new IllegalArgumentException("minIntervalNanos must be at least 0, got " + minIntervalNanos);
        }
        this.minIntervalNanos = minIntervalNanos;
    }

    /**
     * Whether to scan now. With no timer armed it always does (someone must arm it); else only once the
     * last scan is old enough, and the caller makes sure the timer fires by {@link #nextScanNanos}.
     */
    boolean scanNow(long nowNanos, boolean timerArmed) {
        if (timerArmed && scanned && nowNanos - lastScanNanos < minIntervalNanos) {
            return false;
        }
        scanned = true;
        lastScanNanos = nowNanos;
        return true;
    }

    /** The latest instant the deferred scan may run. */
    long nextScanNanos() {
        return lastScanNanos + minIntervalNanos;
    }
}
