package net.hopwise.overlay.security.attack;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.ExtensionCodec;
import net.hopwise.overlay.routing.ExtensionRecord;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.LinkStateSigner;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.testing.DatagramTap;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

/**
 * An admitted node, m, forging another node's advertisement or module record over its sealed link on
 * real sockets: the forgery is sealed and opened as any of m's frames, and the routing of the node it
 * reaches refuses it for its signature. Every node publishes a record of its own, as a module with
 * memberships or registrations would.
 */
class AdmittedForgerOnLoopbackTest {
    /**
     * Puts a frame of the test's in place of the next hello the node sends to a neighbour, above link
     * security: the frame leaves sealed, as the node's own would.
     */
    static final class Forger {
        final AtomicReference<byte[]> next = new AtomicReference<>();
        final AtomicInteger sent = new AtomicInteger();
        private final String towards;

        Forger(String towards) {
            this.towards = towards;
        }

        /** The module to install above link security. */
        DatagramTap module() {
            return DatagramTap.outbound("forger", (link, address, datagram) -> {
                byte[] f = next.get();
                if (f == null || !link.name().equals(towards) || datagram.readableBytes() < WireHeader.LENGTH
                        || WireHeader.typeCode(datagram) != PacketType.HELLO.code() || !next.compareAndSet(f, null)) {
                    return datagram;
                }
                datagram.release();
                sent.incrementAndGet();
                return Unpooled.wrappedBuffer(f);
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

    /**
     * m rewrites b's record (a membership, say) and a's own, signed with its own key or with a
     * signature of b's that belongs to another version, and withdraws b's: a refuses each, keeps the
     * real records and relays nothing; m's own record, which m may change, is taken and reaches b.
     */
    @Test
    void anAdmittedNodesSealedForgeriesOfAnotherNodesModuleRecordsAreRefusedAndNeverFloodedOn() throws Exception {
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
                NodeId aId = NodeId.ofName("a");
                NodeId bId = NodeId.ofName("b");
                NodeId mId = NodeId.ofName("m");
                Eventually.await("every node holds every node's record", () -> {
                    for (OverlayNode n : List.of(a, b, m)) {
                        if (records(n).size() != 3) {
                            return false;
                        }
                    }
                    return true;
                });
                // Records share their origin's counter with its advertisements: a minute past them is newer
                // than any record the origin made in this test, and well inside the clock's window.
                long bAhead = a.inspect(s -> s.router().database().get(bId).orElseThrow().sequence()) + 60_000;
                long aAhead = a.inspect(s -> s.router().database().get(aId).orElseThrow().sequence()) + 60_000;
                LinkStateSigner mSigns = new LinkStateSigner("m", km, trusted, 16);
                LinkStateSigner bSigns = new LinkStateSigner("b", kb, trusted, 16);

                ExtensionRecord bClaim = new ExtensionRecord(bId, AuthoritySignedLinkStateTest.KIND, bAhead, 0, text("member m"));
                ExtensionRecord bOther = new ExtensionRecord(bId, AuthoritySignedLinkStateTest.KIND, bAhead - 1, 0, text("member b"));
                ExtensionRecord bGone = new ExtensionRecord(bId, AuthoritySignedLinkStateTest.KIND, bAhead + 1, 0, null);
                ExtensionRecord aClaim = new ExtensionRecord(aId, AuthoritySignedLinkStateTest.KIND, aAhead, 0, text("member m"));
                List<ExtensionRecord> forgeries = List.of(
                        bClaim.withSignature(sign(mSigns, bClaim)),
                        bClaim.withSignature(sign(bSigns, bOther)),
                        bGone.withSignature(sign(mSigns, bGone)),
                        aClaim.withSignature(sign(mSigns, aClaim)));
                long forgedBefore = a.counters().drops(DropReason.FORGED_LINK_STATE);
                for (ExtensionRecord r : forgeries) {
                    forge(forger, Forgeries.extensionUpdate("m", "a", r));
                }
                Eventually.await("every forgery refused at a",
                        () -> a.counters().drops(DropReason.FORGED_LINK_STATE) - forgedBefore >= forgeries.size());

                // The same path carries what m may say: its own record, changed and signed by itself.
                ExtensionRecord own = new ExtensionRecord(mId, AuthoritySignedLinkStateTest.KIND, bAhead + 10_000, 0,
                        text("member m, moved"));
                forge(forger, Forgeries.extensionUpdate("m", "a", own.withSignature(sign(mSigns, own))));
                Eventually.await("m's own record installed at a and flooded to b",
                        () -> "member m, moved".equals(records(b).get(mId)));

                assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - forgedBefore).isEqualTo(forgeries.size());
                for (OverlayNode n : List.of(a, b)) {
                    assertThat(records(n)).as(n.name() + "'s records").containsEntry(aId, "member a")
                            .containsEntry(bId, "member b");
                }
                assertThat(b.counters().drops(DropReason.FORGED_LINK_STATE)).as("a relayed none").isZero();
                assertThat(m.counters().drops(DropReason.FORGED_LINK_STATE)).isZero();
            } finally {
                a.stop();
                b.stop();
                m.stop();
            }
        }
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] sign(LinkStateSigner signer, ExtensionRecord r) {
        return signer.sign(0, ExtensionCodec.signedContent(r));
    }

    /** The node's records of the test's kind, as text. */
    private static Map<NodeId, String> records(OverlayNode n) {
        Map<NodeId, String> out = new java.util.HashMap<>();
        n.inspect(s -> s.router().extensions(AuthoritySignedLinkStateTest.KIND))
                .forEach((origin, r) -> out.put(origin, new String(r, StandardCharsets.US_ASCII)));
        return out;
    }

    /** Hands the forger an update frame of one advertisement and waits until it went out sealed. */
    private static void forge(Forger forger, LinkStateAdvertisement advertisement) {
        forge(forger, Forgeries.linkStateUpdate("m", "a", advertisement));
    }

    /** Hands the forger a frame and waits until it went out sealed. */
    private static void forge(Forger forger, byte[] frame) {
        int before = forger.sent.get();
        forger.next.set(frame);
        Eventually.await("the forged frame sent in place of a hello", () -> forger.sent.get() > before);
    }

    private static OverlayNode start(NodeRuntime runtime, String name, NodeKeys keys, TrustedKeys trusted, Forger forger) {
        NodeConfig.Builder builder = NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS).hello(SecuredPair.HELLO)
                .module(new SecurityModule(SecurityConfig.of(name, keys, null, trusted)))
                .module(new AuthoritySignedLinkStateTest.Member(name));
        if (forger != null) {
            builder.module(forger.module()); // after security, so farther from the socket: what it puts out is sealed
        }
        return OverlayNode.start(builder.build(), runtime);
    }
}
