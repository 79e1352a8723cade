package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.link.HelloCodec;
import net.hopwise.overlay.link.HelloPacket;
import net.hopwise.overlay.link.LinkMonitor;
import net.hopwise.overlay.link.LinkMonitorOutput;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The link layer of a node: hellos and liveness of every link (one {@link LinkMonitor} each), where a
 * neighbour is (it moves only on a hello that proves it is live, a hello that proves nothing is
 * answered with a probe, a moved neighbour that falls silent is looked for where it was configured),
 * and what the links' changes mean to the layers above: a link up or down, a cost that changed.
 *
 * <p>Sans-IO like the rest of the node: it reaches routing, the reliable and real-time channels and
 * the clock through the {@link NodeContext} of its node, on the node's thread. A fault in a layer
 * above is recorded where the monitor calls out, so the monitor always finishes its own update.
 */
final class LinkStage implements Stage {
    static final String NAME = "link";

    private static final Logger LOG = System.getLogger(NodeContext.class.getName());

    private final NodeContext node;
    private final NodeCounters counters;
    /** The hello dead interval: how long a neighbour that moved may stay silent before it is looked for where it was configured. */
    private final long deadIntervalNanos;

    LinkStage(NodeContext node, NodeCounters counters) {
        this.node = node;
        this.counters = counters;
        this.deadIntervalNanos = node.config().hello().deadInterval().toNanos();
    }

    /** The monitor's output for a new neighbour. */
    LinkMonitorOutput eventsOf(Neighbour n) {
        return new LinkEvents(n);
    }

    @Override
    public boolean takes(int type) {
        return type == net.hopwise.overlay.wire.PacketType.HELLO.code();
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        if (frame.type() == net.hopwise.overlay.wire.PacketType.HELLO.code()) {
            onHello((Neighbour) frame.link(), frame.sender(), frame.datagram(), frame.body());
        } else {
            next.accept(frame);
        }
    }

    /** When the next link is due: a hello, or an up link's dead interval. */
    @Override
    public long nextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        for (Neighbour n : node.neighbourArray()) {
            next = Math.min(next, n.monitor.nextDeadlineNanos());
        }
        return next;
    }

    /** Runs the links' hellos and liveness that are due, each link on its own. */
    @Override
    public void onTimer(long nowNanos) {
        for (Neighbour n : node.neighbourArray()) {
            try {
                if (n.monitor.nextDeadlineNanos() <= nowNanos) {
                    n.monitor.onTimer(nowNanos);
                    n.statistics = n.monitor.statistics();
                }
                fallBackIfSilent(n);
            } catch (RuntimeException e) {
                // One link's fault must not silence the others' hellos.
                node.faults().record("the link timer of " + n.name(), e, nowNanos);
            }
        }
    }

    void onHello(Neighbour n, InetSocketAddress from, ByteBuf datagram, ByteBuf body) {
        HelloPacket hello = HelloCodec.decode(body);
        if (hello == null) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        if (!hello.senderName().equals(n.name())) {
            counters.drop(DropReason.NOT_A_NEIGHBOUR);
            return;
        }
        if (from != null && !from.equals(n.address)) {
            // The neighbour may have moved (NAT rebinding, new address): identity is the node id, but
            // follow it only on proof that this hello is live, or a replayed one could cut the link
            // or put a third party in the middle. A hello that proves nothing gets a probe in answer,
            // so that a neighbour that really moved proves it with its next hello.
            if (!n.monitor.provesFreshness(hello, node.now())) {
                counters.drop(DropReason.UNVERIFIED_HELLO);
                probe(n, from);
                return;
            }
            moveNeighbour(n, from);
        }
        n.lastHeardNanos = node.now();
        n.monitor.onPacketReceived(WireHeader.linkSequence(datagram), node.now());
        n.monitor.onHello(hello, node.now());
        n.statistics = n.monitor.statistics();
    }

    /** At most one probe per hello interval and neighbour: an unverified hello must not make us a reflector. */
    void probe(Neighbour n, InetSocketAddress to) {
        if (n.probedAtNanos != Long.MIN_VALUE && node.now() - n.probedAtNanos < node.config().hello().interval().toNanos()) {
            return;
        }
        n.probedAtNanos = node.now();
        n.probeTo = to;
        try {
            n.monitor.sendProbe(node.now());
        } finally {
            n.probeTo = null;
        }
    }

    void moveNeighbour(Neighbour n, InetSocketAddress to) {
        InetSocketAddress from = n.address;
        n.address = to;
        LOG.log(Level.INFO, "node " + node.config().name() + ": neighbour " + n.name() + " moved from " + from + " to " + to);
        node.emit(NodeEvent.Kind.ADDRESS_CHANGED, n.name(), from + " -> " + to);
    }

    /**
     * A neighbour that moved and then stayed silent for the dead interval is looked for at its
     * configured address again: the move may have been a mistake, or it may have come back.
     */
    void fallBackIfSilent(Neighbour n) {
        if (n.address != n.configuredAddress() && !n.address.equals(n.configuredAddress())
                && n.monitor.status() != net.hopwise.overlay.link.LinkStatus.UP
                && node.now() - n.lastHeardNanos >= deadIntervalNanos) {
            moveNeighbour(n, n.configuredAddress());
        }
    }

    static LinkCost costOf(LinkMonitor monitor) {
        long micros = Math.min(Integer.MAX_VALUE, Math.max(0, monitor.oneWayLatencyNanos() / 1000));
        int ppm = (int) Math.round(Math.min(1.0, Math.max(0.0, monitor.outboundLossRate())) * 1_000_000);
        return new LinkCost((int) micros, ppm);
    }

    /** Links' protocol output, bound to one neighbour. */
    private final class LinkEvents implements LinkMonitorOutput {
        private final Neighbour neighbour;

        LinkEvents(Neighbour neighbour) {
            this.neighbour = neighbour;
        }

        private boolean current() {
            return node.isCurrent(neighbour);
        }

        @Override
        public void sendHello(HelloPacket hello) {
            if (current()) {
                InetSocketAddress to = neighbour.probeTo != null ? neighbour.probeTo : neighbour.address;
                node.sendControl(neighbour, to, PacketType.HELLO, out -> HelloCodec.encode(hello, out));
            }
        }

        // The monitor calls these in the middle of its own work: a fault further up (routing) is
        // recorded here, so that the monitor always finishes its update and the link's published
        // statistics never lag behind it.

        @Override
        public void linkUp(long nowNanos) {
            if (!current()) {
                return;
            }
            neighbour.statistics = neighbour.monitor.statistics();
            try {
                node.realTimeStage().resetRealTimeReceiver(neighbour);
                neighbour.reliableSender.seedRtt(neighbour.statistics.srttNanos());
                node.router().neighbourUp(neighbour.id(), costOf(neighbour.monitor), nowNanos);
            } catch (RuntimeException e) {
                node.faults().record("the link-up of " + neighbour.name(), e, nowNanos);
            }
            node.emit(NodeEvent.Kind.LINK_UP, neighbour.name());
        }

        @Override
        public void linkDown(long nowNanos) {
            if (!current()) {
                return;
            }
            neighbour.statistics = neighbour.monitor.statistics();
            try {
                node.reliableLinkStage().reset(neighbour);
                node.router().neighbourDown(neighbour.id(), nowNanos);
            } catch (RuntimeException e) {
                node.faults().record("the link-down of " + neighbour.name(), e, nowNanos);
            }
            node.emit(NodeEvent.Kind.LINK_DOWN, neighbour.name());
        }

        @Override
        public void qualityChanged(long nowNanos) {
            if (!current()) {
                return;
            }
            neighbour.statistics = neighbour.monitor.statistics();
            if (neighbour.monitor.status() == net.hopwise.overlay.link.LinkStatus.UP) {
                try {
                    node.router().neighbourCostChanged(neighbour.id(), costOf(neighbour.monitor), nowNanos);
                } catch (RuntimeException e) {
                    node.faults().record("a cost change of " + neighbour.name(), e, nowNanos);
                }
            }
        }
    }

}
