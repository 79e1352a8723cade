package net.hopwise.overlay.security;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;

/**
 * Logs refused peers, at most one line every ten seconds with the count of those not logged in
 * between: a flood of refused handshakes must cost the operator's log no more than a trickle. Reads
 * no clock: the caller's {@code now} decides. Used on the node's thread only.
 */
final class RefusalLog {
    private static final Logger LOG = System.getLogger(LinkSecurity.class.getName());
    private static final long INTERVAL_NANOS = 10_000_000_000L;

    private long last = Long.MIN_VALUE;
    private long notLogged;

    void refused(InetSocketAddress from, String claimed, String why, long now) {
        if (last == Long.MIN_VALUE || now - last >= INTERVAL_NANOS) {
            LOG.log(Level.WARNING, "link security: refused " + from + " claiming to be '" + claimed + "': " + why
                    + (notLogged > 0 ? " (" + notLogged + " more refusals not logged)" : ""));
            last = now;
            notLogged = 0;
        } else {
            notLogged++;
        }
    }
}
