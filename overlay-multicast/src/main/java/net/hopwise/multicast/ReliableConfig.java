package net.hopwise.multicast;

import java.time.Duration;

/**
 * The parameters of reliable multicast, the same on every node (set with {@link
 * MulticastModule#withReliable}). Each default is declared here once with its reason and listed in
 * {@code docs/configuration.md}.
 *
 * @param cachePackets packets each node keeps per stream (a source's send cache, a relay's repair
 *     cache, a member's reordering room): the bound on a stream's memory at every node
 * @param windowPackets under {@link SlowMemberPolicy#SLOW_GROUP}, packets a sender may have out that
 *     some member has not acknowledged; at most {@code cachePackets}
 * @param nackBackoffNanos how long a node waits per hop from the source before asking its parent for a gap
 * @param nackRetryNanos how long a node waits for a repair before asking again
 * @param ackIntervalNanos how often each node reports upstream how far its subtree has received
 * @param memberTimeoutNanos a child that has not reported for this long no longer holds its sender back
 * @param heartbeatIntervalNanos how often a source announces how far its stream has gone
 * @param lingerNanos how long a source keeps announcing after its last send once every member has it
 * @param linkBufferPackets packets waiting for one link's channel at most; one more is dropped and
 *     repaired end to end
 */
public record ReliableConfig(int cachePackets, int windowPackets, long nackBackoffNanos, long nackRetryNanos,
        long ackIntervalNanos, long memberTimeoutNanos, long heartbeatIntervalNanos, long lingerNanos,
        int linkBufferPackets) {
    /**
     * 2048 packets, about 2.3 MB of 1142-byte fragments per stream and node: a second of a 16 Mbit/s
     * stream, longer than a relay's crash takes to route around (hellos notice it in about a second),
     * so the repair of what the crash lost usually comes from the nearest upstream cache.
     */
    public static final int DEFAULT_CACHE_PACKETS = 2048;
    /**
     * 1024 packets: half the cache, so that a member's reordering room always holds a full window
     * and a sender blocked on the slowest member still has the other half for repairs.
     */
    public static final int DEFAULT_WINDOW_PACKETS = 1024;
    /**
     * 40 ms per hop from the source, and a quarter of that at random: above the round trip of a
     * typical overlay hop (10-20 ms), so that a relay's request, sent a back-off before those of the
     * nodes below it, brings the repair down to them before their own timers run out (NORM spreads
     * its receivers' requests over k = 4 group round trips for the same effect among peers).
     */
    public static final Duration DEFAULT_NACK_BACKOFF = Duration.ofMillis(40);
    /** 250 ms: above the round trip to a source a few continental hops away, so a retry is rarely early. */
    public static final Duration DEFAULT_NACK_RETRY = Duration.ofMillis(250);
    /** 50 ms: the window moves several times per round trip of a continental path, at 20 small packets a second per link. */
    public static final Duration DEFAULT_ACK_INTERVAL = Duration.ofMillis(50);
    /**
     * 3 s: longer than routing takes to drop a crashed node (about a second of missed hellos), so a
     * live member that is only slow is never passed over, and a dead one holds the group for seconds only.
     */
    public static final Duration DEFAULT_MEMBER_TIMEOUT = Duration.ofSeconds(3);
    /** 100 ms: a loss at the tail of a burst is noticed within a tenth of a second plus the back-off. */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofMillis(100);
    /** 2 s: past a reroute's second, so a tail lost in a relay's crash is still announced afterwards. */
    public static final Duration DEFAULT_LINGER = Duration.ofSeconds(2);
    /**
     * 4096 packets: twice the cache, so that a link's buffer overflows only when several streams
     * share it; what it drops is repaired end to end.
     */
    public static final int DEFAULT_LINK_BUFFER_PACKETS = 4096;

    public ReliableConfig {
        if (cachePackets < 16 || cachePackets > 1 << 20) {
            throw new IllegalArgumentException("cachePackets must be 16-1048576, got " + cachePackets);
        }
        if (windowPackets < 1 || windowPackets > cachePackets) {
            throw new IllegalArgumentException("windowPackets must be 1-cachePackets (" + cachePackets + "), got "
                    + windowPackets);
        }
        positive("nackBackoff", nackBackoffNanos + 1);
        positive("nackRetry", nackRetryNanos);
        positive("ackInterval", ackIntervalNanos);
        positive("memberTimeout", memberTimeoutNanos);
        positive("heartbeatInterval", heartbeatIntervalNanos);
        positive("linger", lingerNanos + 1);
        if (linkBufferPackets < 1) {
            throw new IllegalArgumentException("linkBufferPackets must be positive, got " + linkBufferPackets);
        }
    }

    private static void positive(String name, long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + nanos + " ns");
        }
    }

    /** The defaults above. */
    public static ReliableConfig defaults() {
        return new ReliableConfig(DEFAULT_CACHE_PACKETS, DEFAULT_WINDOW_PACKETS, DEFAULT_NACK_BACKOFF.toNanos(),
                DEFAULT_NACK_RETRY.toNanos(), DEFAULT_ACK_INTERVAL.toNanos(), DEFAULT_MEMBER_TIMEOUT.toNanos(),
                DEFAULT_HEARTBEAT_INTERVAL.toNanos(), DEFAULT_LINGER.toNanos(), DEFAULT_LINK_BUFFER_PACKETS);
    }

    /**
     * Packets by which a node's subtree moves before the node reports it at once rather than at the
     * next interval: a quarter of the window, so that the source hears four times a window and its
     * window keeps moving while reports travel, whatever the rate; at 1 Gbit/s the interval alone
     * let the window (about 9 Mbit) move only every interval, some 80 Mbit/s at most.
     */
    public int ackEveryPackets() {
        return Math.max(1, windowPackets / 4);
    }

    public ReliableConfig withCache(int cache, int window) {
        return new ReliableConfig(cache, window, nackBackoffNanos, nackRetryNanos, ackIntervalNanos,
                memberTimeoutNanos, heartbeatIntervalNanos, lingerNanos, linkBufferPackets);
    }

    public ReliableConfig withNackBackoff(Duration backoff) {
        return new ReliableConfig(cachePackets, windowPackets, backoff.toNanos(), nackRetryNanos, ackIntervalNanos,
                memberTimeoutNanos, heartbeatIntervalNanos, lingerNanos, linkBufferPackets);
    }
}
