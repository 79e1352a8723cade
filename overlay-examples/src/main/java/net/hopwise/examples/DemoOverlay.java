package net.hopwise.examples;

import io.micrometer.core.instrument.FunctionCounter;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * A demo overlay of five nodes in one process on loopback UDP: a ring a-b-c-d-e with a chord a-c,
 * the chord lossy and one ring link slow. Best-effort messages flow between every pair under random
 * metrics, a reliable session runs from a to c and a real-time flow from c to a, both routed by hop
 * count so that they cross the lossy chord. Every few seconds it prints link measurements, the
 * routes each metric picks and the traffic so far; when it stops, what was lost and why.
 *
 * <pre>./mvnw -q -pl overlay-examples -am test-compile exec:java [-Dexec.args="--seconds 20"]</pre>
 */
public final class DemoOverlay implements AutoCloseable {
    static final List<String> NAMES = List.of("a", "b", "c", "d", "e");
    static final String[][] LINKS = {{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}, {"e", "a"}, {"a", "c"}};
    /** The lossy chord's ends and its loss each way: enough to see every kind of message react. */
    static final String LOSSY_A = "a";
    static final String LOSSY_C = "c";
    static final double CHORD_LOSS = 0.10;
    private static final int PORT = 7;
    private static final int SESSION_PORT = 9;
    /** RTP's customary audio port. */
    private static final int REAL_TIME_PORT = 5004;
    /** One G.711 voice frame. */
    private static final int REAL_TIME_BYTES = 160;
    private static final int ACROSS = 0;
    private static final int ELSEWHERE = 1;

    private final NodeRuntime runtime = NodeRuntime.create(1);
    private final Map<String, OverlayNode> nodes = new LinkedHashMap<>();
    private final Map<String, OverlayPort> ports = new LinkedHashMap<>();
    private final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong[] bestEffortSent = {new AtomicLong(), new AtomicLong()};
    private final AtomicLong[] bestEffortDelivered = {new AtomicLong(), new AtomicLong()};
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong reliableSent = new AtomicLong();
    private final AtomicLong reliableDelivered = new AtomicLong();
    private final AtomicLong realTimeSent = new AtomicLong();
    private final AtomicLong realTimeDelivered = new AtomicLong();
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** Guarded by this: the summary is printed once, by the main thread or by the Ctrl-C hook. */
    private boolean summarized;
    private final ReliableSession session;
    private final OverlayPort realTimePort;
    private final RealTimeFlow flow;
    private final byte[] reliableMessage = new byte[64];
    private final byte[] frame = new byte[REAL_TIME_BYTES];

    /** Starts the nodes, joins them, impairs two links and opens the session and the flow. */
    public DemoOverlay() {
        for (String name : NAMES) {
            OverlayNode node = OverlayNode.start(NodeConfig.builder(name).loopback(0).build(), runtime);
            nodes.put(name, node);
            ports.put(name, node.openPort(PORT, m -> {
                int kind = m.payload().getByte(m.payload().readerIndex());
                bestEffortDelivered[kind == ACROSS ? ACROSS : ELSEWHERE].incrementAndGet();
            }));
            node.addListener(this::onEvent);
        }
        for (String[] link : LINKS) {
            nodes.get(link[0]).addNeighbour(neighbour(link[1]));
            nodes.get(link[1]).addNeighbour(neighbour(link[0]));
        }
        ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(CHORD_LOSS).delay(Duration.ofMillis(2)).build();
        ImpairmentConfig slow = ImpairmentConfig.builder().delay(Duration.ofMillis(25)).build();
        // Each end impairs what it sends, so each direction of a link is impaired exactly once.
        nodes.get(LOSSY_A).impair(LOSSY_C, Direction.OUTBOUND, lossy);
        nodes.get(LOSSY_C).impair(LOSSY_A, Direction.OUTBOUND, lossy);
        nodes.get("d").impair("e", Direction.OUTBOUND, slow);
        nodes.get("e").impair("d", Direction.OUTBOUND, slow);

        nodes.get(LOSSY_C).acceptSessions(SESSION_PORT, s -> m -> reliableDelivered.incrementAndGet());
        session = nodes.get(LOSSY_A).openSession(SESSION_PORT, LOSSY_C, SESSION_PORT, RoutingMetric.HOPS, m -> { });
        realTimePort = nodes.get(LOSSY_A).openPort(REAL_TIME_PORT, m -> realTimeDelivered.incrementAndGet());
        flow = ports.get(LOSSY_C).openRealTime(nodes.get(LOSSY_A).id(), REAL_TIME_PORT, RoutingMetric.HOPS);
    }

    private NeighbourConfig neighbour(String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }

    private void onEvent(NodeEvent e) {
        if (e.kind() != NodeEvent.Kind.ROUTES_CHANGED) {
            events.add(e.node() + ": " + e.kind() + (e.peer() == null ? "" : " " + e.peer()));
        }
    }

    public Map<String, OverlayNode> nodes() {
        return nodes;
    }

    /**
     * Sends one best-effort message between every ordered pair of nodes, each under a random metric
     * and marked with whether its route crosses the lossy chord; returns how many were accepted.
     */
    public int sendRound(Random random) {
        int accepted = 0;
        for (String from : NAMES) {
            for (String to : NAMES) {
                if (!from.equals(to)) {
                    RoutingMetric metric = RoutingMetric.values()[random.nextInt(RoutingMetric.values().length)];
                    int kind = crossesChord(nodes.get(from).path(to, metric)) ? ACROSS : ELSEWHERE;
                    byte[] payload = ("_from " + from).getBytes();
                    payload[0] = (byte) kind;
                    if (ports.get(from).send(to, PORT, payload, metric) == SendResult.ACCEPTED) {
                        bestEffortSent[kind].incrementAndGet();
                        accepted++;
                    } else {
                        refused.incrementAndGet();
                    }
                }
            }
        }
        return accepted;
    }

    /** Sends one message on the reliable session a to c. */
    public void sendReliable() {
        if (session.send(reliableMessage) == SendResult.ACCEPTED) {
            reliableSent.incrementAndGet();
        }
    }

    /** Sends one packet of the real-time flow c to a. */
    public void sendRealTime() {
        if (flow.send(frame) == SendResult.ACCEPTED) {
            realTimeSent.incrementAndGet();
        }
    }

    static boolean crossesChord(List<NodeId> path) {
        NodeId a = NodeId.ofName(LOSSY_A);
        NodeId c = NodeId.ofName(LOSSY_C);
        for (int i = 1; i < path.size(); i++) {
            NodeId x = path.get(i - 1);
            NodeId y = path.get(i);
            if (x.equals(a) && y.equals(c) || x.equals(c) && y.equals(a)) {
                return true;
            }
        }
        return false;
    }

    public long delivered() {
        return bestEffortDelivered[ACROSS].get() + bestEffortDelivered[ELSEWHERE].get();
    }

    public long sent() {
        return bestEffortSent[ACROSS].get() + bestEffortSent[ELSEWHERE].get();
    }

    /** Writes the current link table, routes from a, and traffic counts. */
    public void report(PrintStream out) {
        out.println();
        out.println("Links (measured by hellos; loss 'out' is what the peer reports)");
        out.printf("  %-6s %-6s %-6s %9s %9s %8s %8s%n", "node", "peer", "state", "rtt ms", "jitter ms", "loss in", "loss out");
        for (OverlayNode node : nodes.values()) {
            for (Neighbour n : node.neighbours()) {
                LinkStatistics s = n.statistics();
                if (s == null) {
                    out.printf("  %-6s %-6s %-6s%n", node.name(), n.name(), n.status());
                    continue;
                }
                out.printf("  %-6s %-6s %-6s %9.2f %9.2f %7.1f%% %7.1f%%%n", node.name(), n.name(), s.status(),
                        s.srttNanos() / 1e6, s.jitterNanos() / 1e6, 100 * s.inboundLossRate(),
                        100 * s.outboundLossRate());
            }
        }
        out.println("Routes from a, per metric");
        OverlayNode a = nodes.get("a");
        for (String to : NAMES.subList(1, NAMES.size())) {
            StringBuilder row = new StringBuilder(String.format("  a -> %s:", to));
            for (RoutingMetric m : RoutingMetric.values()) {
                row.append(String.format("  %s %-12s", m.name().toLowerCase(), pathOf(a, to, m)));
            }
            out.println(row);
        }
        out.printf("Traffic (sent/delivered): best effort %d/%d, of which across a-c %d/%d; reliable a->c %d/%d;"
                        + " real-time c->a %d/%d%n", sent(), delivered(), bestEffortSent[ACROSS].get(),
                bestEffortDelivered[ACROSS].get(), reliableSent.get(), reliableDelivered.get(), realTimeSent.get(),
                realTimeDelivered.get());
        synchronized (events) {
            if (!events.isEmpty()) {
                out.println("Events: " + String.join("; ", events));
                events.clear();
            }
        }
    }

    /** What was lost and why, from the counts and the nodes' own measurements. */
    public List<String> summary() {
        OverlayNode a = nodes.get(LOSSY_A);
        OverlayNode c = nodes.get(LOSSY_C);
        Neighbour cAtA = neighbourOf(a, LOSSY_C);
        Neighbour aAtC = neighbourOf(c, LOSSY_A);
        // Counted at both ends rather than read from the impairment: the same loss, measured as the nodes see it.
        List<LossSummary.Direction> directions = List.of(
                new LossSummary.Direction(LOSSY_A, LOSSY_C, cAtA.packetsSent(), aAtC.packetsReceived(),
                        cAtA.statistics() == null ? 0 : cAtA.statistics().outboundLossRate()),
                new LossSummary.Direction(LOSSY_C, LOSSY_A, aAtC.packetsSent(), cAtA.packetsReceived(),
                        aAtC.statistics() == null ? 0 : aAtC.statistics().outboundLossRate()));
        long late = 0;
        for (RealTimeFlowStatistics f : realTimePort.realTimeFlows()) {
            late += f.late();
        }
        LossSummary.Recovery recovery = new LossSummary.Recovery(
                linkResends(cAtA, ReliableLinkStatistics::retransmissions)
                        + linkResends(aAtC, ReliableLinkStatistics::retransmissions),
                linkResends(cAtA, ReliableLinkStatistics::tailProbes) + linkResends(aAtC, ReliableLinkStatistics::tailProbes),
                session.statistics().retransmissions(),
                realTimeCounter(a, "hopwise.link.nacks", "direction", "out"),
                realTimeCounter(a, "hopwise.link.recovered", null, null));
        return LossSummary.lines(LOSSY_A + "-" + LOSSY_C, CHORD_LOSS, directions,
                tally(ACROSS), tally(ELSEWHERE), refused.get(),
                new LossSummary.Tally(reliableSent.get(), reliableDelivered.get(), 0),
                new LossSummary.Tally(realTimeSent.get(), realTimeDelivered.get(), late), recovery);
    }

    private LossSummary.Tally tally(int kind) {
        return new LossSummary.Tally(bestEffortSent[kind].get(), bestEffortDelivered[kind].get(), 0);
    }

    private static Neighbour neighbourOf(OverlayNode node, String peer) {
        return node.neighbours().stream().filter(n -> n.name().equals(peer)).findFirst().orElseThrow();
    }

    private static long linkResends(Neighbour n, java.util.function.ToLongFunction<ReliableLinkStatistics> count) {
        ReliableLinkStatistics s = n.reliableStatistics();
        return s == null ? 0 : count.applyAsLong(s);
    }

    /** A counter of a's real-time channel towards c (the flow's last hop). */
    private static long realTimeCounter(OverlayNode a, String name, String tag, String value) {
        var search = a.meterRegistry().find(name).tag("node", a.name()).tag("peer", LOSSY_C).tag("channel", "realtime");
        FunctionCounter c = (tag == null ? search : search.tag(tag, value)).functionCounter();
        return c == null || Double.isNaN(c.count()) ? 0 : (long) c.count();
    }

    /**
     * Stops sending, waits until the reliable session has delivered all it took (or a few seconds
     * pass) and stragglers of the other kinds have arrived, then prints the summary; once. A second
     * caller waits for the first to finish, so that nobody closes the nodes under the summary.
     */
    public void finish(PrintStream out) throws InterruptedException {
        stopping.set(true);
        synchronized (this) {
            if (!summarized) {
                summarized = true;
                drainAndSummarize(out);
            }
        }
    }

    private void drainAndSummarize(PrintStream out) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (reliableDelivered.get() < reliableSent.get() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        // Best-effort and real-time packets take milliseconds on loopback; the slow link adds 25 ms.
        Thread.sleep(300);
        out.println();
        out.println("Summary");
        summary().forEach(out::println);
        out.flush();
    }

    public boolean stopping() {
        return stopping.get();
    }

    private static String pathOf(OverlayNode node, String to, RoutingMetric metric) {
        List<NodeId> path = node.path(to, metric);
        if (path.isEmpty()) {
            return "unreachable";
        }
        StringBuilder s = new StringBuilder();
        for (NodeId id : path) {
            for (String n : NAMES) {
                if (NodeId.ofName(n).equals(id)) {
                    s.append(n);
                }
            }
        }
        return String.join("-", s.toString().split(""));
    }

    @Override
    public void close() {
        nodes.values().forEach(OverlayNode::stop);
        runtime.close();
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seconds") && i + 1 < args.length && args[i + 1].matches("[1-9]\\d{0,8}")) {
                seconds = Long.parseLong(args[++i]);
            } else {
                System.err.println("usage: DemoOverlay [--seconds N] (N from 1; without it the demo runs until Ctrl-C)");
                System.exit(2);
            }
        }
        System.out.println("Hopwise demo overlay: nodes a-e on loopback UDP, ring a-b-c-d-e-a plus chord a-c.");
        System.out.println("Link a-c drops " + LossSummary.percent(CHORD_LOSS)
                + " of packets each way; link d-e adds 25 ms each way.");
        System.out.println("Traffic: best-effort messages between every pair under random metrics; a reliable session"
                + " a->c and a real-time flow c->a, both routed by hops, so across the lossy chord.");
        System.out.println(seconds > 0
                ? "Runs for " + seconds + " s, then prints what was lost and why."
                : "Ctrl-C to stop; it then prints what was lost and why.");
        try (DemoOverlay demo = new DemoOverlay()) {
            Thread summaryOnInterrupt = new Thread(() -> {
                try {
                    demo.finish(System.out);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "demo-summary");
            Runtime.getRuntime().addShutdownHook(summaryOnInterrupt);
            run(demo, seconds);
            demo.finish(System.out);
            try {
                Runtime.getRuntime().removeShutdownHook(summaryOnInterrupt);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C came as the run ended: the hook prints the summary, once.
            }
        }
    }

    /** Real-time packets every 20 ms, a round of the other traffic every 100 ms, a report every 3 s. */
    private static void run(DemoOverlay demo, long seconds) throws InterruptedException {
        Random random = new Random(1);
        long start = System.nanoTime();
        long end = seconds > 0 ? start + Duration.ofSeconds(seconds).toNanos() : Long.MAX_VALUE;
        long lastReport = start;
        for (long tick = 0; !demo.stopping() && System.nanoTime() < end; tick++) {
            demo.sendRealTime();
            if (tick % 5 == 0) {
                demo.sendRound(random);
                demo.sendReliable();
            }
            Thread.sleep(20);
            if (System.nanoTime() - lastReport >= 3_000_000_000L) {
                lastReport = System.nanoTime();
                demo.report(System.out);
            }
        }
        if (!demo.stopping()) {
            demo.report(System.out);
        }
    }
}
