package net.hopwise.overlay.security.attack;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.LinkStateUpdate;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.LinkStateSigner;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.spi.DatagramStage;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/**
 * An admitted node, m, forging another node's advertisement over its sealed link on real sockets:
 * the forgery is sealed and opened as any of m's frames, and the routing of the node it reaches
 * refuses it for its signature.
 */
class AdmittedForgerOnLoopbackTest {
    /**
     * Puts a frame of the test's in place of the next hello the node sends to a neighbour, above link
     * security: the frame leaves sealed, as the node's own would.
     */
    static final class Forger implements OverlayModule {
        final AtomicReference<byte[]> next = new AtomicReference<>();
        final AtomicInteger sent = new AtomicInteger();
        private final String towards;

        Forger(String towards) {
            this.towards = towards;
        }

        @Override
        public String name() {
            return "forger";
        }

        @Override
        public void install(ModuleContext ctx) {
            ctx.addDatagramStage("forger", new DatagramStage() {
                @Override
                public int overhead() {
                    return 0;
                }

                @Override
                public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
                    return datagram;
                }

                @Override
                public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
                    byte[] f = next.get();
                    if (f == null || !link.name().equals(towards) || datagram.readableBytes() < WireHeader.LENGTH
                            || WireHeader.typeCode(datagram) != PacketType.HELLO.code() || !next.compareAndSet(f, null)) {
                        return datagram;
                    }
                    datagram.release();
                    sent.incrementAndGet();
                    return Unpooled.wrappedBuffer(f);
                }
            });
        }
    }

    @Test
    void anAdmittedNodesSealedForgeriesOfAnotherNodesLinksAreRefusedAndNeverFloodedOn() throws Exception {
        NodeKeys ka = NodeKeys.generate();
        NodeKeys kb = NodeKeys.generate();
        NodeKeys km = NodeKeys.generate();
        TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic()),
                "m", List.of(km.identityPublic())));
        Forger forger = new Forger("a");
        try (NodeRuntime runtime = NodeRuntime.create(1)) {
            OverlayNode a = start(runtime, "a", ka, trusted, null);
            OverlayNode b = start(runtime, "b", kb, trusted, null);
            OverlayNode m = start(runtime, "m", km, trusted, forger);
            try {
                a.addNeighbour(new NeighbourConfig("b", b.localAddress()));
                b.addNeighbour(new NeighbourConfig("a", a.localAddress()));
                a.addNeighbour(new NeighbourConfig("m", m.localAddress()));
                m.addNeighbour(new NeighbourConfig("a", a.localAddress()));
                Eventually.await("m reaches b through a", () -> !m.path("b", RoutingMetric.HOPS).isEmpty()
                        && !b.path("m", RoutingMetric.HOPS).isEmpty());
                NodeId bId = NodeId.ofName("b");
                NodeId mId = NodeId.ofName("m");
                LinkStateAdvertisement real = a.inspect(s -> s.router().database().get(bId).orElseThrow());
                LinkStateSigner mSigns = new LinkStateSigner("m", km, trusted, 16);

                // b's only link leads to m, says m, signed with m's own key; then with b's real signature.
                LinkStateAdvertisement claim = new LinkStateAdvertisement(bId, "b", real.sequence() + 1, 0,
                        List.of(new LinkStateAdvertisement.Link(mId, new LinkCost(1, 0))));
                long forgedBefore = a.counters().drops(DropReason.FORGED_LINK_STATE);
                forge(forger, claim.withSignature(mSigns.sign(0, LinkStateCodec.signedContent(claim))));
                forge(forger, claim.withSignature(real.signature()));
                Eventually.await("both forgeries refused at a",
                        () -> a.counters().drops(DropReason.FORGED_LINK_STATE) - forgedBefore >= 2);

                // The same path carries what m may say: its own links, signed by itself, are taken.
                long ahead = real.sequence() + 10_000_000L;
                LinkStateAdvertisement own = new LinkStateAdvertisement(mId, "m", ahead, 0,
                        List.of(new LinkStateAdvertisement.Link(NodeId.ofName("a"), new LinkCost(1, 0))));
                forge(forger, own.withSignature(mSigns.sign(0, LinkStateCodec.signedContent(own))));
                Eventually.await("m's own advertisement installed at a and flooded to b",
                        () -> b.inspect(s -> s.router().database().get(mId).orElseThrow().sequence()) >= ahead);

                assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - forgedBefore).isEqualTo(2);
                LinkStateAdvertisement bAtA = a.inspect(s -> s.router().database().get(bId).orElseThrow());
                assertThat(bAtA.links()).extracting(LinkStateAdvertisement.Link::neighbour)
                        .containsExactly(NodeId.ofName("a"));
                assertThat(b.counters().drops(DropReason.FORGED_LINK_STATE)).as("a relayed neither").isZero();
                assertThat(a.nextHop("b", RoutingMetric.HOPS)).isEqualTo(bId);
                assertThat(m.counters().drops(DropReason.FORGED_LINK_STATE)).isZero();
            } finally {
                a.stop();
                b.stop();
                m.stop();
            }
        }
    }

    /** Hands the forger an update frame of one advertisement and waits until it went out sealed. */
    private static void forge(Forger forger, LinkStateAdvertisement advertisement) {
        ByteBuf frame = Unpooled.buffer(WireHeader.MAX_DATAGRAM);
        WireHeader.write(frame, PacketType.LINK_STATE_UPDATE, 0, NodeId.ofName("m").value(), NodeId.ofName("a").value(), 1);
        LinkStateCodec.encodeUpdate(new LinkStateUpdate(List.of(advertisement)), frame);
        WireHeader.finish(frame, 0);
        byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        frame.release();
        int before = forger.sent.get();
        forger.next.set(bytes);
        Eventually.await("the forged frame sent in place of a hello", () -> forger.sent.get() > before);
    }

    private static OverlayNode start(NodeRuntime runtime, String name, NodeKeys keys, TrustedKeys trusted, Forger forger) {
        NodeConfig.Builder builder = NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS)
                .module(new SecurityModule(SecurityConfig.of(name, keys, null, trusted)));
        if (forger != null) {
            builder.module(forger); // after security, so farther from the socket: what it puts out is sealed
        }
        return OverlayNode.start(builder.build(), runtime);
    }
}
