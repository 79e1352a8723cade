package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.Test;

/** Two nodes with the module installed, on virtual time, and an outsider linked to one of them. */
class SecurityModuleTest {
    private static final long MS = 1_000_000L;
    private static final long WALL = 1_800_000_000L;

    private final NodeKeys ka = NodeKeys.generate();
    private final NodeKeys kb = NodeKeys.generate();
    private final Admission trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()),
            "b", List.of(kb.identityPublic())));

    private final io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
            new io.micrometer.core.instrument.simple.SimpleMeterRegistry();

    private VirtualOverlay overlay() {
        return new VirtualOverlay(42, builder -> {
            builder.meterRegistry(meters);
            String name = builder.build().name();
            NodeKeys k = name.equals("a") ? ka : kb;
            builder.module(new SecurityModule(SecurityConfig.of(name, k, null, trusted).withWallClock(() -> WALL)));
        });
    }

    @Test
    void twoNodesLinkUpSealedAndAnOutsidersDatagramsAreCountedDrops() {
        try (VirtualOverlay o = overlay()) {
            o.node("a");
            o.node("b");
            o.external("mallory", (from, d, now) -> { });
            o.link("a", "b", MS);
            o.link("mallory", "b", MS);
            o.startAll();
            long start = o.now();
            assertThat(o.runUntilRoute("a", "b", 10_000 * MS)).isTrue();
            long linkUp = o.now() - start;
            System.out.println("sealed link up after " + linkUp / MS + " ms of virtual time");
            o.runFor(5_000 * MS);
            var statusFuture = o.engine("a").module(SecureLinks.class).status();
            o.runFor(MS);
            LinkSecurity.PeerStatus status = statusFuture.join().get(0);
            assertThat(status.name()).isEqualTo("b");
            assertThat(status.authenticated()).isTrue();
            assertThat(status.fingerprint()).isEqualTo(kb.fingerprint());
            // both ends start a handshake with their first hello: one or two complete
            assertThat(meters.get("hopwise.security.handshakes").tag("node", "a").tag("peer", "b")
                    .functionCounter().count()).isBetween(1.0, 2.0);
            assertThat(meters.get("hopwise.security.authenticated").tag("node", "a").tag("peer", "b")
                    .gauge().value()).isEqualTo(1.0);
            assertThat(o.engine("a").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isTrue();
            assertThat(o.engine("b").hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isTrue();
            assertThat(o.events()).anySatisfy(e -> {
                assertThat(e.kind()).isEqualTo(NodeEvent.Kind.LINK_UP);
                assertThat(e.node()).isEqualTo("a");
            });
            assertThat(drops(o, "a")).isZero();
            // Link state is signed with the identity keys the trusted list names, and verified before use.
            var bAtA = o.engine("a").router().database().get(NodeId.ofName("b")).orElseThrow();
            assertThat(bAtA.signature()).hasSize(64);
            assertThat(o.engine("a").router().signaturesVerified()).isPositive();
            assertThat(o.engine("a").router().signaturesFailed()).isZero();
            long before = drops(o, "b");

            Random random = new Random(7);
            for (int i = 0; i < 200; i++) {
                byte[] junk = new byte[1 + random.nextInt(1200)];
                random.nextBytes(junk);
                o.inject("mallory", "b", Unpooled.wrappedBuffer(junk));
            }
            o.runFor(1_000 * MS);
            // every datagram of the outsider's was dropped and counted (an INIT-shaped one may earn a
            // cookie instead, which costs nothing); the link stays up
            assertThat(drops(o, "b") - before).isGreaterThanOrEqualTo(195);
            assertThat(o.engine("b").hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isTrue();
            assertThat(o.engine("b").hasRoute(NodeId.ofName("mallory"), RoutingMetric.HOPS)).isFalse();
        }
    }

    @Test
    void aKeyRevokedWhileTheLinkIsUpTakesTheLinkDownWithinTheDeadInterval() {
        try (VirtualOverlay o = overlay()) {
            o.node("a");
            o.node("b");
            o.link("a", "b", MS);
            o.startAll();
            o.runFor(3_000 * MS);
            assertThat(o.engine("b").hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isTrue();
            var cut = o.engine("b").module(SecureLinks.class)
                    .updateAdmission(new TrustedKeys(Map.of("b", List.of(kb.identityPublic()))));
            o.runFor(MS);
            assertThat(cut.join()).containsExactly("a");
            o.runFor(10_000 * MS); // more than the dead interval
            assertThat(o.engine("b").hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isFalse();
            assertThat(o.engine("a").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isFalse();
            assertThat(o.events()).anySatisfy(e -> {
                assertThat(e.kind()).isEqualTo(NodeEvent.Kind.LINK_DOWN);
                assertThat(e.node()).isEqualTo("b");
            });
        }
    }

    @Test
    void aNodeWithoutTheModuleCannotLinkWithASecuredOne() {
        try (VirtualOverlay o = new VirtualOverlay(42, builder -> {
            if (builder.build().name().equals("a")) {
                builder.module(new SecurityModule(SecurityConfig.of("a", ka, null, trusted).withWallClock(() -> WALL)));
            }
        })) {
            o.node("a");
            o.node("b");
            o.link("a", "b", MS);
            o.startAll();
            o.runFor(5_000 * MS);
            assertThat(o.engine("a").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isFalse();
            assertThat(o.engine("b").hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isFalse();
            assertThat(drops(o, "a")).isPositive(); // b's plaintext hellos
        }
    }

    /**
     * An admitted node seals, under its own link keys, datagrams whose header names a neighbour of the
     * receiver as their sender (a hello claiming to be b, which would move b to the forger's address):
     * the receiver drops each as a forgery of the peer whose keys opened it, and b stays where it is.
     */
    @Test
    void aDatagramOpenedWithOnePeersKeysMustNameThatPeerAsItsSender() {
        NodeKeys kc = NodeKeys.generate();
        Admission three = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic()),
                "c", List.of(kc.identityPublic())));
        long b = NodeId.ofName("b").value();
        long c = NodeId.ofName("c").value();
        boolean[] forging = {false};
        try (VirtualOverlay o = new VirtualOverlay(42, builder -> {
            builder.meterRegistry(meters);
            String name = builder.build().name();
            NodeKeys k = name.equals("a") ? ka : name.equals("b") ? kb : kc;
            builder.module(new SecurityModule(SecurityConfig.of(name, k, null, three).withWallClock(() -> WALL)));
            if (name.equals("a")) {
                // farther from the socket than link security: it rewrites what a sends to c before sealing
                builder.module(net.hopwise.overlay.testing.DatagramTap.outbound("impersonate-b", (link, address, datagram) -> {
                    if (!forging[0] || !link.name().equals("c")) {
                        return datagram;
                    }
                    io.netty.buffer.ByteBuf copy = datagram.copy();
                    datagram.release();
                    net.hopwise.overlay.wire.WireHeader.restamp(copy, b, c,
                            net.hopwise.overlay.wire.WireHeader.linkSequence(copy));
                    return copy;
                }));
            }
        })) {
            o.node("a");
            o.node("b");
            o.node("c");
            o.link("a", "c", MS);
            o.link("b", "c", MS);
            o.startAll();
            o.runFor(3_000 * MS);
            assertThat(o.engine("c").hasRoute(NodeId.ofName("a"), RoutingMetric.HOPS)).isTrue();
            assertThat(o.engine("c").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isTrue();
            java.net.InetSocketAddress bAt = neighbourAddress(o, "c", "b");
            assertThat(bAt).isEqualTo(o.address("b"));

            forging[0] = true;
            o.runFor(5_000 * MS);
            long forged = o.engine("c").counters().moduleDrops().stream()
                    .filter(d -> d.reason().equals(DropReason.FORGED_SENDER.reason())).mapToLong(DropCounter::count).sum();
            assertThat(forged).isPositive();
            assertThat(neighbourAddress(o, "c", "b")).isEqualTo(o.address("b"));
            assertThat(o.engine("c").hasRoute(NodeId.ofName("b"), RoutingMetric.HOPS)).isTrue();
            var status = o.engine("c").module(SecureLinks.class).status();
            o.runFor(MS);
            assertThat(status.join()).filteredOn(st -> st.name().equals("a"))
                    .singleElement().satisfies(st -> assertThat(st.forgeries()).isEqualTo(forged));
        }
    }

    private static java.net.InetSocketAddress neighbourAddress(VirtualOverlay o, String node, String neighbour) {
        return o.engine(node).neighbours().stream().filter(n -> n.name().equals(neighbour)).findFirst()
                .orElseThrow().address();
    }

    private static long drops(VirtualOverlay o, String node) {
        return o.engine(node).counters().moduleDrops().stream()
                .filter(d -> d.reason().startsWith("security_") && !d.reason().equals("security_no_session"))
                .mapToLong(DropCounter::count).sum();
    }
}
