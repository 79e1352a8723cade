package net.hopwise.admin.overlay;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.micrometer.core.instrument.MeterRegistry;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.RealTimeFlow;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.MulticastModule;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.trace.TraceModule;

/**
 * The demo overlay: five nodes named after cities, in this process on loopback UDP, joined in a ring
 * with one chord, with delays that imitate the distances between the cities, the chord losing 10%
 * of its packets, and traffic flowing between random pairs of nodes under random metrics. The
 * service's node also holds a reliable session to chicago and receives a real-time voice flow from
 * it, so the sessions view has something to show.
 *
 * <p>Every node runs multicast; {@link #GROUP_MEMBERS} are members of {@link #GROUP}, to which the
 * service's node sends a frame every 20 ms as best effort, a voice frame every 20 ms as real-time
 * multicast and a reliable chat line every half second.
 *
 * <p>The nodes' links are authenticated and encrypted with keys generated at start, as an
 * operator's would be with configured ones.
 *
 * <p>Delays and loss are impairments like any other, so the dashboard and the API show them and can
 * change or clear them. The service's own node is the first, amsterdam.
 */
public final class DemoOverlay {
    /** The nodes; the first is the service's own. */
    public static final List<String> NODES = List.of("amsterdam", "berlin", "chicago", "denver", "edinburgh");

    /** One demo link: its ends and the one-way delay and loss each direction gets. */
    public record DemoLink(String a, String b, Duration delay, double loss) {}

    /** A ring amsterdam-berlin-chicago-denver-edinburgh-amsterdam and a lossy chord amsterdam-chicago. */
    public static final List<DemoLink> LINKS = List.of(
            new DemoLink("amsterdam", "berlin", Duration.ofMillis(6), 0),
            new DemoLink("berlin", "chicago", Duration.ofMillis(35), 0),
            new DemoLink("chicago", "denver", Duration.ofMillis(12), 0),
            new DemoLink("denver", "edinburgh", Duration.ofMillis(40), 0),
            new DemoLink("edinburgh", "amsterdam", Duration.ofMillis(5), 0),
            new DemoLink("amsterdam", "chicago", Duration.ofMillis(32), 0.10));

    /** The overlay port demo traffic is sent to. */
    static final int PORT = 7;

    /**
     * The demo's reliable session runs from the service's node to this node, and its real-time flow
     * from this node to the service's: chicago, the far end of the lossy chord, so both streams show
     * hop-by-hop repair.
     */
    public static final String STREAM_PEER = "chicago";
    /** The demo's multicast group, which the service's node sends to. */
    public static final String GROUP = "demo-conference";
    /** Its members: nodes on both sides of the ring, so its tree branches. */
    public static final List<String> GROUP_MEMBERS = List.of("berlin", "denver", "edinburgh");
    /** The overlay port members receive the group's frames on. */
    static final int GROUP_PORT = 5006;
    /** The demo's layered (multi-rate) session: a video-like stream whose receivers each take what their path carries. */
    public static final String LAYERED_GROUP = "demo-video";
    /** Its receivers: one behind the lossy chord's side of the ring, two on the clean side. */
    public static final List<String> LAYERED_RECEIVERS = List.of("berlin", "chicago", "edinburgh");
    /** The port its receivers join on. */
    public static final int LAYERED_PORT = 5010;
    /** Six layers of 32 Kbit/s: small enough for the demo's loopback links, enough levels to move. */
    private static final int LAYERS = 6;
    private static final long LAYER_BITS_PER_SECOND = 32_000;
    /** The port of the conference's voice: a real-time multicast stream from the service's node. */
    public static final int GROUP_VOICE_PORT = 5012;
    /** How late a voice frame may still be played: a conference's mouth-to-ear budget less the codec's. */
    private static final java.time.Duration VOICE_DEADLINE = java.time.Duration.ofMillis(150);
    /** The port of the group's reliable chat stream. */
    public static final int GROUP_CHAT_PORT = 5008;
    /** A chat line every half second: a reliable stream the dashboard can show moving. */
    private static final long CHAT_PERIOD_MILLIS = 500;
    /** The port of the reliable session at both ends. */
    public static final int SESSION_PORT = 9;
    /** The port of the service's node the real-time flow arrives at (RTP's customary audio port). */
    public static final int REAL_TIME_PORT = 5004;
    /** A small message each way every 100 ms: a steady trickle that keeps the session's counters moving. */
    private static final long SESSION_PERIOD_MILLIS = 100;
    private static final int SESSION_MESSAGE_BYTES = 64;
    /** 160 bytes every 20 ms: one G.711 voice frame, the real-time flow the overlay is built for. */
    private static final long REAL_TIME_PERIOD_MILLIS = 20;
    private static final int REAL_TIME_PACKET_BYTES = 160;

    private DemoOverlay() {}

    /**
     * Starts the demo nodes, links and impairs them, and starts the traffic.
     *
     * @param registry where every node's meters go
     * @param trafficInterval pause between rounds of traffic
     * @param impairments how impairments are applied, so the API reports these like its own
     */
    public static LocalNodes start(MeterRegistry registry, Duration trafficInterval, LinkImpairments.Applier impairments) {
        NodeRuntime runtime = NodeRuntime.create(1);
        Map<String, OverlayNode> nodes = new LinkedHashMap<>();
        Map<String, OverlayPort> ports = new LinkedHashMap<>();
        ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hopwise-demo-traffic");
            t.setDaemon(true);
            return t;
        });
        AutoCloseable resources = () -> {
            traffic.shutdownNow();
            runtime.close();
        };
        try {
            // Generated keys, a trust list of the five: the demo shows links as an operator runs them,
            // authenticated and encrypted, with handshakes and fingerprints on the dashboard.
            Map<String, NodeKeys> keys = new LinkedHashMap<>();
            Map<String, List<byte[]>> trusted = new LinkedHashMap<>();
            for (String name : NODES) {
                NodeKeys k = NodeKeys.generate();
                keys.put(name, k);
                trusted.put(name, List.of(k.identityPublic()));
            }
            TrustedKeys admission = new TrustedKeys(trusted);
            for (String name : NODES) {
                // Every demo node answers traces, so the dashboard can trace to any of them.
                OverlayNode node = OverlayNode.start(NodeConfig.builder(name).loopback(0).meterRegistry(registry)
                        .module(new SecurityModule(SecurityConfig.of(name, keys.get(name), null, admission)))
                        .module(new TraceModule()).module(new MulticastModule()).build(), runtime);
                nodes.put(name, node);
                ports.put(name, node.openPort(PORT, message -> { }));
            }
            for (DemoLink link : LINKS) {
                nodes.get(link.a()).addNeighbour(neighbour(nodes, link.b()));
                nodes.get(link.b()).addNeighbour(neighbour(nodes, link.a()));
            }
            LocalNodes local = new LocalNodes(nodes.get(NODES.get(0)), nodes, true, resources);
            for (DemoLink link : LINKS) {
                ImpairmentRequest request = new ImpairmentRequest(ImpairmentRequest.Scope.BOTH, link.loss(),
                        (double) link.delay().toMillis(), null, null, null, null, null, null);
                impairments.apply(local, link.a(), link.b(), request);
            }
            startStreams(nodes, ports, traffic);
            startGroup(nodes, traffic);
            startLayered(nodes);
            Random random = new Random(20_250_101L);
            long periodNanos = Math.max(1_000_000L, trafficInterval.toNanos());
            traffic.scheduleAtFixedRate(() -> sendRound(ports, random), periodNanos, periodNanos, TimeUnit.NANOSECONDS);
            return local;
        } catch (RuntimeException e) {
            nodes.values().forEach(OverlayNode::stop);
            try {
                resources.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Opens the demo's reliable session (the service's node to {@link #STREAM_PEER}) and real-time
     * flow (back), both routed by hop count so they cross the lossy chord, and paces their sends.
     */
    private static void startStreams(Map<String, OverlayNode> nodes, Map<String, OverlayPort> ports,
            ScheduledExecutorService traffic) {
        OverlayNode self = nodes.get(NODES.get(0));
        OverlayNode peer = nodes.get(STREAM_PEER);
        AtomicReference<ReliableSession> accepted = new AtomicReference<>();
        peer.acceptSessions(SESSION_PORT, session -> {
            accepted.set(session);
            return message -> { };
        });
        ReliableSession session = self.openSession(SESSION_PORT, STREAM_PEER, SESSION_PORT, RoutingMetric.HOPS,
                message -> { });
        byte[] message = new byte[SESSION_MESSAGE_BYTES];
        // Both ends talk, so the session both sends and delivers at the service's node. Until routes
        // exist, or while back-pressured, a send is refused and the next one tries again.
        traffic.scheduleAtFixedRate(() -> {
            session.send(message);
            ReliableSession back = accepted.get();
            if (back != null) {
                back.send(message);
            }
        }, SESSION_PERIOD_MILLIS, SESSION_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        self.openPort(REAL_TIME_PORT, received -> { });
        RealTimeFlow flow = ports.get(STREAM_PEER).openRealTime(self.id(), REAL_TIME_PORT, RoutingMetric.HOPS);
        byte[] frame = new byte[REAL_TIME_PACKET_BYTES];
        traffic.scheduleAtFixedRate(() -> flow.send(frame), REAL_TIME_PERIOD_MILLIS, REAL_TIME_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /**
     * The demo's multicast group: {@link #GROUP_MEMBERS} join it and the service's node sends a voice
     * frame to it every 20 ms, along the source tree the group's members make.
     */
    private static void startGroup(Map<String, OverlayNode> nodes, ScheduledExecutorService traffic) {
        for (String member : GROUP_MEMBERS) {
            nodes.get(member).module(Multicast.class).join(GROUP, GROUP_PORT, message -> { });
        }
        Multicast source = nodes.get(NODES.get(0)).module(Multicast.class);
        byte[] frame = new byte[REAL_TIME_PACKET_BYTES];
        // Until the members' records and the routes have flooded, a send reaches fewer members: demo load.
        traffic.scheduleAtFixedRate(() -> source.send(GROUP, GROUP_PORT, frame), REAL_TIME_PERIOD_MILLIS,
                REAL_TIME_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        // The conference's chat: a reliable stream, so that the dashboard shows one (every member gets
        // every line once and in order; a send refused while the window is full is retried next time).
        for (String member : GROUP_MEMBERS) {
            nodes.get(member).module(Multicast.class).join(GROUP, GROUP_CHAT_PORT, message -> { });
        }
        // The conference's voice: real-time multicast, each loss resent hop by hop only while it can still
        // be played, so the dashboard shows per-member loss, late packets and delay.
        for (String member : GROUP_MEMBERS) {
            nodes.get(member).module(Multicast.class).join(GROUP, GROUP_VOICE_PORT, message -> { });
        }
        net.hopwise.multicast.RealTimeGroupSender voice = source.realTimeSender(GROUP, GROUP_VOICE_PORT, null,
                VOICE_DEADLINE);
        byte[] voiceFrame = new byte[REAL_TIME_PACKET_BYTES];
        traffic.scheduleAtFixedRate(() -> voice.send(voiceFrame), REAL_TIME_PERIOD_MILLIS, REAL_TIME_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
        byte[] line = "a chat line of the demo conference".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        traffic.scheduleAtFixedRate(() -> source.sendReliable(GROUP, GROUP_CHAT_PORT, line), CHAT_PERIOD_MILLIS,
                CHAT_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * The demo's layered session: the service's node sends {@link #LAYERS} constant-rate layers and each
     * of {@link #LAYERED_RECEIVERS} holds as many as ERA's rules let its path carry, so the dashboard shows
     * receivers at their own levels.
     */
    private static void startLayered(Map<String, OverlayNode> nodes) {
        for (String receiver : LAYERED_RECEIVERS) {
            nodes.get(receiver).module(Multicast.class).joinLayered(LAYERED_GROUP, LAYERED_PORT, packet -> { });
        }
        nodes.get(NODES.get(0)).module(Multicast.class).openLayeredSender(LAYERED_GROUP, LAYERED_PORT,
                net.hopwise.multicast.layered.LayerRates.equal(LAYERS, LAYER_BITS_PER_SECOND));
    }

    /**
     * Each node sends one message to a random other node under a random metric, of a size that drifts
     * over time, so throughput charts move the way real traffic does.
     */
    private static void sendRound(Map<String, OverlayPort> ports, Random random) {
        long second = System.currentTimeMillis() / 1000;
        int base = 300 + (int) (900 * (1 + Math.sin(second / 20.0)));
        RoutingMetric[] metrics = RoutingMetric.values();
        for (Map.Entry<String, OverlayPort> e : ports.entrySet()) {
            String to = NODES.get(random.nextInt(NODES.size()));
            if (to.equals(e.getKey())) {
                continue;
            }
            byte[] payload = new byte[base + random.nextInt(400)];
            // A send without a route yet, or while back-pressured, is simply skipped: this is demo load.
            e.getValue().send(to, PORT, payload, metrics[random.nextInt(metrics.length)]);
        }
    }

    private static NeighbourConfig neighbour(Map<String, OverlayNode> nodes, String name) {
        return new NeighbourConfig(name, new InetSocketAddress("127.0.0.1", nodes.get(name).localAddress().getPort()));
    }
}
