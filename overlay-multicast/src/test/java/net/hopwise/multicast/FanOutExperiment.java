package net.hopwise.multicast;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;

/**
 * Fan-out over loopback UDP between real nodes: one sender s behind a relay r, and {@code n} member
 * nodes m0.. behind r (the star s - r - m_i, the usual shape of a source behind one uplink). In the same
 * run, the same 1000-byte messages go to every member first (with {@code --best-effort true}) by
 * best-effort multicast (what arrives counts), then by reliable multicast (one stream, {@code SLOW_GROUP}), then by one reliable unicast
 * session per member, each message sent on every session
 * (the sender waits for a back-pressured session, so the slowest member paces both, as {@code
 * SLOW_GROUP} does). Placement: s on an event loop of its own, r on another, every member on a third
 * (three loops on the 2-core machine), one sending thread. Measured after a warm-up: the goodput each
 * member receives (its application's bytes), and the CPU the sender spends (its event loop plus the
 * sending thread) in percent of one core.
 *
 * <p>Run from the repository root under the lock: {@code flock /tmp/hopwise-mvn.lock ./mvnw -o -q -pl
 * overlay-multicast -am test-compile exec:exec -Dmulticast.exec.skip=false -Dexec.executable=java
 * -Dexec.classpathScope=test -Dexec.args="-Xmx2g -cp %classpath net.hopwise.multicast.FanOutExperiment
 * --runs 3 --seconds 10"}.
 */
public final class FanOutExperiment {
    static final int PAYLOAD = 1000;
    static final int PORT = 9;

    /** With {@code --trace}: the multicast phase's window, acknowledgements and drops, sampled after the warm-up. */
    static boolean trace;
    /**
     * With {@code --best-effort true}: a best-effort phase first. Off by default: its sender accepts
     * without bound on loopback, and the run filled a 2 GB heap within its warm-up.
     */
    static boolean bestEffortPhase;
    /** With {@code --unicast false}: no unicast phase (for profiling the multicast phase alone). */
    static boolean unicastPhase = true;
    /** With {@code --multicast false}: no reliable multicast phase (for profiling the unicast phase alone). */
    static boolean multicastPhase = true;
    /**
     * With {@code --jit-warmup <seconds>} (default 4): one unmeasured run of 1 member, every phase, before
     * the first measured one. Without it the first run's multicast phase, which goes first, ran while the
     * JIT was still compiling what both phases share (the UDP path, the node's stages) and the unicast
     * phase after it did not: 1188 against 2413 Mbit/s in a first run, 1844 against 2182 in a second.
     */
    static int jitWarmupSeconds = 4;
    /** With {@code --window <packets>}: the reliable streams' {@code SLOW_GROUP} window (the cache twice it). */
    static ReliableConfig reliable = ReliableConfig.defaults();

    private FanOutExperiment() {}

    /** One mode's measurement: per-member goodput in Mbit/s and the sender's CPU in percent of a core. */
    record Phase(String mode, int members, double[] goodput, double senderCpu, double relayCpu, double memberCpu,
            long kernelDrops) {
        double min() {
            return Arrays.stream(goodput).min().orElse(0);
        }

        double median() {
            double[] s = goodput.clone();
            Arrays.sort(s);
            return s.length == 0 ? 0 : s[s.length / 2];
        }

        double aggregate() {
            return Arrays.stream(goodput).sum();
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = 3;
        int seconds = 10;
        int[] sizes = {1, 10, 50};
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--trace" -> trace = Boolean.parseBoolean(args[i + 1]);
                case "--best-effort" -> bestEffortPhase = Boolean.parseBoolean(args[i + 1]);
                case "--unicast" -> unicastPhase = Boolean.parseBoolean(args[i + 1]);
                case "--multicast" -> multicastPhase = Boolean.parseBoolean(args[i + 1]);
                case "--jit-warmup" -> jitWarmupSeconds = Integer.parseInt(args[i + 1]);
                case "--window" -> reliable = ReliableConfig.defaults().withCache(2 * Integer.parseInt(args[i + 1]),
                        Integer.parseInt(args[i + 1]));
                case "--members" -> sizes = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Map<String, List<Phase>> all = new LinkedHashMap<>();
        if (jitWarmupSeconds > 0) {
            for (Phase p : run(1, jitWarmupSeconds)) {
                System.out.printf(Locale.ROOT, "JIT warm-up  %-11s n=1 %7.2f Mbit/s (not counted)%n", p.mode(), p.median());
            }
        }
        for (int run = 1; run <= runs; run++) {
            for (int n : sizes) {
                for (Phase p : run(n, seconds)) {
                    System.out.printf(Locale.ROOT, "run %d  %-11s n=%-3d per member min %7.2f median %7.2f Mbit/s,"
                            + " aggregate %8.2f Mbit/s, sender CPU %5.1f%%, relay CPU %5.1f%%, members' loop CPU %5.1f%%,"
                            + " kernel drops %d%n", run, p.mode(), n, p.min(), p.median(), p.aggregate(), p.senderCpu(),
                            p.relayCpu(), p.memberCpu(), p.kernelDrops());
                    all.computeIfAbsent(p.mode() + " n=" + n, k -> new ArrayList<>()).add(p);
                }
            }
        }
        System.out.println("medians over runs:");
        all.forEach((k, ps) -> System.out.printf(Locale.ROOT, "%-18s per member median %7.2f Mbit/s (min %7.2f),"
                + " aggregate %8.2f Mbit/s, sender CPU %5.1f%%%n", k, median(ps.stream().mapToDouble(Phase::median)
                        .toArray()), median(ps.stream().mapToDouble(Phase::min).toArray()),
                median(ps.stream().mapToDouble(Phase::aggregate).toArray()),
                median(ps.stream().mapToDouble(Phase::senderCpu).toArray())));
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    static List<Phase> run(int n, int seconds) throws Exception {
        NodeRuntime senderLoop = NodeRuntime.create(1);
        NodeRuntime relayLoop = NodeRuntime.create(1);
        NodeRuntime memberLoop = NodeRuntime.create(1);
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        try {
            nodes.put("s", start("s", senderLoop));
            nodes.put("r", start("r", relayLoop));
            for (int i = 0; i < n; i++) {
                nodes.put("m" + i, start("m" + i, memberLoop));
            }
            link(nodes, "s", "r");
            for (int i = 0; i < n; i++) {
                link(nodes, "r", "m" + i);
            }
            OverlayNode s = nodes.get("s");
            Eventually.await("s reaches every node", () -> s.reachableNodes(RoutingMetric.HOPS).containsAll(nodes.keySet()));
            AtomicLong[] received = new AtomicLong[n];
            for (int i = 0; i < n; i++) {
                AtomicLong r = new AtomicLong();
                received[i] = r;
                // A view of the message, as the unicast session's handler gets: neither copies it.
                nodes.get("m" + i).module(Multicast.class).join("fan", PORT,
                        (BufferHandler) m -> r.addAndGet(m.payload().readableBytes()));
                nodes.get("m" + i).acceptSessions(PORT, session -> m -> r.addAndGet(m.payload().readableBytes()));
            }
            Multicast multicast = s.module(Multicast.class);
            Eventually.await("s sees every member", () -> multicast.memberNodes("fan").size() == n);
            Thread senderThread = s.inspect(e -> Thread.currentThread());
            Thread relayThread = nodes.get("r").inspect(e -> Thread.currentThread());
            Thread memberThread = nodes.get("m0").inspect(e -> Thread.currentThread());
            List<Phase> phases = new ArrayList<>();

            // Best effort first: no window, no repair; the sender waits only while the sender is back-pressured.
            GroupSender bestEffort = bestEffortPhase ? multicast.sender("fan", PORT, RoutingMetric.HOPS) : null;
            if (bestEffort != null) {
                phases.add(measure("best-effort", n, seconds, received, senderThread, relayThread, memberThread, null,
                        new Driver() {
                            final Semaphore writable = new Semaphore(0);

                            {
                                bestEffort.onWritable(writable::release);
                            }

                            @Override
                            public void sendOne(byte[] payload) throws InterruptedException {
                                while (!bestEffort.send(payload).accepted()) {
                                    writable.tryAcquire(1, TimeUnit.MILLISECONDS);
                                }
                            }
                        }));
                bestEffort.close();
            }

            if (multicastPhase) {
                multicastPhase(s, nodes, n, seconds, received, senderThread, relayThread, memberThread, phases);
            }
            if (!unicastPhase) {
                return phases;
            }
            List<ReliableSession> sessions = new ArrayList<>();
            Semaphore writable = new Semaphore(0);
            for (int i = 0; i < n; i++) {
                ReliableSession session = s.openSession(0, "m" + i, PORT, RoutingMetric.HOPS, m -> { });
                session.onWritable(writable::release);
                sessions.add(session);
            }
            phases.add(measure("unicast", n, seconds, received, senderThread, relayThread, memberThread, null, payload -> {
                for (ReliableSession session : sessions) {
                    while (session.send(payload) != net.hopwise.overlay.SendResult.ACCEPTED) {
                        writable.tryAcquire(1, TimeUnit.MILLISECONDS);
                    }
                }
            }));
            sessions.forEach(ReliableSession::close);
            return phases;
        } finally {
            nodes.values().forEach(OverlayNode::stop);
            senderLoop.close();
            relayLoop.close();
            memberLoop.close();
        }
    }

    private static void multicastPhase(OverlayNode s, Map<String, OverlayNode> nodes, int n, int seconds,
            AtomicLong[] received, Thread senderThread, Thread relayThread, Thread memberThread, List<Phase> phases)
            throws Exception {
        GroupSender group = s.module(Multicast.class).reliableSender("fan", PORT, RoutingMetric.HOPS,
                SlowMemberPolicy.SLOW_GROUP);
        List<OverlayNode> memberNodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            memberNodes.add(nodes.get("m" + i));
        }
        FanOutTrace tracer = trace ? new FanOutTrace(s, nodes.get("r"), memberNodes) : null;
        Semaphore writable = new Semaphore(0);
        group.onWritable(writable::release);
        phases.add(measure("multicast", n, seconds, received, senderThread, relayThread, memberThread, tracer, payload -> {
            while (!group.send(payload).accepted()) {
                writable.tryAcquire(1, TimeUnit.MILLISECONDS);
            }
        }));
        group.close();
    }

    /** Sends one message to every member, waiting (on the sending thread only) while back-pressured. */
    interface Driver {
        void sendOne(byte[] payload) throws InterruptedException;
    }

    private static Phase measure(String mode, int n, int seconds, AtomicLong[] received, Thread senderLoop,
            Thread relayLoop, Thread memberLoop, FanOutTrace tracer, Driver driver) throws Exception {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        AtomicBoolean running = new AtomicBoolean(true);
        byte[] payload = new byte[PAYLOAD];
        Thread sending = new Thread(() -> {
            try {
                while (running.get()) {
                    driver.sendOne(payload);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fan-out-" + mode);
        sending.start();
        Thread.sleep(2_000); // warm-up: windows open, the JIT compiles
        if (tracer != null) {
            tracer.sample(100, 5);
            System.out.print(tracer.text());
        }
        long[] start = new long[n];
        for (int i = 0; i < n; i++) {
            start[i] = received[i].get();
        }
        long loopStart = cpu.getThreadCpuTime(senderLoop.getId());
        long sendStart = cpu.getThreadCpuTime(sending.getId());
        long relayStart = cpu.getThreadCpuTime(relayLoop.getId());
        long memberStart = cpu.getThreadCpuTime(memberLoop.getId());
        long dropsStart = kernelDrops();
        long t0 = System.nanoTime();
        System.err.println("measuring " + mode + " n=" + n);
        Thread.sleep(seconds * 1000L);
        long elapsed = System.nanoTime() - t0;
        double[] goodput = new double[n];
        for (int i = 0; i < n; i++) {
            goodput[i] = (received[i].get() - start[i]) * 8e3 / elapsed;
        }
        long senderCpu = cpu.getThreadCpuTime(senderLoop.getId()) - loopStart
                + cpu.getThreadCpuTime(sending.getId()) - sendStart;
        long relayCpu = cpu.getThreadCpuTime(relayLoop.getId()) - relayStart;
        long memberCpu = cpu.getThreadCpuTime(memberLoop.getId()) - memberStart;
        long drops = kernelDrops() - dropsStart;
        running.set(false);
        sending.join(5_000);
        sending.interrupt();
        Thread.sleep(1_000); // what is in flight drains before the next mode
        return new Phase(mode, n, goodput, 100.0 * senderCpu / elapsed, 100.0 * relayCpu / elapsed,
                100.0 * memberCpu / elapsed, drops);
    }

    /**
     * Datagrams the kernel dropped on this machine's UDP sockets so far (the last column of /proc/net/udp
     * and /proc/net/udp6: the JVM's sockets are dual-stack, listed in the latter); -1 if unknown.
     */
    static long kernelDrops() {
        try {
            long sum = 0;
            for (String file : List.of("/proc/net/udp", "/proc/net/udp6")) {
                List<String> lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of(file));
                for (String line : lines.subList(1, lines.size())) {
                    String[] f = line.trim().split("\\s+");
                    sum += Long.parseLong(f[f.length - 1]);
                }
            }
            return sum;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    private static OverlayNode start(String name, NodeRuntime runtime) {
        return OverlayNode.start(NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS)
                .module(new MulticastModule().withReliable(reliable)).build(), runtime);
    }

    private static void link(Map<String, OverlayNode> nodes, String x, String y) {
        nodes.get(x).addNeighbour(neighbour(nodes, y));
        nodes.get(y).addNeighbour(neighbour(nodes, x));
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
