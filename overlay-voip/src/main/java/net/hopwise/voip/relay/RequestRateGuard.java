package net.hopwise.voip.relay;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A cap on the SIP requests each source address may send, for a relay that phones reach directly
 * from networks nobody vets (SIP scanners send thousands of REGISTERs and OPTIONS a minute): what
 * Kamailio's {@code pike} module does in front of a proxy. Requests from an address over the limit
 * in a window are dropped unanswered, and the address stays blocked until a whole block interval
 * passes without it going over the limit again; responses are never limited (they belong to requests
 * this relay sent), nor is what comes from other relays across the overlay (admitted nodes). The
 * addresses tracked are bounded, least recently seen first out. Sans-IO: times are passed in.
 */
final class RequestRateGuard {
    /** Source addresses tracked at once; an address that falls out starts afresh. */
    static final int MAX_SOURCES = 16_384;

    private static final class Source {
        long windowStart;
        int count;
        boolean blocked;
        long blockedUntil;
    }

    private final RelayConfig.RequestRateLimit limit;
    private final long windowNanos;
    private final long blockNanos;
    private final Map<InetAddress, Source> sources;
    private long blocks;

    RequestRateGuard(RelayConfig.RequestRateLimit limit, int maxSources) {
        this.limit = Objects.requireNonNull(limit, "limit");
        this.windowNanos = limit.window().toNanos();
        this.blockNanos = limit.block().toNanos();
        this.sources = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<InetAddress, Source> eldest) {
                return size() > maxSources;
            }
        };
    }

    /** Whether a request from {@code address} may pass now; false: drop it. */
    boolean admit(InetAddress address, long now) {
        if (limit.requests() == 0) {
            return true;
        }
        Source s = sources.get(address);
        if (s == null) {
            s = new Source();
            s.windowStart = now;
            sources.put(address, s);
        }
        if (s.blocked && now - s.blockedUntil >= 0) {
            s.blocked = false;
        }
        if (now - s.windowStart >= windowNanos) {
            s.windowStart = now;
            s.count = 0;
        }
        if (++s.count > limit.requests()) {
            if (!s.blocked) {
                blocks++;
            }
            s.blocked = true;
            s.blockedUntil = now + blockNanos;
        }
        return !s.blocked;
    }

    /** Times an address went over the limit and was blocked. */
    long blocks() {
        return blocks;
    }

    /** Addresses blocked now. */
    int blocked(long now) {
        int n = 0;
        for (Source s : sources.values()) {
            if (s.blocked && now - s.blockedUntil < 0) {
                n++;
            }
        }
        return n;
    }

    int tracked() {
        return sources.size();
    }
}
