package net.hopwise.overlay.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import net.hopwise.overlay.NodeId;

/**
 * This node's own advertisement: its sequence, what it lists, and when it is due again (refresh, or
 * a significant cost change held back by minReadvertiseInterval). Apart from {@link Router} because
 * origination has its own invariants, which hostile input must not break: the sequence only grows,
 * it is taken from outside only up to the admission ceiling (below 2^62, see
 * {@link AdvertisementAdmission}), so the next origination can never run out of sequences.
 */
final class OwnAdvertisement {
    private final NodeId self;
    private final String selfName;
    private final RoutingConfig config;
    private final long refreshNanos;
    private final long minReadvertiseNanos;
    private final int signatureBytes;
    private long sequence;
    private long lastOriginationNanos;
    private long readvertiseAtNanos = Long.MAX_VALUE;
    private int linksLeftOut;

    OwnAdvertisement(NodeId self, String selfName, RoutingConfig config, long sequenceBase) {
        this(self, selfName, config, sequenceBase, 0);
    }

    /** {@code signatureBytes}: what a signature adds to each version on the wire, so that a signed one still fits an update. */
    OwnAdvertisement(NodeId self, String selfName, RoutingConfig config, long sequenceBase, int signatureBytes) {
        this.self = self;
        this.selfName = selfName;
        this.config = config;
        this.signatureBytes = signatureBytes;
        refreshNanos = config.refreshInterval().toNanos();
        minReadvertiseNanos = config.minReadvertiseInterval().toNanos();
        sequence = sequenceBase - 1;
    }

    /**
     * The next version, listing the up neighbours (the lowest-latency ones if they do not all fit),
     * originated now.
     */
    LinkStateAdvertisement originate(Collection<FloodNeighbour> neighbours, long nowNanos) {
        sequence++;
        List<FloodNeighbour> advertised = new ArrayList<>(neighbours);
        int room = Math.min(config.maxLinksPerAdvertisement(),
                (config.maxUpdateBodyBytes() - LinkStateCodec.UPDATE_HEADER_BYTES - LinkStateCodec.ADVERTISEMENT_HEADER_BYTES
                        - NodeId.MAX_NAME_LENGTH - signatureBytes) / LinkStateCodec.LINK_BYTES);
        linksLeftOut = Math.max(0, advertised.size() - room);
        if (advertised.size() > room) {
            advertised.sort(Comparator.comparingInt((FloodNeighbour n) -> n.cost.latencyMicros()).thenComparing(n -> n.id));
            advertised = advertised.subList(0, room);
            advertised.sort(Comparator.comparing(n -> n.id));
        }
        List<LinkStateAdvertisement.Link> links = new ArrayList<>(advertised.size());
        for (FloodNeighbour n : advertised) {
            links.add(new LinkStateAdvertisement.Link(n.id, n.cost));
        }
        lastOriginationNanos = nowNanos;
        readvertiseAtNanos = Long.MAX_VALUE;
        return new LinkStateAdvertisement(self, selfName, sequence, 0, links);
    }

    /** Up neighbours the last origination could not list for want of room in one update. */
    int linksLeftOut() {
        return linksLeftOut;
    }

    /** A copy of ours with this sequence was seen, and admitted: the next version goes above it. */
    void seen(long seenSequence) {
        sequence = Math.max(sequence, seenSequence);
    }

    /** Whether a significant change may be originated now; if not, a re-check is scheduled for when it may. */
    boolean mayReadvertise(long nowNanos) {
        long allowedAt = lastOriginationNanos + minReadvertiseNanos;
        if (nowNanos >= allowedAt) {
            return true;
        }
        readvertiseAtNanos = Math.min(readvertiseAtNanos, allowedAt);
        return false;
    }

    /** Whether the refresh is due. */
    boolean refreshDue(long nowNanos) {
        return nowNanos >= lastOriginationNanos + refreshNanos;
    }

    /** Whether a held-back re-check is due; clears it if so. */
    boolean takeReadvertiseDue(long nowNanos) {
        if (nowNanos < readvertiseAtNanos) {
            return false;
        }
        readvertiseAtNanos = Long.MAX_VALUE;
        return true;
    }

    /** When the refresh or the held-back re-check is due. */
    long nextDeadlineNanos() {
        return Math.min(lastOriginationNanos + refreshNanos, readvertiseAtNanos);
    }

    /** Whether the neighbour's measured cost differs enough from the one {@code own} advertises to flood. */
    boolean differsSignificantly(LinkStateAdvertisement own, FloodNeighbour n) {
        LinkCost advertised = own.costTo(n.id);
        if (advertised == null) {
            return true;
        }
        long latencyChange = Math.abs((long) n.cost.latencyMicros() - advertised.latencyMicros());
        boolean latency = latencyChange >= config.readvertiseLatencyMicros()
                && latencyChange >= config.readvertiseLatencyFraction() * advertised.latencyMicros();
        boolean loss = Math.abs(n.cost.lossPpm() - advertised.lossPpm()) >= config.readvertiseLossPpm();
        return latency || loss;
    }
}
