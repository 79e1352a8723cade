package net.hopwise.examples.fuzz;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * One hostile-neighbour attack on loopback UDP: nodes a-b-c-d on one single-thread runtime, datagrams
 * between a and d every 20 ms both ways, and an attacker on a plain {@link DatagramChannel} that is a
 * configured neighbour of b, completes a real hello exchange, then sends hostile packets at a fixed
 * rate until its packet or time budget is spent. Afterwards it keeps saying hello (a quiet neighbour)
 * while the overlay heals, for at most one refresh interval.
 */
final class LoopbackAttack {
    static final String ATTACKER = "mallory";
    static final String TARGET = "b";
    static final List<String> REAL = List.of("a", "b", "c", "d");
    /** Origins beyond the real nodes (and the attacker) that a database may hold in this run. */
    static final int EXTRA_ORIGINS = 32;
    static final int PORT = 7;
    /** See the virtual-time test: twice the default lead a forged sequence may have on the clock. */
    static final long FAR_LEAD_MILLIS = 2 * 24 * 3600 * 1000L;

    record Result(long seed, long sent, Map<String, Long> sentByType, double attackSeconds,
            Map<DropReason, Long> targetDrops, long handlerErrors, int largestDatabase, long restoreMillis,
            long trafficAfter, List<String> violations) {}

    private final long seed;
    private final int packets;
    private final double seconds;
    private final int rate;
    private final List<String> violations = new ArrayList<>();
    private final Map<String, Long> sentByType = new TreeMap<>();
    private int largestDatabase;

    LoopbackAttack(long seed, int packets, double seconds, int rate) {
        this.seed = seed;
        this.packets = packets;
        this.seconds = seconds;
        this.rate = rate;
    }

    Result run() throws IOException {
        RoutingConfig routing = RoutingConfig.builder().maxOrigins(REAL.size() + 1 + EXTRA_ORIGINS).build();
        Map<String, OverlayNode> nodes = new TreeMap<>();
        Map<String, AtomicLong> delivered = new TreeMap<>();
        ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor();
        InetAddress lo = InetAddress.getLoopbackAddress();
        NodeRuntime runtime = NodeRuntime.create(1);
        try (DatagramChannel attacker = DatagramChannel.open()) {
            attacker.bind(new InetSocketAddress(lo, 0));
            attacker.configureBlocking(false);
            Map<String, OverlayPort> ports = new TreeMap<>();
            for (String n : REAL) {
                OverlayNode node = OverlayNode.start(NodeConfig.builder(n).loopback(0).routing(routing).build(),
                        runtime);
                nodes.put(n, node);
                AtomicLong count = new AtomicLong();
                delivered.put(n, count);
                ports.put(n, node.openPort(PORT, m -> count.incrementAndGet()));
            }
            link(nodes, "a", "b");
            link(nodes, "b", "c");
            link(nodes, "c", "d");
            InetSocketAddress target = nodes.get(TARGET).localAddress();
            nodes.get(TARGET).addNeighbour(new NeighbourConfig(ATTACKER, (InetSocketAddress) attacker.getLocalAddress()));
            FuzzerBridge hostile = new FuzzerBridge(seed, ATTACKER, TARGET, REAL.toArray(String[]::new),
                    routing.maxAge().toMillis(), new int[] {PORT}, System.nanoTime());
            Pump pump = new Pump(attacker, target, hostile);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!(hostile.admitted() && allReachable(nodes)) && System.nanoTime() < deadline) {
                pump.idle(Duration.ofMillis(5));
            }
            if (!hostile.admitted() || !allReachable(nodes)) {
                throw new IllegalStateException("the overlay did not converge, or did not admit the attacker");
            }
            traffic.scheduleAtFixedRate(() -> {
                ports.get("a").send("d", PORT, new byte[32]);
                ports.get("d").send("a", PORT, new byte[32]);
            }, 0, 20, TimeUnit.MILLISECONDS);
            Map<String, Long> before = ownSequences(nodes);
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long sent = 0;
            while (sent < packets && System.nanoTime() < end) {
                long now = System.nanoTime();
                long due = Math.min(packets, (long) ((now - start) / 1e9 * rate) + 1);
                for (; sent < due; sent++) {
                    byte[] p = hostile.attack(now);
                    PacketType type = p.length > WireHeader.OFFSET_TYPE ? PacketType.ofCode(p[WireHeader.OFFSET_TYPE]
                            & 0xFF) : null;
                    sentByType.merge(type == null ? "unknown" : type.name(), 1L, Long::sum);
                    pump.send(p);
                    if (sent % 5000 == 0) {
                        checkDatabases(nodes);
                    }
                }
                pump.idle(Duration.ofNanos(200_000));
            }
            long attackEnd = System.nanoTime();
            checkDatabases(nodes);
            List<String> cut = unreachable(nodes);
            if (!cut.isEmpty()) {
                System.out.println("  seed " + seed + ", unreachable when the attack stopped: " + cut);
            }
            long restoreMillis = -1;
            long healBy = attackEnd + routing.refreshInterval().toNanos();
            while (System.nanoTime() < healBy) {
                if (allReachable(nodes) && linksUp(nodes)) {
                    restoreMillis = (System.nanoTime() - attackEnd) / 1_000_000;
                    break;
                }
                pump.idle(Duration.ofMillis(10));
            }
            if (restoreMillis < 0) {
                violations.add("full reachability and links not restored within one refresh interval ("
                        + routing.refreshInterval().toSeconds() + " s) after the attack");
            }
            long a = delivered.get("a").get();
            long d = delivered.get("d").get();
            pump.idle(Duration.ofSeconds(1));
            long trafficAfter = delivered.get("a").get() - a + delivered.get("d").get() - d;
            if (trafficAfter < 90) {
                violations.add("real traffic did not resume: " + trafficAfter + " of about 100 datagrams in the"
                        + " second after recovery");
            }
            checkSequences(nodes, before, (System.nanoTime() - start) / 1_000_000);
            Map<DropReason, Long> drops = new EnumMap<>(DropReason.class);
            long handlerErrors = 0;
            for (DropReason r : DropReason.values()) {
                drops.put(r, nodes.get(TARGET).counters().drops(r));
            }
            for (OverlayNode n : nodes.values()) {
                handlerErrors += n.counters().drops(DropReason.HANDLER_ERROR);
            }
            if (handlerErrors > 0) {
                violations.add(handlerErrors + " handler errors");
            }
            return new Result(seed, sent, sentByType, (attackEnd - start) / 1e9, drops, handlerErrors, largestDatabase,
                    restoreMillis, trafficAfter, violations);
        } finally {
            traffic.shutdownNow();
            nodes.values().forEach(OverlayNode::stop);
            runtime.close();
        }
    }

    private static void link(Map<String, OverlayNode> nodes, String a, String b) {
        nodes.get(a).addNeighbour(new NeighbourConfig(b, nodes.get(b).localAddress()));
        nodes.get(b).addNeighbour(new NeighbourConfig(a, nodes.get(a).localAddress()));
    }

    private static boolean allReachable(Map<String, OverlayNode> nodes) {
        for (OverlayNode n : nodes.values()) {
            boolean all = n.inspect(e -> {
                for (String other : REAL) {
                    for (RoutingMetric m : RoutingMetric.values()) {
                        if (!e.hasRoute(NodeId.ofName(other), m)) {
                            return false;
                        }
                    }
                }
                return true;
            });
            if (!all) {
                return false;
            }
        }
        return true;
    }

    /** Which real node lacks a route to which, and under which metrics: what the attack left broken. */
    private static List<String> unreachable(Map<String, OverlayNode> nodes) {
        List<String> cut = new ArrayList<>();
        for (Map.Entry<String, OverlayNode> n : nodes.entrySet()) {
            cut.addAll(n.getValue().inspect(e -> {
                List<String> missing = new ArrayList<>();
                for (String other : REAL) {
                    List<RoutingMetric> metrics = new ArrayList<>();
                    for (RoutingMetric m : RoutingMetric.values()) {
                        if (!e.hasRoute(NodeId.ofName(other), m)) {
                            metrics.add(m);
                        }
                    }
                    if (!metrics.isEmpty()) {
                        missing.add(n.getKey() + "->" + other + " " + metrics + " (" + other + " held: "
                                + e.router().database().get(NodeId.ofName(other)).map(a -> "seq " + a.sequence()
                                + ", " + a.links().size() + " links").orElse("no") + ")");
                    }
                }
                return missing;
            }));
        }
        return cut;
    }

    private static boolean linksUp(Map<String, OverlayNode> nodes) {
        for (OverlayNode n : nodes.values()) {
            boolean up = n.inspect(e -> e.neighbours().stream()
                    .filter(x -> REAL.contains(x.name())).allMatch(x -> x.status() == LinkStatus.UP));
            if (!up) {
                return false;
            }
        }
        return true;
    }

    private void checkDatabases(Map<String, OverlayNode> nodes) {
        for (Map.Entry<String, OverlayNode> n : nodes.entrySet()) {
            int size = n.getValue().inspect(e -> e.router().database().size());
            largestDatabase = Math.max(largestDatabase, size);
            if (size > REAL.size() + 1 + EXTRA_ORIGINS && violations.size() < 20) {
                violations.add(n.getKey() + " holds " + size + " origins");
            }
        }
    }

    private static Map<String, Long> ownSequences(Map<String, OverlayNode> nodes) {
        Map<String, Long> seq = new TreeMap<>();
        for (String n : REAL) {
            seq.put(n, held(nodes.get(n), n));
        }
        return seq;
    }

    private static long held(OverlayNode at, String origin) {
        return at.inspect((NodeStack e) -> e.router().database().get(NodeId.ofName(origin))
                .map(LinkStateAdvertisement::sequence).orElse(-1L));
    }

    private void checkSequences(Map<String, OverlayNode> nodes, Map<String, Long> before, long elapsedMillis) {
        Map<String, Long> own = ownSequences(nodes);
        for (String x : REAL) {
            long limit = before.get(x) + elapsedMillis + FAR_LEAD_MILLIS;
            if (own.get(x) > limit) {
                violations.add(x + "'s own sequence was pushed from " + before.get(x) + " to " + own.get(x));
            }
            for (String y : REAL) {
                long held = held(nodes.get(y), x);
                if (held > limit) {
                    violations.add(y + " holds " + x + " at " + held + " (" + x + " was at " + before.get(x) + ")");
                }
                if (x.equals(TARGET) && held != own.get(x)) {
                    violations.add(y + " holds " + TARGET + " at " + held + ", not its live " + own.get(x));
                }
            }
        }
        if (own.get(TARGET) <= before.get(TARGET)) {
            violations.add(TARGET + " did not originate during the run (sequence " + own.get(TARGET) + ")");
        }
    }

    /** The attacker's socket: answers hellos and keeps its own going between attack packets. */
    private static final class Pump {
        private final DatagramChannel channel;
        private final InetSocketAddress target;
        private final FuzzerBridge hostile;
        private final ByteBuffer in = ByteBuffer.allocate(2048);

        Pump(DatagramChannel channel, InetSocketAddress target, FuzzerBridge hostile) {
            this.channel = channel;
            this.target = target;
            this.hostile = hostile;
        }

        void send(byte[] datagram) throws IOException {
            channel.send(ByteBuffer.wrap(datagram), target);
        }

        /** Serves the hello protocol for {@code d}, reading what arrives. */
        void idle(Duration d) throws IOException {
            long until = System.nanoTime() + d.toNanos();
            do {
                in.clear();
                while (channel.receive(in) != null) {
                    in.flip();
                    byte[] bytes = new byte[in.remaining()];
                    in.get(bytes);
                    for (byte[] reply : hostile.onDatagram(bytes, System.nanoTime())) {
                        send(reply);
                    }
                    in.clear();
                }
                for (byte[] hello : hostile.onTimer(System.nanoTime())) {
                    send(hello);
                }
                LockSupport.parkNanos(100_000);
            } while (System.nanoTime() < until);
        }
    }
}
