package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** The handshake and rekeying under loss, duplication and reordering, on virtual time. */
class HandshakeProperties {
    private static final long STEP = Duration.ofMillis(100).toNanos();

    /**
     * Whatever the network loses, duplicates or reorders for a while, once it delivers again the two
     * nodes have keys within a few retries and data flows both ways; state stays bounded throughout.
     */
    @Property(seed = "15", tries = 60)
    void linksComeUpAndStayUpWhateverTheNetworkDoes(@ForAll @DoubleRange(min = 0, max = 0.6) double loss,
            @ForAll @DoubleRange(min = 0, max = 0.3) double duplication, @ForAll long seed,
            @ForAll @IntRange(min = 5, max = 40) int badSeconds, @ForAll boolean shortRekey) {
        SecureNet net = new SecureNet();
        SecureNet.Node a = net.node("node-a", 7001);
        SecureNet.Node b = net.node("node-b", 7002);
        SecurityConfig ca = net.config(a);
        SecurityConfig cb = net.config(b);
        if (shortRekey) {
            ca = ca.withRekey(Duration.ofSeconds(3), Duration.ofSeconds(5), 40, 80);
            cb = cb.withRekey(Duration.ofSeconds(3), Duration.ofSeconds(5), 40, 80);
        }
        a.start(ca);
        b.start(cb);
        SecureNet.link(a, b);
        Random random = new Random(seed);
        run(net, a, b, random, badSeconds * 10, loss, duplication);
        run(net, a, b, random, 80, 0, 0); // 8 s of a good network: enough for a retry or a fresh attempt
        a.delivered.clear();
        b.delivered.clear();
        byte[] x = "x".getBytes(StandardCharsets.US_ASCII);
        assertThat(a.send(b, x)).as("a has keys").isTrue();
        assertThat(b.send(a, x)).as("b has keys").isTrue();
        net.run();
        assertThat(b.delivered).as("a to b").contains(x);
        assertThat(a.delivered).as("b to a").contains(x);
        assertThat(a.drops(DropReason.REJECTED) + b.drops(DropReason.REJECTED)).isZero();
        assertThat(a.drops(DropReason.FORGED) + b.drops(DropReason.FORGED)).isZero();
    }

    /** Steps of 100 ms: timers, one datagram each way (as hellos), then the network's doings. */
    private static void run(SecureNet net, SecureNet.Node a, SecureNet.Node b, Random random, int steps, double loss,
            double duplication) {
        for (int i = 0; i < steps; i++) {
            net.now += STEP;
            for (SecureNet.Node n : List.of(a, b)) {
                if (n.engine.nextDeadlineNanos() <= net.now) {
                    n.engine.onTimer(net.now);
                }
            }
            a.send(b, "hello from a".getBytes(StandardCharsets.US_ASCII));
            b.send(a, "hello from b".getBytes(StandardCharsets.US_ASCII));
            for (int round = 0; round < 10 && !net.wire.isEmpty(); round++) {
                List<SecureNet.Datagram> batch = new ArrayList<>(net.wire);
                net.wire.clear();
                List<SecureNet.Datagram> arriving = new ArrayList<>();
                for (SecureNet.Datagram d : batch) {
                    if (random.nextDouble() >= loss) {
                        arriving.add(d);
                        if (random.nextDouble() < duplication) {
                            arriving.add(d);
                        }
                    }
                }
                Collections.shuffle(arriving, random);
                for (SecureNet.Datagram d : arriving) {
                    net.byAddress.get(d.to()).receive(d.from(), d.bytes());
                }
            }
            net.wire.clear();
            assertThat(a.engine.pendingHandshakes() + b.engine.pendingHandshakes()).isLessThanOrEqualTo(8);
        }
    }
}
