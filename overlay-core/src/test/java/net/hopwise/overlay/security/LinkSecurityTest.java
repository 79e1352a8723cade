package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinkSecurityTest {
    private static final byte[] SECRET = "the launch code is 0000".getBytes(StandardCharsets.US_ASCII);

    /** What an attacker's own node admits: anyone, so that it goes as far into a handshake as it can. */
    private static final Admission ANYONE = (name, key, certificate, now) -> Admission.Verdict.ADMITTED;

    private final SecureNet net = new SecureNet();
    private final SecureNet.Node a = net.node("node-a", 7001);
    private final SecureNet.Node b = net.node("node-b", 7002);

    private void start() {
        a.start(net.config(a));
        b.start(net.config(b));
        SecureNet.link(a, b);
    }

    private void establish() {
        assertThat(a.send(b, SECRET)).isFalse();
        net.run();
    }

    @Test
    void linksUpWithACookieRoundAndCarriesDataBothWays() {
        start();
        establish();
        // INIT, COOKIE, INIT with cookie, RESPONSE, FINAL
        assertThat(net.seen).extracting(d -> d.bytes()[0]).containsExactly(SecureWire.INIT, SecureWire.COOKIE,
                SecureWire.INIT, SecureWire.RESPONSE, SecureWire.FINAL);
        assertThat(a.events).containsExactly("established node-b");
        assertThat(b.events).containsExactly("established node-a");
        assertThat(a.send(b, SECRET)).isTrue();
        assertThat(b.send(a, "ack".getBytes(StandardCharsets.US_ASCII))).isTrue();
        net.run();
        assertThat(b.delivered).containsExactly(SECRET);
        assertThat(a.delivered).extracting(x -> new String(x, StandardCharsets.US_ASCII)).containsExactly("ack");
        assertThat(a.engine.status("node-b", net.now).authenticated()).isTrue();
        assertThat(a.engine.status("node-b", net.now).fingerprint()).isEqualTo(b.keys.fingerprint());
        assertThat(a.totalDrops() + b.totalDrops()).isZero();
        assertThat(b.engine.pendingHandshakes()).isZero();
        for (SecureNet.Datagram d : net.seen) {
            assertThat(indexOf(d.bytes(), SECRET)).as("plaintext on the wire").isNegative();
        }
    }

    @Test
    void anInitiatorWhoseFinalWasRefusedStartsAgainAfterTheHandshakeTimeout() {
        a.start(net.config(a));
        b.start(net.config(b));
        a.engine.addPeer(b.name, b.address); // b does not know a yet: it refuses a's FINAL
        assertThat(a.send(b, SECRET)).isFalse();
        net.run();
        assertThat(a.events).containsExactly("established node-b");
        assertThat(b.events).isEmpty();
        b.engine.addPeer(a.name, a.address);
        net.advance(Duration.ofSeconds(30), a, b);
        assertThat(b.events).containsExactly("established node-a");
        assertThat(a.send(b, SECRET)).isTrue();
        net.run();
        assertThat(b.delivered).containsExactly(SECRET);
        assertThat(a.events).containsExactly("established node-b", "established node-b");
    }

    @Test
    void aLinkQuietInTheRespondersDirectionIsConfirmedByItsAnswerToAResentFinalAndKeepsItsSession() {
        start();
        establish();
        net.advance(Duration.ofSeconds(30), a, b); // b never sends: only the answer can confirm
        assertThat(a.events).containsExactly("established node-b");
        assertThat(b.events).containsExactly("established node-a");
        long finals = net.seen.stream().filter(d -> d.bytes()[0] == SecureWire.FINAL).count();
        long answers = net.seen.stream().filter(d -> d.bytes()[0] == SecureWire.DATA && d.from().equals(b.address)).count();
        assertThat(finals).as("the first FINAL and one resent").isEqualTo(2);
        assertThat(answers).isEqualTo(1);
        assertThat(a.delivered).as("the answer is not data").isEmpty();
        assertThat(a.send(b, SECRET)).isTrue();
        net.run();
        assertThat(b.delivered).containsExactly(SECRET);
    }

    @Test
    void aCapturedDatagramIsRefusedWhenReplayedAndAFlippedBitIsAForgery() {
        start();
        establish();
        a.send(b, SECRET);
        SecureNet.Datagram d = net.wire.pollLast();
        for (int i = 0; i < d.bytes().length; i++) {
            byte[] t = d.bytes().clone();
            t[i] ^= 0x40;
            b.receive(d.from(), t);
        }
        assertThat(b.delivered).isEmpty();
        // the type and index route a datagram: changed, it is of no known type or session
        assertThat(b.drops(DropReason.MALFORMED) + b.drops(DropReason.UNKNOWN_SESSION)).isEqualTo(5);
        assertThat(b.drops(DropReason.FORGED)).isEqualTo(d.bytes().length - 5);
        // forgeries moved no window: the real one opens, once
        b.receive(d.from(), d.bytes());
        assertThat(b.delivered).containsExactly(SECRET);
        b.receive(d.from(), d.bytes());
        assertThat(b.drops(DropReason.REPLAY)).isEqualTo(1);
        assertThat(b.delivered).hasSize(1);
        LinkSecurity.PeerStatus status = b.engine.status("node-a", net.now);
        assertThat(status.replays()).isEqualTo(1);
        assertThat(status.forgeries()).isEqualTo(d.bytes().length - 5);
    }

    /**
     * A session's index is in clear in every DATA datagram, and one flipped bit makes DATA's type
     * FINAL's: a FINAL naming a live session is a counted drop like any other, and the link works on.
     */
    @Test
    void aFinalNamingALiveSessionIsACountedDrop() {
        start();
        establish();
        byte[] message = new byte[200]; // long enough to pass for a FINAL once its type is flipped
        a.send(b, message);
        SecureNet.Datagram d = net.wire.pollLast();
        long before = b.drops(DropReason.HANDSHAKE);
        byte[] flipped = d.bytes().clone();
        flipped[0] = SecureWire.FINAL;
        b.receive(d.from(), flipped);
        byte[] crafted = new byte[5 + NoiseXX.MESSAGE3_OVERHEAD + 20];
        new java.util.Random(5).nextBytes(crafted);
        crafted[0] = SecureWire.FINAL;
        System.arraycopy(d.bytes(), 1, crafted, 1, 4);
        b.receive(d.from(), crafted);
        assertThat(b.drops(DropReason.HANDSHAKE) - before).isEqualTo(2);
        b.receive(d.from(), d.bytes());
        assertThat(b.delivered).containsExactly(message);
    }

    @Test
    void aNodeNotAdmittedOrClaimingAnotherNameIsRefusedAndGetsNoSession() {
        SecureNet.Node mallory = net.node("mallory", 7666);
        net.trusted.remove("mallory");
        start();
        // mallory claims its own name, then node-a's: neither is admitted at node-b
        mallory.start(SecurityConfig.of("mallory", mallory.keys, null, ANYONE));
        mallory.engine.addPeer("node-b", b.address);
        b.engine.addPeer("mallory", mallory.address);
        mallory.send(b, SECRET);
        net.run();
        assertThat(b.drops(DropReason.REJECTED)).isEqualTo(1);
        SecureNet.Node forger = new SecureNet().node("node-a", 7666);
        SecureNet.Node impostor = net.new Node("node-a", 7667, forger.keys);
        net.byAddress.put(impostor.address, impostor);
        impostor.start(SecurityConfig.of("node-a", impostor.keys, null, ANYONE));
        impostor.engine.addPeer("node-b", b.address);
        impostor.send(b, SECRET);
        net.run();
        assertThat(b.drops(DropReason.REJECTED)).isEqualTo(2);
        assertThat(b.engine.status("node-a", net.now).rejections()).isEqualTo(1);
        assertThat(b.engine.status("mallory", net.now).rejections()).isEqualTo(1);
        assertThat(b.events).isEmpty();
        assertThat(b.engine.status("node-a", net.now).authenticated()).isFalse();
        assertThat(b.engine.address("node-a")).isEqualTo(a.address);
        assertThat(b.engine.pendingHandshakes()).isZero();
        assertThat(b.delivered).isEmpty();
    }

    @Test
    void aStolenIdentityPayloadWithAnotherLinkKeyIsRefused() {
        start();
        // node-a's public identity and binding, with a link key of the attacker's: the binding fails
        NodeKeys attacker = NodeKeys.generate();
        SecureNet.Node thief = net.new Node("node-a", 7668, attacker);
        net.byAddress.put(thief.address, thief);
        SecurityConfig c = SecurityConfig.of("node-a", attacker, null, ANYONE);
        thief.start(c);
        thief.engine.addPeer("node-b", b.address);
        byte[] stolen = new HandshakePayload("node-a", a.keys.identityPublic(), a.keys.linkKeyBinding(), null).encode();
        setPayload(thief.engine, stolen);
        thief.send(b, SECRET);
        net.run();
        assertThat(b.drops(DropReason.REJECTED)).isEqualTo(1);
        assertThat(b.events).isEmpty();
    }

    @Test
    void spoofedInitsCostNoStateAndRealOnesBoundedState() {
        a.start(net.config(a));
        b.start(net.config(b).withMaxPendingHandshakes(8).withHandshakeBudget(1000, 1000));
        SecureNet.link(a, b);
        for (int i = 0; i < 10_000; i++) {
            byte[] init = new byte[SecureWire.INIT_BYTES];
            init[0] = SecureWire.INIT;
            SecureWire.putInt(init, 1, i);
            System.arraycopy(Crypto.x25519Public(Crypto.newX25519Private()), 0, init, 5, 32);
            b.receive(new InetSocketAddress("10.0.0." + (i % 250 + 1), 1000 + i), init);
        }
        assertThat(b.engine.pendingHandshakes()).isZero();
        assertThat(net.wire).allMatch(d -> d.bytes().length == SecureWire.COOKIE_REPLY_BYTES);
        net.wire.clear();
        // an attacker at real addresses who answers its cookies: state stays at the limit
        for (int i = 0; i < 50; i++) {
            SecureNet.Node m = net.new Node("node-a", 8000 + i, NodeKeys.generate());
            net.byAddress.put(m.address, m);
            m.start(net.config(m));
            m.engine.addPeer("node-b", b.address);
            net.byAddress.remove(b.address); // b's RESPONSE is not answered
            m.send(b, SECRET);
            SecureNet.Datagram init = net.wire.poll();
            b.receive(init.from(), init.bytes());
            SecureNet.Datagram cookie = net.wire.poll();
            m.receive(cookie.from(), cookie.bytes());
            SecureNet.Datagram init2 = net.wire.poll();
            b.receive(init2.from(), init2.bytes());
            net.wire.clear();
            net.byAddress.put(b.address, b);
            assertThat(b.engine.pendingHandshakes()).isLessThanOrEqualTo(8);
        }
        assertThat(b.drops(DropReason.PENDING_LIMIT)).isEqualTo(42);
        net.advance(Duration.ofSeconds(6), b);
        assertThat(b.engine.pendingHandshakes()).isZero();
        // the real neighbour still gets in
        establish();
        assertThat(b.events).containsExactly("established node-a");
    }

    @Test
    void handshakesThatPassTheCookieAreRateLimitedPerAddressAndInAll() {
        a.start(net.config(a));
        b.start(net.config(b).withHandshakeBudget(10, 25));
        SecureNet.link(a, b);
        for (int i = 0; i < 40; i++) {
            cookiedInit(8000 + i, "127.0.0.1"); // one source address
        }
        assertThat(b.engine.pendingHandshakes()).isEqualTo(10);
        assertThat(b.drops(DropReason.HANDSHAKE_RATE)).isEqualTo(30);
        for (int i = 0; i < 40; i++) {
            cookiedInit(9000, "127.0.1." + (i + 1)); // many addresses: the total budget holds
        }
        assertThat(b.engine.pendingHandshakes()).isEqualTo(25);
        assertThat(b.drops(DropReason.HANDSHAKE_RATE)).isEqualTo(30 + 25);
        net.advance(Duration.ofSeconds(6), b); // budgets refill, pending ones expire
        assertThat(b.engine.pendingHandshakes()).isZero();
        establish();
        assertThat(b.events).containsExactly("established node-a");
    }

    /** An attacker at a real address who answers its cookie: b starts a handshake (or refuses it). */
    private void cookiedInit(int port, String ip) {
        SecureNet.Node m = net.new Node("node-a", port, NodeKeys.generate());
        InetSocketAddress at = new InetSocketAddress(ip, port);
        m.start(net.config(m));
        m.engine.addPeer("node-b", b.address);
        m.send(b, SECRET);
        SecureNet.Datagram init = net.wire.poll();
        b.receive(at, init.bytes());
        SecureNet.Datagram cookie = net.wire.poll();
        m.receive(cookie.from(), cookie.bytes());
        SecureNet.Datagram init2 = net.wire.poll();
        b.receive(at, init2.bytes());
        net.wire.clear();
    }

    @Test
    void theAddressMovesOnlyOnAnAuthenticatedDatagram() {
        start();
        establish();
        InetSocketAddress rebound = new InetSocketAddress("127.0.0.1", 9999);
        a.send(b, SECRET);
        SecureNet.Datagram d = net.wire.pollLast();
        byte[] forged = d.bytes().clone();
        forged[forged.length - 1] ^= 1;
        b.receive(rebound, forged);
        assertThat(b.engine.address("node-a")).isEqualTo(a.address);
        b.receive(rebound, d.bytes());
        assertThat(b.engine.address("node-a")).isEqualTo(rebound);
        assertThat(b.events).containsExactly("established node-a", "moved node-a 9999");
    }

    @Test
    void rekeysOnAgeAndTheOldSessionStillOpensWhatIsInFlight() {
        a.start(net.config(a).withRekey(Duration.ofSeconds(10), Duration.ofSeconds(15), 1000, 2000));
        b.start(net.config(b).withRekey(Duration.ofSeconds(10), Duration.ofSeconds(15), 1000, 2000));
        SecureNet.link(a, b);
        establish();
        net.advance(Duration.ofSeconds(11), a, b);
        assertThat(a.send(b, "old".getBytes(StandardCharsets.US_ASCII))).isTrue(); // old keys, rekey starts
        SecureNet.Datagram inFlight = net.wire.pollLast();
        net.run();
        assertThat(a.engine.status("node-b", net.now).rekeys()).isEqualTo(1);
        assertThat(b.engine.status("node-b", net.now)).isNull();
        assertThat(b.engine.status("node-a", net.now).rekeys()).isEqualTo(1);
        b.receive(inFlight.from(), inFlight.bytes());
        a.send(b, "new".getBytes(StandardCharsets.US_ASCII));
        b.send(a, "hi".getBytes(StandardCharsets.US_ASCII));
        net.run();
        assertThat(b.delivered).extracting(x -> new String(x, StandardCharsets.US_ASCII)).containsExactly("old", "new");
        // past the old session's life, what was sealed under it is refused
        net.advance(Duration.ofSeconds(5), a, b);
        b.receive(inFlight.from(), inFlight.bytes());
        assertThat(b.drops(DropReason.UNKNOWN_SESSION)).isEqualTo(1);
        // and by packet count
        for (int i = 0; i < 1000; i++) {
            a.send(b, SECRET);
        }
        net.run();
        assertThat(a.engine.status("node-b", net.now).rekeys()).isEqualTo(2);
        assertThat(a.drops).isEmpty();
    }

    @Test
    void lostHandshakeDatagramsAreRetriedAndARestartedPeerRelinks() {
        SecureNet.Node c = net.node("node-c", 7003);
        start();
        assertThat(a.send(b, SECRET)).isFalse();
        net.run(d -> d.bytes()[0] == SecureWire.INIT && net.now == SecureNet.NOW0); // the first INITs are lost
        assertThat(a.events).isEmpty();
        net.advance(Duration.ofSeconds(1), a, b);
        assertThat(a.events).containsExactly("established node-b");
        // a lost FINAL: node-a resends it until node-b's data shows node-b has the keys
        c.start(net.config(c));
        a.engine.addPeer("node-c", c.address);
        c.engine.addPeer("node-a", a.address);
        a.send(c, SECRET);
        net.run(d -> d.bytes()[0] == SecureWire.FINAL);
        assertThat(c.events).isEmpty();
        assertThat(a.send(c, SECRET)).isTrue();
        net.run();
        assertThat(c.drops(DropReason.UNKNOWN_SESSION)).isEqualTo(1);
        net.advance(Duration.ofSeconds(1), a, c);
        assertThat(c.events).containsExactly("established node-a");
        // node-b restarts with the same keys: it knows no session, relinks on its first send
        b.start(net.config(b));
        b.engine.addPeer("node-a", a.address);
        a.send(b, SECRET);
        net.run();
        assertThat(b.drops(DropReason.UNKNOWN_SESSION)).isEqualTo(1);
        assertThat(b.send(a, SECRET)).isFalse();
        net.run();
        assertThat(b.send(a, SECRET)).isTrue();
        assertThat(a.send(b, SECRET)).isTrue();
        net.run();
        assertThat(a.delivered).hasSize(1);
        assertThat(b.delivered).hasSize(1);
    }

    @Test
    void certificatesAdmitWithoutListingKeys() {
        byte[] authority = Crypto.newEd25519Private();
        Admission admission = AuthorityAdmission.of(Crypto.ed25519Public(authority));
        for (SecureNet.Node n : List.of(a, b)) {
            NodeCertificate c = NodeCertificate.sign(authority, n.name, n.keys.identityPublic(), SecureNet.WALL - 10,
                    SecureNet.WALL + 10, 1);
            n.start(SecurityConfig.of(n.name, n.keys, c, admission).withWallClock(() -> SecureNet.WALL));
        }
        SecureNet.link(a, b);
        establish();
        assertThat(b.events).containsExactly("established node-a");
    }

    @Test
    void aesGcmLinksCarryDataAndASuiteMismatchFailsTheHandshake() {
        a.start(net.config(a).withCipherSuite(CipherSuite.AES_GCM));
        b.start(net.config(b).withCipherSuite(CipherSuite.AES_GCM));
        SecureNet.link(a, b);
        establish();
        a.send(b, SECRET);
        net.run();
        assertThat(b.delivered).containsExactly(SECRET);

        SecureNet.Node c = net.node("node-c", 7003);
        c.start(net.config(c));
        SecureNet.Node d = net.node("node-d", 7004);
        d.start(net.config(d).withCipherSuite(CipherSuite.AES_GCM));
        // c's and d's configurations were made after each other's keys were known to the trust list
        c.start(SecurityConfig.of("node-c", c.keys, null, net.config(d).admission()).withWallClock(() -> SecureNet.WALL)
                .withCipherSuite(CipherSuite.CHACHA_POLY));
        SecureNet.link(c, d);
        c.send(d, SECRET);
        net.run();
        assertThat(c.drops(DropReason.HANDSHAKE)).isEqualTo(1);
        assertThat(c.events).isEmpty();
        assertThat(d.events).isEmpty();
    }

    private static void setPayload(LinkSecurity engine, byte[] payload) {
        try {
            var f = LinkSecurity.class.getDeclaredField("localPayload");
            f.setAccessible(true);
            f.set(engine, payload);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
