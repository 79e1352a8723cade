package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class DataChannelProperties {
    /**
     * The window against a model that remembers every counter: a counter is accepted exactly when it
     * was never accepted and is less than the window's size behind the newest accepted one.
     */
    @Property(seed = "6479", tries = 300)
    void replayWindowMatchesTheModel(@ForAll("counters") List<Long> counters,
            @ForAll @IntRange(min = 64, max = 1024) int bits) {
        ReplayWindow w = new ReplayWindow(bits);
        assertThat(w.size()).isGreaterThanOrEqualTo(bits);
        Set<Long> seen = new HashSet<>();
        long newest = -1;
        for (long c : counters) {
            boolean fresh = !seen.contains(c) && (c > newest || newest - c < w.size());
            assertThat(w.check(c)).as("check %d after newest %d", c, newest).isEqualTo(fresh);
            assertThat(w.accept(c)).isEqualTo(fresh);
            assertThat(w.check(c)).isFalse();
            if (fresh) {
                seen.add(c);
                newest = Math.max(newest, c);
            }
            assertThat(w.newest()).isEqualTo(newest);
        }
    }

    @Provide
    Arbitrary<List<Long>> counters() {
        // mostly near each other (reordering and duplicates), with jumps past a whole window
        Arbitrary<Long> step = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.longs().between(-80, 80)),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(-3000, 3000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(0, 1L << 40)));
        return step.list().ofMaxSize(400).map(steps -> {
            long c = 100;
            List<Long> out = new java.util.ArrayList<>();
            for (long s : steps) {
                c = Math.max(0, c + s);
                out.add(c);
            }
            return out;
        });
    }

    @Property(seed = "8439", tries = 200)
    void sealedDatagramsOpenToTheirPlaintextAndAnyChangeIsCaught(@ForAll @Size(max = 1500) byte[] payload,
            @ForAll @IntRange(min = 0, max = 40) int skip, @ForAll @IntRange(min = 0, max = 100_000) int flipAt,
            @ForAll @IntRange(min = 1, max = 255) int flipBits, @ForAll CipherSuite suite) {
        byte[][] keys = {Crypto.randomBytes(32), Crypto.randomBytes(32)};
        Session tx = new Session(suite, "b", 1, 2, true, keys, 256, 0, new byte[32]);
        Session rx = new Session(suite, "a", 2, 1, false, keys, 256, 0, new byte[32]);
        ByteBuffer sealed = null;
        for (int i = 0; i <= skip; i++) {
            sealed = ByteBuffer.allocate(payload.length + SecureWire.DATA_OVERHEAD);
            tx.seal(ByteBuffer.wrap(payload), sealed);
            assertThat(sealed.hasRemaining()).isFalse();
        }
        byte[] wire = sealed.array();
        byte[] tampered = wire.clone();
        tampered[flipAt % wire.length] ^= (byte) flipBits;
        ByteBuffer out = ByteBuffer.allocate(wire.length);
        int at = flipAt % wire.length;
        if (at >= 5) { // the type and index route a datagram; a change there never reaches this session
            DropReason r = rx.open(ByteBuffer.wrap(tampered), out);
            assertThat(r).as("flip at %d", at).isIn(DropReason.FORGED, DropReason.REPLAY);
        }
        out.clear();
        assertThat(rx.open(ByteBuffer.wrap(wire), out)).isNull();
        assertThat(java.util.Arrays.copyOf(out.array(), out.position())).isEqualTo(payload);
        out.clear();
        assertThat(rx.open(ByteBuffer.wrap(wire), out)).isEqualTo(DropReason.REPLAY);
        if (payload.length >= 16) {
            assertThat(LinkSecurityTest.indexOf(wire, payload)).as("plaintext on the wire").isNegative();
        }
    }

    /**
     * Sealed datagrams lost, duplicated and reordered on the way: each that arrives at least once is
     * delivered exactly once, every extra copy is a counted replay, and nothing else is dropped.
     */
    @Property(seed = "2024", tries = 100)
    void lossDuplicationAndReorderingDeliverEachDatagramAtMostOnce(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 3) Integer> copies, @ForAll long shuffleSeed,
            @ForAll CipherSuite suite) {
        SecureNet net = new SecureNet();
        SecureNet.Node a = net.node("node-a", 7001);
        SecureNet.Node b = net.node("node-b", 7002);
        a.start(net.config(a).withCipherSuite(suite));
        b.start(net.config(b).withCipherSuite(suite));
        SecureNet.link(a, b);
        a.send(b, new byte[1]);
        net.run();
        List<SecureNet.Datagram> arriving = new java.util.ArrayList<>();
        Set<Integer> expected = new HashSet<>();
        for (int i = 0; i < copies.size(); i++) {
            assertThat(a.send(b, new byte[] {(byte) i, (byte) (i >> 8)})).isTrue();
            SecureNet.Datagram d = net.wire.pollLast();
            for (int c = 0; c < copies.get(i); c++) {
                arriving.add(d);
            }
            if (copies.get(i) > 0) {
                expected.add(i);
            }
        }
        java.util.Collections.shuffle(arriving, new java.util.Random(shuffleSeed));
        for (SecureNet.Datagram d : arriving) {
            b.receive(d.from(), d.bytes());
        }
        List<Integer> delivered = b.delivered.stream().map(x -> (x[0] & 0xFF) | (x[1] & 0xFF) << 8).toList();
        assertThat(delivered).doesNotHaveDuplicates();
        assertThat(Set.copyOf(delivered)).isEqualTo(expected);
        assertThat(b.drops(DropReason.REPLAY)).isEqualTo(arriving.size() - expected.size());
        assertThat(b.totalDrops()).isEqualTo(b.drops(DropReason.REPLAY));
    }

    /** Every datagram a hostile party can make is a counted drop or a handshake step, never an exception. */
    @Property(seed = "1337", tries = 500)
    void arbitraryDatagramsAreCountedDrops(@ForAll("datagrams") byte[] datagram) {
        SecureNet net = new SecureNet();
        SecureNet.Node a = net.node("node-a", 7001);
        a.start(net.config(a));
        a.engine.addPeer("node-b", new java.net.InetSocketAddress("127.0.0.1", 7002));
        a.receive(new java.net.InetSocketAddress("127.0.0.1", 7002), datagram);
        assertThat(a.delivered).isEmpty();
        boolean initOrCookie = datagram.length == SecureWire.INIT_BYTES && datagram[0] == SecureWire.INIT;
        assertThat(a.totalDrops() + (initOrCookie ? 1 : 0)).isGreaterThanOrEqualTo(1);
        assertThat(a.engine.pendingHandshakes()).isZero();
    }

    @Provide
    Arbitrary<byte[]> datagrams() {
        Arbitrary<Byte> type = Arbitraries.of(SecureWire.INIT, SecureWire.COOKIE, SecureWire.RESPONSE, SecureWire.FINAL,
                SecureWire.DATA, (byte) 0, (byte) 0x7F);
        Arbitrary<Integer> length = Arbitraries.of(0, 1, 5, 13, 28, 29, SecureWire.INIT_BYTES,
                SecureWire.COOKIE_REPLY_BYTES, 9 + NoiseXX.MESSAGE2_OVERHEAD, 5 + NoiseXX.MESSAGE3_OVERHEAD, 300, 2000);
        return net.jqwik.api.Combinators.combine(type, length, Arbitraries.longs()).as((t, n, seed) -> {
            byte[] b = new byte[n];
            new java.util.Random(seed).nextBytes(b);
            if (n > 0) {
                b[0] = t;
            }
            return b;
        });
    }
}
