package net.hopwise.overlay.node;

import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.ExtensionAck;
import net.hopwise.overlay.routing.ExtensionCodec;
import net.hopwise.overlay.routing.ExtensionUpdate;
import net.hopwise.overlay.routing.LinkStateAck;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.LinkStateUpdate;
import net.hopwise.overlay.routing.Router;
import net.hopwise.overlay.routing.RouterOutput;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;

/**
 * The routing layer as a stage: link-state updates and acknowledgements from neighbours go to the
 * {@link Router} (flooding, the link-state database, route computation), and what the router sends
 * and decides comes back out through the node.
 */
final class RoutingStage implements Stage {
    static final String NAME = "routing";
    private static final System.Logger LOG = System.getLogger(NodeContext.class.getName());

    private final NodeContext node;
    private final NodeCounters counters;
    private final Router router;
    /** Who hears of changed link-state extension records, by kind: the modules that registered them. */
    private final io.netty.util.collection.IntObjectHashMap<net.hopwise.overlay.spi.LinkStateExtension.Listener>
            extensionListeners = new io.netty.util.collection.IntObjectHashMap<>();
    RoutingStage(NodeContext node, long startMillis, long nowNanos, net.hopwise.overlay.spi.LinkStateSigner signer) {
        this.node = node;
        this.counters = node.counters();
        this.router = new Router(node.id(), node.config().name(), fitted(node.config().routing(), node.maxBody()),
                new Events(), startMillis, nowNanos, signer);
    }

    /** The routing settings with link-state updates no larger than a datagram of this node carries. */
    private static net.hopwise.overlay.routing.RoutingConfig fitted(net.hopwise.overlay.routing.RoutingConfig c,
            int maxBody) {
        return c.maxUpdateBodyBytes() <= maxBody ? c : c.toBuilder().maxUpdateBodyBytes(maxBody).build();
    }

    Router router() {
        return router;
    }

    void listenToExtension(int kind, net.hopwise.overlay.spi.LinkStateExtension.Listener listener) {
        extensionListeners.put(kind, listener);
    }

    @Override
    public boolean takes(int type) {
        return type == PacketType.LINK_STATE_UPDATE.code() || type == PacketType.LINK_STATE_ACK.code()
                || type == PacketType.LINK_STATE_EXTENSION.code() || type == PacketType.LINK_STATE_EXTENSION_ACK.code();
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        int type = frame.type();
        if (type == PacketType.LINK_STATE_UPDATE.code()) {
            LinkStateUpdate update = LinkStateCodec.decodeUpdate(frame.body());
            if (update == null) {
                counters.drop(DropReason.MALFORMED);
                return;
            }
            Neighbour n = (Neighbour) frame.link();
            n.monitor.onPacketReceived(frame.linkSequence(), frame.nowNanos());
            router.onUpdate(n.id(), update, frame.nowNanos());
        } else if (type == PacketType.LINK_STATE_ACK.code()) {
            LinkStateAck ack = LinkStateCodec.decodeAck(frame.body());
            if (ack == null) {
                counters.drop(DropReason.MALFORMED);
                return;
            }
            Neighbour n = (Neighbour) frame.link();
            n.monitor.onPacketReceived(frame.linkSequence(), frame.nowNanos());
            router.onAck(n.id(), ack, frame.nowNanos());
        } else if (type == PacketType.LINK_STATE_EXTENSION.code()) {
            ExtensionUpdate update = ExtensionCodec.decodeUpdate(frame.body());
            if (update == null) {
                counters.drop(DropReason.MALFORMED);
                return;
            }
            Neighbour n = (Neighbour) frame.link();
            n.monitor.onPacketReceived(frame.linkSequence(), frame.nowNanos());
            router.onExtensionUpdate(n.id(), update, frame.nowNanos());
        } else if (type == PacketType.LINK_STATE_EXTENSION_ACK.code()) {
            ExtensionAck ack = ExtensionCodec.decodeAck(frame.body());
            if (ack == null) {
                counters.drop(DropReason.MALFORMED);
                return;
            }
            Neighbour n = (Neighbour) frame.link();
            n.monitor.onPacketReceived(frame.linkSequence(), frame.nowNanos());
            router.onExtensionAck(n.id(), ack, frame.nowNanos());
        } else {
            next.accept(frame);
        }
    }

    @Override
    public long nextDeadlineNanos() {
        return router.nextDeadlineNanos();
    }

    @Override
    public void onTimer(long nowNanos) {
        router.onTimer(nowNanos);
    }

    /** Routing's protocol output. */
    private final class Events implements RouterOutput {
        @Override
        public void sendUpdate(NodeId neighbour, LinkStateUpdate update) {
            Neighbour n = node.neighbour(neighbour.value());
            if (n != null) {
                node.sendControl(n, PacketType.LINK_STATE_UPDATE, out -> LinkStateCodec.encodeUpdate(update, out));
            }
        }

        @Override
        public void sendAck(NodeId neighbour, LinkStateAck ack) {
            Neighbour n = node.neighbour(neighbour.value());
            if (n != null) {
                node.sendControl(n, PacketType.LINK_STATE_ACK, out -> LinkStateCodec.encodeAck(ack, out));
            }
        }

        @Override
        public void sendExtensionUpdate(NodeId neighbour, ExtensionUpdate update) {
            Neighbour n = node.neighbour(neighbour.value());
            if (n != null) {
                node.sendControl(n, PacketType.LINK_STATE_EXTENSION, out -> ExtensionCodec.encodeUpdate(update, out));
            }
        }

        @Override
        public void sendExtensionAck(NodeId neighbour, ExtensionAck ack) {
            Neighbour n = node.neighbour(neighbour.value());
            if (n != null) {
                node.sendControl(n, PacketType.LINK_STATE_EXTENSION_ACK, out -> ExtensionCodec.encodeAck(ack, out));
            }
        }

        @Override
        public void extensionChanged(NodeId origin, int kind, byte[] record) {
            net.hopwise.overlay.spi.LinkStateExtension.Listener l = extensionListeners.get(kind);
            if (l != null) {
                try {
                    l.changed(origin, record);
                } catch (RuntimeException e) {
                    node.faults().record("a module's listener of link-state records of kind " + kind, e, node.now());
                }
            }
        }

        @Override
        public void advertisementRejected(NodeId from, DropReason reason) {
            // Counted per advertisement refused, a unit of link state a neighbour tried to make this
            // node store. Updates from a node whose link is not up are the router's own counter
            // (ignored messages), as they were: their packets are retried once the link is up.
            if (reason != DropReason.NOT_A_NEIGHBOUR) {
                counters.drop(reason);
            }
        }

        @Override
        public void linksLeftOut(int leftOut, int neighbours) {
            // Logged on change only: the count moves with neighbours coming and going, not per refresh.
            if (leftOut > 0) {
                LOG.log(System.Logger.Level.WARNING, "node " + node.config().name() + " has " + neighbours
                        + " up neighbours but one link-state update lists at most " + (neighbours - leftOut)
                        + ": its " + leftOut + " highest-latency links are not advertised and carry no transit"
                        + " traffic (give the node fewer neighbours, or all nodes a larger datagram and maxUpdateBodyBytes)");
            } else {
                LOG.log(System.Logger.Level.INFO, "node " + node.config().name()
                        + " advertises all its links again (" + neighbours + ")");
            }
        }

        @Override
        public void routesChanged(long nowNanos) {
            counters.add(NodeCounters.ROUTE_CHANGES, 1);
            node.emit(NodeEvent.Kind.ROUTES_CHANGED, null);
        }
    }
}
