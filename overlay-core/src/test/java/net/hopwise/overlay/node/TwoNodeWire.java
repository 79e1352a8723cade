package net.hopwise.overlay.node;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;

/**
 * Two engines, a and b, on a wire the test controls datagram by datagram: it sees every datagram
 * with its addresses, can copy any of them for a replay, send a forged one from any address, move b
 * to another source address (as a NAT rebinding would), silence b, or make a's socket throw. One
 * millisecond one way; virtual time in millisecond steps.
 */
final class TwoNodeWire implements AutoCloseable {
    static final long MS = 1_000_000L;
    static final InetSocketAddress A = new InetSocketAddress("127.0.0.1", 10_001);
    static final InetSocketAddress B = new InetSocketAddress("127.0.0.1", 10_002);

    /** One datagram on the wire. */
    record Datagram(InetSocketAddress from, InetSocketAddress to, ByteBuf bytes, long deliverAt) {}

    final NodeStack a;
    final NodeStack b;
    final List<NodeEvent> events = new ArrayList<>();
    /** Datagrams a sent, by destination, as copies the test may inspect or replay (released on close). */
    final Map<InetSocketAddress, List<ByteBuf>> sentByA = new HashMap<>();
    /** Datagrams b sent, as copies. */
    final List<ByteBuf> sentByB = new ArrayList<>();
    /** While set, a's socket throws for datagrams that match it (the datagram is released first). */
    Predicate<ByteBuf> failA = d -> false;
    /** Where b's datagrams appear to come from, and where datagrams must go to reach b. */
    InetSocketAddress bAddress = B;
    /** While true, nothing reaches b and nothing leaves it. */
    boolean bSilent;

    private final ArrayDeque<Datagram> wire = new ArrayDeque<>();
    private long now = 1_000 * MS;

    TwoNodeWire() {
        this(builder -> {});
    }

    /** With settings of the test's own applied to both nodes. */
    TwoNodeWire(java.util.function.Consumer<NodeConfig.Builder> customise) {
        NodeConfig.Builder ab = NodeConfig.builder("a").neighbour(new NeighbourConfig("b", B));
        NodeConfig.Builder bb = NodeConfig.builder("b").neighbour(new NeighbourConfig("a", A));
        customise.accept(ab);
        customise.accept(bb);
        a = new NodeStack(ab.build(), PooledByteBufAllocator.DEFAULT, output("a"), 0, now);
        b = new NodeStack(bb.build(), PooledByteBufAllocator.DEFAULT, output("b"), 0, now);
    }

    private NodeOutput output(String node) {
        return new NodeOutput() {
            @Override
            public void transmit(InetSocketAddress to, ByteBuf datagram) {
                if (node.equals("a")) {
                    if (failA.test(datagram)) {
                        datagram.release();
                        throw new IllegalStateException("socket refused the datagram (injected)");
                    }
                    sentByA.computeIfAbsent(to, k -> new ArrayList<>()).add(datagram.copy());
                    wire.add(new Datagram(A, to, datagram, now + MS));
                } else {
                    if (bSilent) {
                        datagram.release();
                        return;
                    }
                    sentByB.add(datagram.copy());
                    wire.add(new Datagram(bAddress, to, datagram, now + MS));
                }
            }

            @Override
            public boolean writable() {
                return true;
            }

            @Override
            public void event(NodeEvent event) {
                events.add(event);
            }
        };
    }

    long now() {
        return now;
    }

    /** Puts a datagram on the wire as if sent from {@code from}; the wire takes ownership. */
    void inject(InetSocketAddress from, InetSocketAddress to, ByteBuf datagram) {
        wire.add(new Datagram(from, to, datagram, now + MS));
    }

    void runFor(long nanos) {
        long end = now + nanos;
        while (now < end) {
            now += MS;
            int n = wire.size();
            for (int i = 0; i < n; i++) {
                Datagram d = wire.poll();
                if (d.deliverAt() > now) {
                    wire.add(d);
                    continue;
                }
                try {
                    if (d.to().equals(A)) {
                        a.onDatagram(d.from(), d.bytes(), now);
                    } else if (d.to().equals(bAddress) && !bSilent) {
                        b.onDatagram(d.from(), d.bytes(), now);
                    }
                } finally {
                    d.bytes().release();
                }
            }
            a.onReadBatchEnd(now);
            b.onReadBatchEnd(now);
            if (a.nextDeadlineNanos() <= now) {
                a.onTimer(now);
            }
            if (b.nextDeadlineNanos() <= now) {
                b.onTimer(now);
            }
        }
    }

    List<NodeEvent> events(NodeEvent.Kind kind) {
        return events.stream().filter(e -> e.kind() == kind).toList();
    }

    @Override
    public void close() {
        a.close();
        b.close();
        wire.forEach(d -> d.bytes().release());
        wire.clear();
        sentByA.values().forEach(l -> l.forEach(ByteBuf::release));
        sentByB.forEach(ByteBuf::release);
    }
}
