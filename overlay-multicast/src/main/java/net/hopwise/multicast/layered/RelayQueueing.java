package net.hopwise.multicast.layered;

/**
 * How a node's relay puts layered data on each outgoing link. {@link #dropTail()}, the default,
 * sends each packet the moment it arrives and leaves queueing to the path (a DropTail FIFO, as the
 * thesis simulated, shared with everything else on it). {@link #fair} paces layered data on each
 * link at a given rate and shares it among the sessions crossing the link by deficit round robin
 * ({@link FairLinkQueue}), each session's queue bounded: two sessions through one relay link each
 * get half of it whatever they offer, which PLM needs of the network and ERA benefits from.
 *
 * @param rateBitsPerSecond the rate layered data may use on each outgoing link (0 for drop-tail)
 * @param packetsPerSession the bound on each session's queue on each link (0 for drop-tail)
 */
public record RelayQueueing(Discipline discipline, long rateBitsPerSecond, int packetsPerSession) {
    /**
     * 16 packets per session and link: 2 x the bandwidth-delay product of a 1 Mbit/s, 30 ms path in
     * 512-byte packets, the thesis's queue rule, so a bunch of 16 still fits whole; more only
     * delays a session that overruns its share before its receivers see the loss.
     */
    public static final int DEFAULT_PACKETS_PER_SESSION = 16;

    public enum Discipline {
        /** At once, each packet on its own datagram: the path's queue decides. */
        DROP_TAIL,
        /** Paced per link, deficit round robin across sessions. */
        FAIR
    }

    public RelayQueueing {
        if (discipline == null) {
            throw new IllegalArgumentException("discipline must not be null");
        }
        if (discipline == Discipline.FAIR && (rateBitsPerSecond <= 0 || packetsPerSession < 1)) {
            throw new IllegalArgumentException("fair queuing needs a positive rate and queue bound, got "
                    + rateBitsPerSecond + " bit/s and " + packetsPerSession + " packets");
        }
    }

    public static RelayQueueing dropTail() {
        return new RelayQueueing(Discipline.DROP_TAIL, 0, 0);
    }

    /** Fair queuing across sessions on each outgoing link at {@code rateBitsPerSecond}, {@link #DEFAULT_PACKETS_PER_SESSION} each. */
    public static RelayQueueing fair(long rateBitsPerSecond) {
        return fair(rateBitsPerSecond, DEFAULT_PACKETS_PER_SESSION);
    }

    public static RelayQueueing fair(long rateBitsPerSecond, int packetsPerSession) {
        return new RelayQueueing(Discipline.FAIR, rateBitsPerSecond, packetsPerSession);
    }
}
