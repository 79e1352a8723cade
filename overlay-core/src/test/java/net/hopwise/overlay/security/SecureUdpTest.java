package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Two secured nodes on loopback UDP whose every datagram passes a relay that keeps a copy, as an
 * attacker on the path would; the attacker then sends from a socket of its own.
 */
class SecureUdpTest {
    private static final byte[] KNOWN = "a message the attacker knows the text of".getBytes(StandardCharsets.US_ASCII);

    /**
     * b knows a at an address a no longer uses: a's handshake from its real address gets its cookie
     * there (a handshake reply goes to any address, not only to a link's), completes, and moves a at
     * b to the address it proved; a stranger's INIT is answered with a cookie too, and nothing kept.
     */
    @Test
    void anInitiatorAtAnAddressNoLinkNamesGetsItsCookieAndCompletes() throws Exception {
        NodeKeys ka = NodeKeys.generate();
        NodeKeys kb = NodeKeys.generate();
        TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic())));
        try (NodeRuntime runtime = NodeRuntime.create(1);
                DatagramChannel old = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
                DatagramChannel stranger = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).defaultMetric(RoutingMetric.HOPS)
                    .module(new SecurityModule(SecurityConfig.of("a", ka, null, trusted))).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).defaultMetric(RoutingMetric.HOPS)
                    .module(new SecurityModule(SecurityConfig.of("b", kb, null, trusted))).build(), runtime);
            try {
                InetSocketAddress aAt = new InetSocketAddress("127.0.0.1", a.localAddress().getPort());
                // b first: a FINAL that reaches b before b knows a is refused, and the initiator then
                // starts again only after handshakeTimeout (a race of the test's two calls, not what it
                // checks; LinkSecurityTest checks that recovery)
                b.addNeighbour(new NeighbourConfig("a", (InetSocketAddress) old.getLocalAddress()));
                a.addNeighbour(new NeighbourConfig("b", new InetSocketAddress("127.0.0.1", b.localAddress().getPort())));
                Eventually.await("routes both ways once a's handshake completed from its real address",
                        () -> !a.path("b", RoutingMetric.HOPS).isEmpty() && !b.path("a", RoutingMetric.HOPS).isEmpty());
                LinkSecurity.PeerStatus st = b.module(SecureLinks.class).status().join().get(0);
                assertThat(st.authenticated()).isTrue();
                assertThat(st.address()).isEqualTo(aAt);
                InetSocketAddress aAtB = b.inspect(e -> e.neighbours().get(0).address());
                assertThat(aAtB).isEqualTo(aAt);
                long cookies = b.module(SecureLinks.class).cookieReplies();
                assertThat(cookies).isPositive();

                byte[] init = new byte[SecureWire.INIT_BYTES];
                new Random(3).nextBytes(init);
                init[0] = SecureWire.INIT;
                java.util.Arrays.fill(init, SecureWire.INIT_BYTES - SecureWire.COOKIE_BYTES, SecureWire.INIT_BYTES, (byte) 0);
                stranger.configureBlocking(false);
                stranger.send(ByteBuffer.wrap(init), new InetSocketAddress("127.0.0.1", b.localAddress().getPort()));
                ByteBuffer reply = ByteBuffer.allocate(2048);
                Eventually.await("a cookie for the stranger", () -> {
                    try {
                        return stranger.receive(reply) != null;
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                reply.flip();
                assertThat(reply.remaining()).isEqualTo(SecureWire.COOKIE_REPLY_BYTES);
                assertThat(reply.get(0)).isEqualTo(SecureWire.COOKIE);
                assertThat(reply.getInt(1)).isEqualTo(ByteBuffer.wrap(init).getInt(1));
                assertThat(b.module(SecureLinks.class).cookieReplies()).isEqualTo(cookies + 1);
                assertThat(b.module(SecureLinks.class).status().join().get(0).handshakes()).isEqualTo(st.handshakes());
            } finally {
                a.stop();
                b.stop();
            }
        }
    }

    @Test
    void anOutsiderWithEveryDatagramInHandCannotReadReplayOrInject() throws Exception {
        NodeKeys ka = NodeKeys.generate();
        NodeKeys kb = NodeKeys.generate();
        TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic())));
        ConcurrentLinkedQueue<byte[]> delivered = new ConcurrentLinkedQueue<>();
        try (NodeRuntime runtime = NodeRuntime.create(1);
                Relay relay = new Relay()) {
            OverlayNode a = OverlayNode.start(NodeConfig.builder("a").loopback(0).defaultMetric(RoutingMetric.HOPS)
                    .module(new SecurityModule(SecurityConfig.of("a", ka, null, trusted))).build(), runtime);
            OverlayNode b = OverlayNode.start(NodeConfig.builder("b").loopback(0).defaultMetric(RoutingMetric.HOPS)
                    .module(new SecurityModule(SecurityConfig.of("b", kb, null, trusted))).build(), runtime);
            try {
                relay.between(a.localAddress(), b.localAddress());
                a.addNeighbour(new NeighbourConfig("b", relay.forA()));
                b.addNeighbour(new NeighbourConfig("a", relay.forB()));
                b.openPort(7, m -> delivered.add(m.payloadBytes()));
                Eventually.await("a route from a to b over sealed links",
                        () -> !a.path("b", RoutingMetric.HOPS).isEmpty());
                var port = a.openPort(7, m -> { });
                assertThat(port.send("b", 7, KNOWN)).isEqualTo(SendResult.ACCEPTED);
                Eventually.await("the message delivered", () -> delivered.size() == 1);

                List<byte[]> captured = List.copyOf(relay.captured);
                assertThat(captured).isNotEmpty().allSatisfy(d ->
                        assertThat(LinkSecurityTest.indexOf(d, KNOWN)).as("plaintext on the wire").isNegative());
                long before = drops(b);
                try (DatagramChannel attacker = DatagramChannel.open()) {
                    attacker.bind(new InetSocketAddress("127.0.0.1", 0));
                    // every captured datagram again, from the attacker's address and through the relay
                    for (byte[] d : captured) {
                        attacker.send(ByteBuffer.wrap(d), b.localAddress());
                        relay.replayToB(d);
                    }
                    Random random = new Random(15);
                    for (int i = 0; i < 300; i++) {
                        byte[] junk = new byte[1 + random.nextInt(1200)];
                        random.nextBytes(junk);
                        attacker.send(ByteBuffer.wrap(junk), b.localAddress());
                    }
                }
                long sent = 2L * captured.size() + 300;
                // handshake messages replayed earn a cookie or are ignored; everything else is a drop
                Eventually.await("the attacker's datagrams counted as drops", () -> drops(b) - before >= sent * 3 / 4);
                assertThat(delivered).hasSize(1);
                assertThat(!a.path("b", RoutingMetric.HOPS).isEmpty()).isTrue();
            } finally {
                a.stop();
                b.stop();
            }
        }
    }

    private static long drops(OverlayNode node) {
        return node.counters().moduleDrops().stream().filter(d -> d.reason().startsWith("security_"))
                .mapToLong(DropCounter::count).sum();
    }

    /** Forwards between two nodes on loopback and keeps a copy of every datagram. */
    static final class Relay implements AutoCloseable {
        final ConcurrentLinkedQueue<byte[]> captured = new ConcurrentLinkedQueue<>();
        private final DatagramChannel sideA;
        private final DatagramChannel sideB;
        private volatile InetSocketAddress a;
        private volatile InetSocketAddress b;
        private final Thread fromA;
        private final Thread fromB;

        Relay() throws IOException {
            sideA = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            sideB = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            fromA = new Thread(() -> pump(sideA, sideB, true), "relay-from-a");
            fromB = new Thread(() -> pump(sideB, sideA, false), "relay-from-b");
        }

        void between(InetSocketAddress nodeA, InetSocketAddress nodeB) {
            a = new InetSocketAddress("127.0.0.1", nodeA.getPort());
            b = new InetSocketAddress("127.0.0.1", nodeB.getPort());
            fromA.start();
            fromB.start();
        }

        /** Where a sends to reach b. */
        InetSocketAddress forA() throws IOException {
            return (InetSocketAddress) sideA.getLocalAddress();
        }

        /** Where b sends to reach a. */
        InetSocketAddress forB() throws IOException {
            return (InetSocketAddress) sideB.getLocalAddress();
        }

        void replayToB(byte[] d) throws IOException {
            sideB.send(ByteBuffer.wrap(d), b);
        }

        private void pump(DatagramChannel in, DatagramChannel out, boolean towardsB) {
            ByteBuffer buf = ByteBuffer.allocate(65_536);
            while (in.isOpen()) {
                try {
                    buf.clear();
                    SocketAddress from = in.receive(buf);
                    if (from == null) {
                        continue;
                    }
                    buf.flip();
                    byte[] copy = new byte[buf.remaining()];
                    buf.get(copy);
                    captured.add(copy);
                    out.send(ByteBuffer.wrap(copy), towardsB ? b : a);
                } catch (IOException e) {
                    return; // closed
                }
            }
        }

        @Override
        public void close() throws Exception {
            sideA.close();
            sideB.close();
            fromA.join();
            fromB.join();
        }
    }
}
