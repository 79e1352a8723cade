package net.hopwise.overlay.security;

import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many handshakes a responder starts (the ones that cost Diffie-Hellman: after a valid cookie),
 * per second per source address and in all: token buckets, so that a party at a real address, or
 * many, cannot make the node spend more than a bounded share of a core on handshakes. A neighbour
 * needs one handshake per rekey, so the per-address rate is far above any honest need.
 */
final class HandshakeBudget {
    private static final long SECOND = 1_000_000_000L;
    /** Source addresses tracked; the least recently seen gives way (it starts with a full bucket again). */
    private static final int MAX_ADDRESSES = 4096;

    private final double perAddress;
    private final double total;
    private final Bucket all;
    private final Map<InetAddress, Bucket> byAddress = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Bucket> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    HandshakeBudget(int perAddressPerSecond, int totalPerSecond) {
        this.perAddress = perAddressPerSecond;
        this.total = totalPerSecond;
        this.all = new Bucket(total);
    }

    /** Takes one handshake from both budgets; false (and nothing taken) when either is spent. */
    boolean take(InetAddress from, long now) {
        Bucket mine = byAddress.computeIfAbsent(from, a -> new Bucket(perAddress));
        mine.refill(now, perAddress);
        all.refill(now, total);
        if (mine.tokens < 1 || all.tokens < 1) {
            return false;
        }
        mine.tokens--;
        all.tokens--;
        return true;
    }

    private static final class Bucket {
        double tokens;
        long last = Long.MIN_VALUE;

        Bucket(double burst) {
            tokens = burst; // a second's worth at once: a restart's handshakes all go through
        }

        void refill(long now, double rate) {
            if (last != Long.MIN_VALUE && now > last) {
                tokens = Math.min(rate, tokens + (now - last) * rate / SECOND);
            }
            last = now;
        }
    }
}
