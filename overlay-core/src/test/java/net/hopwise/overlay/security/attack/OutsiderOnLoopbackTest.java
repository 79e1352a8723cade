package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredPair.drops;
import static net.hopwise.overlay.security.attack.SecuredPair.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.attack.Wiretap.Captured;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.wire.PacketType;
import org.junit.jupiter.api.Test;

/**
 * An attacker on loopback that is not admitted, with every datagram a and b exchange in hand (it is
 * the relay between them), against two real secured nodes: what it sends from its own socket and
 * from the address b knows a by.
 */
class OutsiderOnLoopbackTest {
    private static final byte[] HELLO = "an impostor's frame".getBytes(StandardCharsets.US_ASCII);

    @Test
    void anOutsiderWithItsOwnKeysIsRefusedAndNothingItSealsIsOpened() throws Exception {
        try (SecuredPair p = SecuredPair.start();
                DatagramChannel socket = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            socket.configureBlocking(false);
            InetSocketAddress b = loopback(p.b);
            // The operator configured the link, but the key behind it is on no trust list.
            p.b.addNeighbour(new NeighbourConfig("mallory", (InetSocketAddress) socket.getLocalAddress()));
            Impostor.Wire wire = d -> socket.send(ByteBuffer.wrap(d), b);
            Impostor mallory = new Impostor("mallory", "b", p.kb.identityPublic(), b, wire);
            long refused = drops(p.b, DropReason.REJECTED);
            mallory.send(HELLO, System.nanoTime(), wire);
            Eventually.await("mallory's handshake done at its end and refused by b", () -> {
                pump(socket, mallory);
                return mallory.established.get() > 0 && drops(p.b, DropReason.REJECTED) > refused;
            });

            long unknown = drops(p.b, DropReason.UNKNOWN_SESSION);
            for (int i = 0; i < 20; i++) {
                assertThat(mallory.send(HELLO, System.nanoTime(), wire)).as("mallory believes it has keys").isTrue();
            }
            Eventually.await("mallory's sealed datagrams dropped", () -> drops(p.b, DropReason.UNKNOWN_SESSION) - unknown >= 20);
            assertThat(drops(p.b, DropReason.UNKNOWN_SESSION) - unknown).isEqualTo(20);
            assertThat(status(p.b, "mallory").authenticated()).isFalse();
            assertThat(status(p.b, "mallory").rejections()).isPositive();
            assertThat(p.b.path("mallory", RoutingMetric.HOPS)).isEmpty();
            assertThat(p.b.reachableNodes(RoutingMetric.HOPS)).doesNotContain("mallory");
            assertThat(status(p.b, "a").fingerprint()).isEqualTo(p.ka.fingerprint());
            p.deliverFromA("a still gets through");
        }
    }

    @Test
    void anOnPathAttackerClaimingANeighboursNameWithItsOwnKeyIsRefusedAndTheRealLinkStays() throws Exception {
        try (SecuredPair p = SecuredPair.start()) {
            InetSocketAddress b = loopback(p.b);
            long handshakes = status(p.b, "a").handshakes();
            // It sends from the address b knows a by and reads what b sends there: all a spoofer could do.
            Impostor.Wire wire = p.tap::sendToB;
            Impostor fakeA = new Impostor("a", "b", p.kb.identityPublic(), b, wire);
            p.tap.listen(c -> {
                if (!c.towardsB()) {
                    fakeA.receive(b, c.bytes(), System.nanoTime());
                }
            });
            long refused = drops(p.b, DropReason.REJECTED);
            fakeA.send(HELLO, System.nanoTime(), wire);
            Eventually.await("the fake a's handshake refused by b", () -> {
                fakeA.tick(System.nanoTime());
                return fakeA.established.get() > 0 && drops(p.b, DropReason.REJECTED) > refused;
            });
            long unknown = drops(p.b, DropReason.UNKNOWN_SESSION);
            for (int i = 0; i < 20; i++) {
                fakeA.send(HELLO, System.nanoTime(), wire);
            }
            Eventually.await("its sealed datagrams dropped", () -> drops(p.b, DropReason.UNKNOWN_SESSION) - unknown >= 20);
            assertThat(drops(p.b, DropReason.UNKNOWN_SESSION) - unknown).isEqualTo(20);

            var link = status(p.b, "a");
            assertThat(link.authenticated()).isTrue();
            assertThat(link.fingerprint()).as("still the real a's key").isEqualTo(p.ka.fingerprint());
            assertThat(link.handshakes()).as("no session made with the impostor").isEqualTo(handshakes);
            assertThat(link.rejections()).isPositive();
            p.deliverFromA("the real a");
            assertThat(p.deliveredAtB).containsExactly("the real a");
        }
    }

    @Test
    void replaysOldAndRecentFromTheAttackersAddressAndTheNeighboursAreCountedDropsAndMoveNothing() throws Exception {
        // Sessions rekey every 64 datagrams, so that the first captures belong to sessions since replaced.
        try (SecuredPair p = SecuredPair.start(c -> c.withRekey(c.rekeyAfter(), c.rejectAfter(), 64, 1L << 20), true);
                DatagramChannel attacker = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress b = loopback(p.b);
            List<byte[]> old = sealedTowardsB(p.tap);
            var port = p.a.openPort(1000, m -> { });
            AtomicInteger messages = new AtomicInteger();
            Eventually.await("rekeyed at least twice", () -> {
                if (status(p.a, "b").rekeys() >= 2) {
                    return true;
                }
                for (int i = 0; i < 10; i++) {
                    port.send("b", SecuredPair.PORT, ("m" + messages.getAndIncrement()).getBytes(StandardCharsets.US_ASCII));
                }
                return false;
            });
            Eventually.await("every message delivered", () -> p.deliveredAtB.size() == messages.get());
            List<byte[]> all = sealedTowardsB(p.tap);
            List<byte[]> recent = all.subList(Math.max(0, all.size() - 20), all.size());
            awaitRelayed(p.tap, all.size());
            InetSocketAddress aAtB = SecuredPair.neighbourAddress(p.b, "a");
            long handshakes = status(p.b, "a").handshakes();
            int delivered = p.deliveredAtB.size();

            long before = drops(p.b, DropReason.REPLAY) + drops(p.b, DropReason.UNKNOWN_SESSION)
                    + drops(p.b, DropReason.EXPIRED);
            int sent = 0;
            for (List<byte[]> batch : List.of(old, recent)) {
                for (byte[] d : batch) {
                    attacker.send(ByteBuffer.wrap(d), b);
                    p.tap.sendToB(d);
                    sent += 2;
                }
            }
            int expected = sent;
            Eventually.await("every replay counted", () -> drops(p.b, DropReason.REPLAY)
                    + drops(p.b, DropReason.UNKNOWN_SESSION) + drops(p.b, DropReason.EXPIRED) - before >= expected);
            assertThat(drops(p.b, DropReason.REPLAY) + drops(p.b, DropReason.UNKNOWN_SESSION)
                    + drops(p.b, DropReason.EXPIRED) - before).isEqualTo(sent);
            assertThat(p.deliveredAtB).hasSize(delivered);
            assertThat(SecuredPair.neighbourAddress(p.b, "a")).as("the neighbour did not move").isEqualTo(aAtB);
            assertThat(status(p.b, "a").address()).isEqualTo(p.tap.forB());
            assertThat(status(p.b, "a").handshakes()).isEqualTo(handshakes);
            assertThat(p.eventsAtB).noneMatch(e -> e.kind() == NodeEvent.Kind.ADDRESS_CHANGED);
            p.deliverFromA("after the replays");
        }
    }

    @Test
    void craftedPlaintextSealedLookingAndBitFlippedDatagramsInjectNothingAndEachIsACountedDrop() throws Exception {
        try (SecuredPair p = SecuredPair.start();
                DatagramChannel attacker = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress b = loopback(p.b);
            Random random = new Random(1515);
            // Five messages of a's that b never gets: the attacker holds them (large: not hellos).
            List<byte[]> held = new java.util.concurrent.CopyOnWriteArrayList<>();
            AtomicInteger toHold = new AtomicInteger(5);
            p.tap.withhold(c -> c.towardsB() && c.type() == Forgeries.DATA && c.bytes().length > 400
                    && toHold.getAndDecrement() > 0 && held.add(c.bytes()));
            byte[] filler = new byte[400];
            for (int i = 0; i < 5; i++) {
                filler[0] = (byte) ('0' + i);
                p.a.openPort(200 + i, m -> { }).send("b", SecuredPair.PORT, filler);
            }
            Eventually.await("five messages held", () -> held.size() == 5);
            long before = SecuredPair.allDrops(p.b);
            long forged = drops(p.b, DropReason.FORGED);
            int sent = 0;

            // Plaintext frames, as a node without keys would send them: a message, a claim of links.
            byte[] body = new byte[64];
            random.nextBytes(body);
            for (PacketType t : PacketType.values()) {
                byte[] frame = Forgeries.plaintext(t, "a", "b", body);
                attacker.send(ByteBuffer.wrap(frame), b);
                p.tap.sendToB(frame);
                sent += 2;
            }
            // Sealed-looking: b's live session index (it is in clear), counters ahead of anything seen.
            int index = Forgeries.receiverIndex(held.get(0));
            for (int i = 0; i < 50; i++) {
                byte[] d = Forgeries.sealedLooking(random, index, (1L << 40) + i, 1 + random.nextInt(1000));
                p.tap.sendToB(d);
                sent++;
            }
            // Each bit of the type byte of a held message flipped, then every seventh bit: a flipped type
            // is another message's or none (a FINAL naming b's live session among them), each dropped.
            byte[] real = held.get(1);
            for (int bit = 0; bit < real.length * 8; bit += bit < 8 ? 1 : 7) {
                p.tap.sendToB(Forgeries.flip(real, bit));
                sent++;
            }
            int expected = sent;
            Eventually.await("every crafted datagram counted", () -> SecuredPair.allDrops(p.b) - before >= expected);
            assertThat(SecuredPair.allDrops(p.b) - before).isEqualTo(sent);
            assertThat(drops(p.b, DropReason.FORGED) - forged).as("the tag refuses them").isGreaterThanOrEqualTo(50);
            assertThat(p.deliveredAtB).isEmpty();
            assertThat(p.b.counters().drops(net.hopwise.overlay.wire.DropReason.FORGED_LINK_STATE)).isZero();
            assertThat(p.b.reachableNodes(RoutingMetric.HOPS)).containsExactlyInAnyOrder("a", "b");

            // None of the forgeries moved the replay window: the held originals still open, once each.
            p.tap.withhold(c -> false);
            for (byte[] d : held) {
                p.tap.sendToB(d);
                p.tap.sendToB(d);
            }
            Eventually.await("the held messages delivered", () -> p.deliveredAtB.size() == 5);
            assertThat(p.deliveredAtB).hasSize(5).doesNotHaveDuplicates();
        }
    }

    /**
     * A FINAL whose index names a session the node already has is a counted drop like any other,
     * though it may be a resend of the FINAL that made the session: the index is in clear in every
     * sealed datagram, and one flipped bit turns a sealed datagram's type into FINAL's.
     */
    @Test
    void aFinalNamingALiveSessionIsACountedDropWhetherCraftedOrATypeBitFlipped() throws Exception {
        try (SecuredPair p = SecuredPair.start();
                DatagramChannel attacker = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress b = loopback(p.b);
            List<byte[]> sealed = sealedTowardsB(p.tap);
            awaitRelayed(p.tap, sealed.size());
            byte[] real = sealed.get(sealed.size() - 1);
            long before = SecuredPair.allDrops(p.b);
            long malformed = drops(p.b, DropReason.MALFORMED);
            Random random = new Random(4);
            for (int i = 0; i < 10; i++) {
                byte[] fin = new byte[5 + 80];
                random.nextBytes(fin);
                fin[0] = (byte) Forgeries.FINAL;
                Forgeries.putInt(fin, 1, Forgeries.receiverIndex(real));
                p.tap.sendToB(fin);
                attacker.send(ByteBuffer.wrap(fin), b);
                p.tap.sendToB(Forgeries.flip(real, 0));
            }
            p.tap.sendToB(new byte[] {0}); // surely counted, and read after the others
            Eventually.await("the closing datagram counted", () -> drops(p.b, DropReason.MALFORMED) > malformed);
            assertThat(SecuredPair.allDrops(p.b) - before).isEqualTo(31);
        }
    }

    @Test
    void noPlaintextOfAKnownPayloadAppearsOnTheWireWhileWithoutKeysItWould() throws Exception {
        byte[] marker = "MARKER-4c7f1e: the attacker knows this text and looks for it".getBytes(StandardCharsets.US_ASCII);
        // Control: the same exchange between plaintext nodes shows the marker, so the search can see it.
        assertThat(markerSeen(marker, false)).as("plaintext nodes show the marker").isTrue();
        assertThat(markerSeen(marker, true)).as("sealed nodes show no part of it").isFalse();
    }

    /** Whether any 16 bytes of the marker appear in any datagram a and b exchanged. */
    private static boolean markerSeen(byte[] marker, boolean secured) throws Exception {
        try (SecuredPair p = SecuredPair.start(c -> c, secured)) {
            p.b.acceptSessions(SecuredPair.PORT, s -> m -> p.deliveredAtB.add(
                    m.payload().toString(StandardCharsets.ISO_8859_1)));
            var port = p.a.openPort(9, m -> { });
            port.send("b", SecuredPair.PORT, marker);
            var session = port.openReliable("b", SecuredPair.PORT, m -> { });
            session.send(marker);
            String text = new String(marker, StandardCharsets.ISO_8859_1);
            Eventually.await("the marker delivered twice", () -> p.deliveredAtB.stream().filter(text::equals).count() == 2);
            p.b.openPort(10, m -> { }).send("a", 9, marker);
            p.deliverFromA("done");
            for (Captured c : p.tap.snapshot()) {
                for (int i = 0; i + 16 <= marker.length; i++) {
                    if (Forgeries.contains(c.bytes(), java.util.Arrays.copyOfRange(marker, i, i + 16))) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    static InetSocketAddress loopback(OverlayNode node) {
        return new InetSocketAddress("127.0.0.1", node.localAddress().getPort());
    }

    static List<byte[]> sealedTowardsB(Wiretap tap) {
        List<byte[]> out = new ArrayList<>();
        for (Captured c : tap.snapshot()) {
            if (c.towardsB() && c.type() == Forgeries.DATA) {
                out.add(c.bytes());
            }
        }
        return out;
    }

    /**
     * Waits until the relay has passed on a datagram towards b captured after the first {@code
     * seen}: the relay sends in order, so every earlier one is in b's socket before anything the
     * test sends next.
     */
    static void awaitRelayed(Wiretap tap, int sealedSeen) {
        Eventually.await("a later datagram relayed", () -> sealedTowardsB(tap).size() > sealedSeen + 1);
    }

    private static void pump(DatagramChannel socket, Impostor impostor) {
        ByteBuffer buf = ByteBuffer.allocate(65_536);
        try {
            SocketAddress from;
            while ((from = socket.receive(buf.clear())) != null) {
                buf.flip();
                byte[] d = new byte[buf.remaining()];
                buf.get(d);
                impostor.receive((InetSocketAddress) from, d, System.nanoTime());
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        impostor.tick(System.nanoTime());
    }
}
