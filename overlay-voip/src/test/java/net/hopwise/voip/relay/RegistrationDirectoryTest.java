package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Registrations published across the overlay: a phone registers at its site's relay, and a caller at
 * another site reaches it by address of record alone, with no dial-plan rule at either relay; when
 * the registration goes, so does the route. Real nodes over loopback UDP, real relays, phones as UDP
 * sockets.
 */
class RegistrationDirectoryTest {
    @Test
    void aRecordNamesItsNodeAndAsManyAddressesAsFit() {
        byte[] record = RegistrationDirectory.encode("lyon", List.of("alice@example.com", "bob@example.com"), 1024);
        assertThat(RegistrationDirectory.decode(record))
                .isEqualTo(new RegistrationDirectory.Decoded("lyon", List.of("alice@example.com", "bob@example.com")));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add("user" + i + "@example.com");
        }
        RegistrationDirectory.Decoded cut = RegistrationDirectory.decode(RegistrationDirectory.encode("lyon", many, 200));
        assertThat(cut.addresses()).isNotEmpty().hasSizeLessThan(100).isEqualTo(many.subList(0, cut.addresses().size()));
    }

    @Property(tries = 300)
    void anyBytesDecodeToARecordOrToNothing(@ForAll byte[] bytes) {
        RegistrationDirectory.Decoded d = RegistrationDirectory.decode(bytes);
        if (d != null) {
            assertThat(RegistrationDirectory.encode(d.node(), d.addresses(), bytes.length)).isEqualTo(bytes);
        }
    }

    @Test
    void aCallerReachesAPhoneRegisteredAtAnotherSiteWithoutADialPlan() throws Exception {
        try (NodeRuntime runtime = NodeRuntime.create(1);
                DatagramSocket bob = new DatagramSocket(0, InetAddress.getLoopbackAddress());
                DatagramSocket alice = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            bob.setSoTimeout(10_000);
            alice.setSoTimeout(10_000);
            OverlayNode paris = OverlayNode.start(NodeConfig.builder("paris").loopback(0)
                    .module(new RegistrationDirectory()).build(), runtime);
            OverlayNode lyon = OverlayNode.start(NodeConfig.builder("lyon").loopback(0)
                    .module(new RegistrationDirectory()).build(), runtime);
            SipRelay relayParis = null;
            SipRelay relayLyon = null;
            try {
                paris.addNeighbour(new NeighbourConfig("lyon", lyon.localAddress()));
                lyon.addNeighbour(new NeighbourConfig("paris", paris.localAddress()));
                Eventually.await("paris and lyon reach each other",
                        () -> paris.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("lyon")
                                && lyon.reachableNodes(RoutingMetric.EXPECTED_LATENCY).contains("paris"));
                relayParis = SipRelay.start(paris, relay(32000));
                relayLyon = SipRelay.start(lyon, relay(32500));

                int bobPort = bob.getLocalPort();
                send(bob, relayLyon.sipAddress(), register(bobPort, 300));
                assertThat(receive(bob)).startsWith("SIP/2.0 200");
                RegistrationDirectory atParis = paris.module(RegistrationDirectory.class);
                Eventually.await("paris learns where bob is registered",
                        () -> atParis.nodesServing("bob@example.com", "bob").equals(List.of("lyon")));

                send(alice, relayParis.sipAddress(), invite(alice.getLocalPort(), "call-1"));
                String atBob = receiveSkipping(bob, "SIP/2.0 100", alice);
                assertThat(atBob).startsWith("INVITE sip:bob@127.0.0.1:" + bobPort);
                assertThat(atBob).contains("Record-Route:");

                // Bob's registration lapses at lyon: paris no longer finds him and answers the next call itself.
                send(bob, relayLyon.sipAddress(), register(bobPort, 0));
                assertThat(receive(bob)).startsWith("SIP/2.0 200");
                Eventually.await("paris forgets bob", () -> atParis.nodesServing("bob@example.com", "bob").isEmpty());
                send(alice, relayParis.sipAddress(), invite(alice.getLocalPort(), "call-2"));
                assertThat(receiveSkipping(alice, "SIP/2.0 100", null)).startsWith("SIP/2.0 404");
            } finally {
                if (relayParis != null) {
                    relayParis.close();
                }
                if (relayLyon != null) {
                    relayLyon.close();
                }
                paris.stop();
                lyon.stop();
            }
        }
    }

    private static RelayConfig relay(int mediaPorts) {
        return RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 0)).mediaAddress("127.0.0.1")
                .mediaPorts(mediaPorts, mediaPorts + 19).linger(Duration.ZERO).build();
    }

    private static String register(int port, int expires) {
        return "REGISTER sip:example.com SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:" + port + ";branch=z9hG4bK-reg-" + expires + ";rport\r\n"
                + "Max-Forwards: 70\r\n"
                + "From: <sip:bob@example.com>;tag=b1\r\n"
                + "To: <sip:bob@example.com>\r\n"
                + "Call-ID: register-bob@test\r\n"
                + "CSeq: " + (expires == 0 ? 2 : 1) + " REGISTER\r\n"
                + "Contact: <sip:bob@127.0.0.1:" + port + ">\r\n"
                + "Expires: " + expires + "\r\n"
                + "Content-Length: 0\r\n\r\n";
    }

    private static String invite(int port, String callId) {
        String sdp = SipText.sdp("127.0.0.1", 41000, "53655765", 1, "");
        return "INVITE sip:bob@example.com SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 127.0.0.1:" + port + ";branch=z9hG4bK-" + callId + "\r\n"
                + "Max-Forwards: 70\r\n"
                + "From: <sip:alice@example.org>;tag=a1\r\n"
                + "To: <sip:bob@example.com>\r\n"
                + "Call-ID: " + callId + "@test\r\n"
                + "CSeq: 1 INVITE\r\n"
                + "Contact: <sip:alice@127.0.0.1:" + port + ">\r\n"
                + "Content-Type: application/sdp\r\n"
                + "Content-Length: " + sdp.length() + "\r\n\r\n" + sdp;
    }

    private static void send(DatagramSocket from, InetSocketAddress to, String sip) throws Exception {
        byte[] bytes = sip.getBytes(StandardCharsets.US_ASCII);
        from.send(new DatagramPacket(bytes, bytes.length, to));
    }

    private static String receive(DatagramSocket socket) throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[8192], 8192);
        socket.receive(p);
        return new String(p.getData(), 0, p.getLength(), StandardCharsets.US_ASCII);
    }

    /** The first message that does not start with {@code skip}; a 404 to the caller instead fails at once. */
    private static String receiveSkipping(DatagramSocket socket, String skip, DatagramSocket caller) throws Exception {
        while (true) {
            String m;
            try {
                m = receive(socket);
            } catch (SocketTimeoutException e) {
                String callerHeard = "";
                if (caller != null) {
                    caller.setSoTimeout(100);
                    try {
                        callerHeard = receive(caller);
                    } catch (SocketTimeoutException none) {
                        // nothing either
                    }
                }
                throw new AssertionError("nothing arrived; the caller heard: " + callerHeard, e);
            }
            if (!m.startsWith(skip)) {
                return m;
            }
        }
    }
}
