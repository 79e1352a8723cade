package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Not a test: best-effort goodput between two nodes on loopback UDP, plaintext beside sealed links
 * with each cipher suite, in one run, from the repository root:
 * {@code ./mvnw -q -pl overlay-core test-compile exec:exec -Dexec.skip=false -Dexec.executable=java
 * -Dexec.classpathScope=test -Dexec.args="-cp %classpath net.hopwise.overlay.security.SealedGoodputBenchmark 5"}
 */
public final class SealedGoodputBenchmark {
    private static final int PAYLOAD = 1000;

    private SealedGoodputBenchmark() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        System.out.println("best-effort goodput a->b on loopback, " + PAYLOAD + "-byte messages, " + seconds + " s each");
        double plain = run(null, seconds);
        System.out.printf("%-12s %8.1f MB/s%n", "plaintext", plain / 1e6);
        for (CipherSuite suite : CipherSuite.values()) {
            double sealed = run(suite, seconds);
            System.out.printf("%-12s %8.1f MB/s  (%.0f%% of plaintext)%n", suite, sealed / 1e6, 100 * sealed / plain);
        }
    }

    /** Bytes a second delivered at b. */
    static double run(CipherSuite suite, double seconds) throws Exception {
        NodeKeys ka = NodeKeys.generate();
        NodeKeys kb = NodeKeys.generate();
        TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic())));
        AtomicLong received = new AtomicLong();
        try (NodeRuntime runtime = NodeRuntime.create(2)) {
            NodeConfig.Builder ab = NodeConfig.builder("a").loopback(0).defaultMetric(RoutingMetric.HOPS);
            NodeConfig.Builder bb = NodeConfig.builder("b").loopback(0).defaultMetric(RoutingMetric.HOPS);
            if (suite != null) {
                ab.module(new SecurityModule(SecurityConfig.of("a", ka, null, trusted).withCipherSuite(suite)));
                bb.module(new SecurityModule(SecurityConfig.of("b", kb, null, trusted).withCipherSuite(suite)));
            }
            OverlayNode a = OverlayNode.start(ab.build(), runtime);
            OverlayNode b = OverlayNode.start(bb.build(), runtime);
            try {
                a.addNeighbour(new NeighbourConfig("b", new InetSocketAddress("127.0.0.1", b.localAddress().getPort())));
                b.addNeighbour(new NeighbourConfig("a", new InetSocketAddress("127.0.0.1", a.localAddress().getPort())));
                b.openPort(7, m -> received.addAndGet(m.payloadBytes().length));
                OverlayPort port = a.openPort(7, m -> { });
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (a.path("b", RoutingMetric.HOPS).isEmpty() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                byte[] payload = new byte[PAYLOAD];
                long warm = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() < warm) {
                    send(port, payload);
                }
                long r0 = received.get();
                long t0 = System.nanoTime();
                long end = t0 + (long) (seconds * 1e9);
                while (System.nanoTime() < end) {
                    send(port, payload);
                }
                long t1 = System.nanoTime();
                return (received.get() - r0) * 1e9 / (t1 - t0);
            } finally {
                a.stop();
                b.stop();
            }
        }
    }

    private static void send(OverlayPort port, byte[] payload) {
        if (port.send("b", 7, payload) != SendResult.ACCEPTED) {
            Thread.onSpinWait();
        }
    }
}
