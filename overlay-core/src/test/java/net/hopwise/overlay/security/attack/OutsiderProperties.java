package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredOverlay.MS;
import static net.hopwise.overlay.security.attack.SecuredOverlay.drops;
import static net.hopwise.overlay.security.attack.SecuredOverlay.receiveDrops;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.LinkSecurity;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.wire.PacketType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The attacks of the loopback tests as properties on virtual time: an outsider with every datagram
 * a and b exchange in hand (the capture next to their sockets) sends what it likes from its own
 * address ({@code mallory}, a link b's operator configured but whose key nobody admits) or from a's.
 */
class OutsiderProperties {
    private static final byte[] HELLO = "an impostor's frame".getBytes(StandardCharsets.US_ASCII);
    /** The length of the slices of a known payload looked for: long enough not to turn up by chance. */
    private static final int KNOWN_SLICE = 16;

    @AfterContainer
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    enum Kind { REPLAY, FLIP, TYPE_FLIP, PLAINTEXT, SEALED_LOOKING, JUNK }

    /** One datagram of the attacker's: what it is made from, and where it comes from. */
    record Attack(Kind kind, boolean fromNeighbour, int pick, int bit, long counter, byte[] bytes) {}

    @Provide
    Arbitrary<Attack> attacks() {
        return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.of(true, false),
                Arbitraries.integers().greaterOrEqual(0), Arbitraries.integers().greaterOrEqual(0), Arbitraries.longs(),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(600)).as(Attack::new);
    }

    /** Two linked secured nodes and an outsider linked to b; b has had one message from a. */
    private static SecuredOverlay linked(long seed, java.util.function.BiFunction<String, net.hopwise.overlay.security.SecurityConfig,
            net.hopwise.overlay.security.SecurityConfig> tweak, VirtualReceiver mallory) {
        SecuredOverlay sim = new SecuredOverlay(seed, tweak);
        sim.overlay.node("a");
        sim.overlay.node("b");
        sim.overlay.external("mallory", (from, d, now) -> mallory.receive(bytes(d), now));
        sim.overlay.link("a", "b", MS);
        sim.overlay.link("mallory", "b", MS);
        sim.overlay.startAll();
        assertThat(sim.awaitRoute("a", "b", 5_000) && sim.awaitRoute("b", "a", 5_000)).as("a and b linked").isTrue();
        return sim;
    }

    @FunctionalInterface
    interface VirtualReceiver {
        void receive(byte[] datagram, long now);
    }

    private static List<String> deliveries(SecuredOverlay sim) {
        List<String> delivered = new ArrayList<>();
        sim.engine("b").openPort(7, m -> delivered.add(m.payload().toString(StandardCharsets.US_ASCII)));
        sim.engine("a").openPort(8, m -> { });
        return delivered;
    }

    private static void sendFromA(SecuredOverlay sim, String text) {
        ByteBuf payload = Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.US_ASCII));
        sim.engine("a").send(8, NodeId.ofName("b"), 7, payload, RoutingMetric.HOPS, sim.overlay.now());
        payload.release();
        sim.overlay.runFor(20 * MS);
    }

    private static LinkSecurity.PeerStatus status(SecuredOverlay sim, String node, String peer) {
        var f = sim.engine(node).module(SecureLinks.class).status();
        sim.overlay.runFor(0);
        return f.join().stream().filter(s -> s.name().equals(peer)).findFirst().orElseThrow();
    }

    /**
     * Whatever the outsider sends (replays, bit flips, the type byte's included, and forged-looking
     * copies of a's sealed datagrams, plaintext frames, junk), from its address or from a's: each is
     * one counted drop, b delivers only a's messages, a's address at b does not move and the link
     * stays as it was.
     */
    @Property(tries = 25, seed = "15")
    void anOutsiderWithEveryDatagramInHandInjectsNothingReplaysNothingAndMovesNothing(@ForAll long seed,
            @ForAll @Size(min = 1, max = 40) List<@From("attacks") Attack> attacks) {
        try (SecuredOverlay sim = linked(seed, (n, c) -> c, (d, now) -> { })) {
            List<String> delivered = deliveries(sim);
            sendFromA(sim, "before");
            NodeStack b = sim.engine("b");
            InetSocketAddress aAtB = b.neighbour(NodeId.ofName("a")).address();
            LinkSecurity.PeerStatus link = status(sim, "b", "a");
            List<byte[]> sealed = sim.sealed("a", "b");
            int liveIndex = Forgeries.receiverIndex(sealed.get(sealed.size() - 1));
            Random random = new Random(seed);
            long before = receiveDrops(b);
            for (Attack x : attacks) {
                byte[] pick = sealed.get(x.pick() % sealed.size());
                byte[] d = switch (x.kind()) {
                    case REPLAY -> pick;
                    case FLIP -> notAFirstInit(Forgeries.flip(pick, x.bit() % (pick.length * 8)));
                    // another message's type or none: the lowest bit makes a FINAL naming b's live session
                    case TYPE_FLIP -> notAFirstInit(Forgeries.flip(pick, x.bit() % 8));
                    case PLAINTEXT -> Forgeries.plaintext(PacketType.values()[x.pick() % PacketType.values().length], "a",
                            "b", x.bytes());
                    case SEALED_LOOKING -> Forgeries.sealedLooking(random, liveIndex, x.counter(), x.bytes().length);
                    case JUNK -> notAFirstInit(x.bytes());
                };
                sim.inject(x.fromNeighbour() ? "a" : "mallory", "b", d);
                sim.overlay.runFor(MS / 4);
            }
            sim.overlay.runFor(50 * MS);
            assertThat(receiveDrops(b) - before).as("one counted drop per datagram").isEqualTo(attacks.size());

            sendFromA(sim, "after");
            assertThat(delivered).containsExactly("before", "after");
            assertThat(b.neighbour(NodeId.ofName("a")).address()).isEqualTo(aAtB);
            assertThat(sim.overlay.events()).noneMatch(e -> e.kind() == NodeEvent.Kind.ADDRESS_CHANGED);
            LinkSecurity.PeerStatus now = status(sim, "b", "a");
            assertThat(now.authenticated()).isTrue();
            assertThat(now.handshakes()).isEqualTo(link.handshakes());
            assertThat(now.address()).isEqualTo(aAtB);
            assertThat(b.counters().drops(net.hopwise.overlay.wire.DropReason.FORGED_LINK_STATE)).isZero();
            assertThat(b.hasRoute(NodeId.ofName("mallory"), RoutingMetric.HOPS)).isFalse();
        }
    }

    /**
     * An outsider that runs the handshake itself, with keys of its own, under its own name or a's,
     * from its own address or from a's (reading what b sends there): its end may complete, b's
     * refuses, and nothing it seals afterwards is opened.
     */
    @Property(tries = 4, generation = GenerationMode.EXHAUSTIVE)
    void anOutsidersHandshakeIsRefusedUnderItsOwnNameOrAStolenOneFromAnyAddress(@ForAll boolean stolenName,
            @ForAll boolean fromNeighbourAddress) {
        Impostor[] impostor = new Impostor[1];
        InetSocketAddress[] bAt = new InetSocketAddress[1];
        try (SecuredOverlay sim = linked(3, (n, c) -> c, (d, now) -> {
            if (!fromNeighbourAddress && impostor[0] != null) {
                impostor[0].receive(bAt[0], d, now);
            }
        })) {
            bAt[0] = sim.overlay.address("b");
            List<String> delivered = deliveries(sim);
            String from = fromNeighbourAddress ? "a" : "mallory";
            InetSocketAddress b = sim.overlay.address("b");
            InetSocketAddress aAddress = sim.overlay.address("a");
            Impostor.Wire wire = d -> sim.inject(from, "b", d);
            impostor[0] = new Impostor(stolenName ? "a" : "mallory", "b", SecuredOverlay.keys("b").identityPublic(), b, wire);
            long handshakes = status(sim, "b", "a").handshakes();
            long refused = drops(sim.engine("b"), DropReason.REJECTED);
            int read = sim.wire.size();
            impostor[0].send(HELLO, sim.overlay.now(), wire);
            for (int step = 0; step < 2_000 && impostor[0].established.get() == 0; step++) {
                sim.overlay.runFor(MS);
                if (fromNeighbourAddress) {
                    // what b sends to a's address, the on-path attacker reads
                    for (; read < sim.wire.size(); read++) {
                        SecuredOverlay.Seen s = sim.wire.get(read);
                        if (s.node().equals("b") && s.outbound() && s.peer().equals(aAddress)) {
                            impostor[0].receive(b, s.bytes(), sim.overlay.now());
                        }
                    }
                }
                impostor[0].tick(sim.overlay.now());
            }
            sim.overlay.runFor(20 * MS);
            assertThat(impostor[0].established.get()).as("the impostor's end completed").isPositive();
            assertThat(drops(sim.engine("b"), DropReason.REJECTED)).as("b refused it").isGreaterThan(refused);

            long unknown = drops(sim.engine("b"), DropReason.UNKNOWN_SESSION);
            for (int i = 0; i < 10; i++) {
                try {
                    assertThat(impostor[0].send(HELLO, sim.overlay.now(), wire)).isTrue();
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }
            sim.overlay.runFor(20 * MS);
            assertThat(drops(sim.engine("b"), DropReason.UNKNOWN_SESSION) - unknown).isEqualTo(10);
            LinkSecurity.PeerStatus link = status(sim, "b", "a");
            assertThat(link.fingerprint()).isEqualTo(SecuredOverlay.keys("a").fingerprint());
            assertThat(link.handshakes()).isEqualTo(handshakes);
            assertThat(sim.engine("b").hasRoute(NodeId.ofName("mallory"), RoutingMetric.HOPS)).isFalse();
            sendFromA(sim, "the real a");
            assertThat(delivered).containsExactly("the real a");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Any number of INITs over any time, from the outsider's address and from a's, each answered
     * with its cookie at once: every one costs b a Diffie-Hellman or a counted refusal by the
     * budget, the Diffie-Hellmans stay within the budget for the virtual time the flood took,
     * pending state within its limit, and the link stays up.
     */
    @Property(tries = 10, seed = "15")
    void handshakeFloodsStayWithinTheBudgetAndThePendingLimitAndTheLinkStaysUp(
            @ForAll @IntRange(min = 100, max = 2_000) int inits, @ForAll @IntRange(min = 1, max = 20) int perAddress,
            @ForAll @IntRange(min = 1, max = 64) int maxPending, @ForAll @IntRange(min = 0, max = 4_000) int spreadMs,
            @ForAll long seed) {
        Map<Integer, byte[]> sentInits = new HashMap<>();
        int[] withCookie = new int[1];
        SecuredOverlay[] holder = new SecuredOverlay[1];
        try (SecuredOverlay sim = linked(seed, (n, c) -> c.withHandshakeBudget(perAddress, 100_000).withMaxPendingHandshakes(maxPending),
                (d, now) -> answer(holder[0], "mallory", d, sentInits, withCookie))) {
            holder[0] = sim;
            List<String> delivered = deliveries(sim);
            NodeStack b = sim.engine("b");
            InetSocketAddress aAddress = sim.overlay.address("a");
            long handshakes = status(sim, "b", "a").handshakes();
            long rate = drops(b, DropReason.HANDSHAKE_RATE);
            long pendingLimit = drops(b, DropReason.PENDING_LIMIT);
            int read = sim.wire.size();
            int responses = 0;
            Random random = new Random(seed);
            long start = sim.overlay.now();
            int steps = Math.max(1, spreadMs);
            int sent = 0;
            for (int step = 0; step < steps || sent < inits; step++) {
                int due = (int) ((long) inits * (step + 1) / steps);
                for (; sent < Math.min(due, inits); sent++) {
                    byte[] init = Forgeries.init(random, false);
                    while (sentInits.containsKey(Forgeries.getInt(init, 1))) {
                        init = Forgeries.init(random, false); // one index per attempt, as a responder keys them
                    }
                    sentInits.put(Forgeries.getInt(init, 1), init);
                    sim.inject(sent % 2 == 0 ? "a" : "mallory", "b", init);
                }
                sim.overlay.runFor(MS);
                for (; read < sim.wire.size(); read++) {
                    SecuredOverlay.Seen s = sim.wire.get(read);
                    if (!s.node().equals("b") || !s.outbound()) {
                        continue;
                    }
                    if (s.type() == Forgeries.RESPONSE && sentInits.containsKey(Forgeries.getInt(s.bytes(), 5))) {
                        responses++;
                    } else if (s.peer().equals(aAddress)) {
                        answer(sim, "a", s.bytes(), sentInits, withCookie);
                    }
                }
            }
            sim.overlay.runFor(5 * MS);
            for (; read < sim.wire.size(); read++) {
                SecuredOverlay.Seen s = sim.wire.get(read);
                if (s.node().equals("b") && s.outbound() && s.type() == Forgeries.RESPONSE
                        && sentInits.containsKey(Forgeries.getInt(s.bytes(), 5))) {
                    responses++;
                }
            }
            double seconds = (sim.overlay.now() - start) / 1e9;
            long refusedByBudget = drops(b, DropReason.HANDSHAKE_RATE) - rate;
            assertThat(withCookie[0]).as("every INIT got its cookie").isEqualTo(inits);
            assertThat(responses + refusedByBudget).as("each cost a Diffie-Hellman or was refused").isEqualTo(inits);
            // two source addresses, each a bucket of perAddress that refills at perAddress a second
            assertThat((double) responses).isLessThanOrEqualTo(2 * perAddress * (1 + seconds));
            assertThat(drops(b, DropReason.PENDING_LIMIT) - pendingLimit).as("pending beyond the limit gave way")
                    .isEqualTo(Math.max(0, responses - maxPending));
            assertThat(status(sim, "b", "a").handshakes()).isEqualTo(handshakes);
            sendFromA(sim, "after the flood");
            assertThat(delivered).containsExactly("after the flood");
        }
    }

    /**
     * An outsider that knows a message looks for it in every datagram a and b exchange (the capture
     * next to their sockets): sent best-effort (in fragments when long), on a reliable session, and
     * back from b, no 16 bytes of it appear on the wire. Between the same nodes without link security
     * they do, so the search can see them. The message is random bytes from the seed, so that no slice
     * of it is a constant of the protocol (an all-zero cookie field, say).
     */
    @Property(tries = 10, seed = "15")
    void noSixteenBytesOfAKnownPayloadAppearOnTheWire(@ForAll long seed,
            @ForAll @IntRange(min = KNOWN_SLICE, max = 4_000) int length) {
        byte[] known = new byte[length];
        new Random(seed).nextBytes(known);
        assertThat(sliceOnTheWire(known, SecuredOverlay.plaintext(seed))).as("plaintext nodes show it").isTrue();
        assertThat(sliceOnTheWire(known, new SecuredOverlay(seed, (n, c) -> c))).as("sealed nodes show no part of it")
                .isFalse();
    }

    /** Sends {@code known} three ways between a and b in {@code sim} (closed here): whether a slice of it showed on the wire. */
    private static boolean sliceOnTheWire(byte[] known, SecuredOverlay sim) {
        try (sim) {
            sim.overlay.node("a");
            sim.overlay.node("b");
            sim.overlay.link("a", "b", MS);
            sim.overlay.startAll();
            assertThat(sim.awaitRoute("a", "b", 5_000) && sim.awaitRoute("b", "a", 5_000)).as("a and b linked").isTrue();
            NodeStack a = sim.engine("a");
            NodeStack b = sim.engine("b");
            List<byte[]> atA = new ArrayList<>();
            List<byte[]> atB = new ArrayList<>();
            a.openPort(8, m -> atA.add(m.payloadBytes()));
            b.openPort(7, m -> atB.add(m.payloadBytes()));
            var toB = a.openSession(9, NodeId.ofName("b"), 9, RoutingMetric.HOPS, m -> { }, null, sim.overlay.now());
            b.openSession(9, NodeId.ofName("a"), 9, RoutingMetric.HOPS, m -> atB.add(m.payloadBytes()), null,
                    sim.overlay.now());
            ByteBuf payload = Unpooled.wrappedBuffer(known);
            try {
                a.send(8, NodeId.ofName("b"), 7, payload.duplicate(), RoutingMetric.HOPS, sim.overlay.now());
                a.sessionSend(toB, payload.duplicate(), sim.overlay.now());
                b.send(7, NodeId.ofName("a"), 8, payload.duplicate(), RoutingMetric.HOPS, sim.overlay.now());
            } finally {
                payload.release();
            }
            for (int step = 0; step < 1_000 && (atB.size() < 2 || atA.isEmpty()); step++) {
                sim.overlay.runFor(MS);
            }
            assertThat(atB).as("at b, best-effort and on the session").hasSize(2)
                    .allSatisfy(m -> assertThat(m).isEqualTo(known));
            assertThat(atA).as("back at a").singleElement().satisfies(m -> assertThat(m).isEqualTo(known));

            Set<ByteBuffer> slices = new HashSet<>();
            for (int i = 0; i + KNOWN_SLICE <= known.length; i++) {
                slices.add(ByteBuffer.wrap(known, i, KNOWN_SLICE).slice());
            }
            for (SecuredOverlay.Seen seen : sim.wire) {
                byte[] d = seen.bytes();
                for (int i = 0; i + KNOWN_SLICE <= d.length; i++) {
                    if (slices.contains(ByteBuffer.wrap(d, i, KNOWN_SLICE).slice())) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** The attacker presents the cookie b sent it for one of its INITs, from the address it came to. */
    private static void answer(SecuredOverlay sim, String at, byte[] d, Map<Integer, byte[]> inits, int[] withCookie) {
        if (Forgeries.type(d) == Forgeries.COOKIE && inits.containsKey(Forgeries.receiverIndex(d))) {
            sim.inject(at, "b", Forgeries.withCookie(inits.get(Forgeries.receiverIndex(d)), d));
            withCookie[0]++;
        }
    }

    static byte[] notAFirstInit(byte[] d) {
        if (d.length == Forgeries.INIT_BYTES && Forgeries.type(d) == Forgeries.INIT) {
            d[d.length - 1] |= 1;
        }
        return d;
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }
}
