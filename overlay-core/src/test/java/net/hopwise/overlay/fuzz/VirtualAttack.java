package net.hopwise.overlay.fuzz;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The hostile-neighbour attack on virtual time: a chain a-b-c-d with real traffic between a and d
 * (datagrams and a real-time flow, both ways), and an attacker admitted as an extra neighbour of b
 * that sends {@link HostilePackets} at one per millisecond. It then stops (its hellos go on, as a
 * quiet neighbour's would) and the overlay gets one refresh interval to heal.
 *
 * <p>Invariants are checked during and after the attack; each violation is recorded under the name of
 * its invariant with the facts behind it, so one run reports everything that broke at once.
 */
public final class VirtualAttack {
    public static final String ATTACKER = "mallory";
    public static final String TARGET = "b";
    public static final List<String> REAL = List.of("a", "b", "c", "d");
    /** Origins beyond the real nodes that a database may hold: the bound configured for this run. */
    public static final int EXTRA_ORIGINS = 32;
    public static final int PORT = 7;
    /** Where every real node accepts every reliable session, as a server would. */
    public static final int SESSION_PORT = 8;
    private static final int SESSION_SOURCE_PORT = 9;
    private static final long MS = 1_000_000L;
    private static final long LINK_DELAY = 5 * MS;
    private static final long TRAFFIC_INTERVAL = 20 * MS;
    /** Two days: twice the lead a forged sequence may have on the clock by default. */
    static final long FAR_LEAD_MILLIS = 2 * 24 * 3600 * 1000L;

    public static final String NO_ESCAPE = "no exception escapes the node";
    public static final String DATABASE_BOUND = "databases stay bounded";
    public static final String TARGET_ORIGINATES = "the attacked node keeps originating its advertisement";
    public static final String SEQUENCES = "no real node's sequence is pushed far beyond its own";
    public static final String REACHABILITY = "every real node reaches every other under every metric";
    public static final String TRAFFIC = "real traffic resumes";
    public static final String LINKS = "real links are up";
    public static final String TIMERS = "timers advance: no node spins at one instant";

    private final long seed;
    private final int packets;
    private final int perMillisecond;
    private final Map<String, List<String>> violations = new LinkedHashMap<>();
    private final Map<PacketType, Long> sentByType = new EnumMap<>(PacketType.class);
    private long mutatedOrUnknown;
    private long escaped;
    private int largestDatabase;
    private long restoredAfterNanos = -1;
    private final Map<String, Long> delivered = new TreeMap<>();

    public VirtualAttack(long seed, int packets) {
        this(seed, packets, 1);
    }

    /** @param perMillisecond attack packets per millisecond of virtual time (the loopback run sends 4) */
    public VirtualAttack(long seed, int packets, int perMillisecond) {
        this.seed = seed;
        this.packets = packets;
        this.perMillisecond = perMillisecond;
        for (String check : List.of(TIMERS, NO_ESCAPE, DATABASE_BOUND, TARGET_ORIGINATES, SEQUENCES, REACHABILITY, TRAFFIC,
                LINKS)) {
            violations.put(check, new ArrayList<>());
        }
    }

    /** Runs the attack and the recovery; returns this, with {@link #violations()} filled in. */
    public VirtualAttack run() {
        RoutingConfig routing = RoutingConfig.builder().maxOrigins(REAL.size() + 1 + EXTRA_ORIGINS).build();
        try (VirtualOverlay overlay = new VirtualOverlay(seed, b -> b.routing(routing))) {
            try {
                attackAndRecover(overlay, routing);
            } catch (VirtualOverlay.TimerLivelock e) {
                record(TIMERS, e.getMessage() + " (" + sentTotal() + " attack packets sent)");
                for (Map.Entry<String, List<String>> check : violations.entrySet()) {
                    if (check.getValue().isEmpty()) {
                        check.getValue().add("not checked: the run stopped at the livelock");
                    }
                }
            }
            for (String n : REAL) {
                long errors = overlay.engine(n).counters().drops(DropReason.HANDLER_ERROR);
                if (errors > 0) {
                    escaped += errors;
                    record(NO_ESCAPE, n + " counted " + errors + " handler errors");
                }
            }
        }
        return this;
    }

    private long sentTotal() {
        return sentByType.values().stream().mapToLong(Long::longValue).sum() + mutatedOrUnknown;
    }

    /** Spares real origins from forged sequences near the top (see {@link HostilePackets#spareRealSequences}). */
    public VirtualAttack spareRealSequences(boolean spare) {
        this.spareReal = spare;
        return this;
    }

    private boolean spareReal;

    private void attackAndRecover(VirtualOverlay overlay, RoutingConfig routing) {
        for (String n : REAL) {
            overlay.node(n);
        }
        HostileNeighbour[] attacker = new HostileNeighbour[1];
        overlay.external(ATTACKER, (from, datagram, now) -> {
            for (byte[] reply : attacker[0].onDatagram(ByteBufUtil.getBytes(datagram), now)) {
                overlay.inject(ATTACKER, TARGET, Unpooled.wrappedBuffer(reply));
            }
        });
        overlay.link("a", "b", LINK_DELAY);
        overlay.link("b", "c", LINK_DELAY);
        overlay.link("c", "d", LINK_DELAY);
        overlay.link(ATTACKER, TARGET, LINK_DELAY);
        overlay.onDatagramFailure(this::escaped);
        overlay.startAll();
        attacker[0] = new HostileNeighbour(seed, ATTACKER, TARGET, REAL.toArray(String[]::new),
                routing.maxAge().toMillis(), new int[] {PORT, SESSION_PORT}, overlay.now());
        attacker[0].packets().spareRealSequences(spareReal);
        for (String n : REAL) {
            overlay.engine(n).openPort(PORT, m -> delivered.merge(n, 1L, Long::sum));
            overlay.engine(n).acceptSessions(SESSION_PORT, s -> {
                s.handler(m -> delivered.merge(n + " session", 1L, Long::sum));
                return true;
            });
        }
        long refresh = routing.refreshInterval().toNanos();
        step(overlay, attacker[0], 3_000 * MS, false);
        if (!attacker[0].admitted()) {
            throw new AssertionError("the attacker was never admitted; seed " + seed);
        }
        session = overlay.engine("a").openSession(SESSION_SOURCE_PORT, NodeId.ofName("d"), SESSION_PORT,
                RoutingMetric.LATENCY, m -> {}, k -> {}, overlay.now());
        Map<String, Long> before = ownSequences(overlay);
        long attackStart = overlay.now();
        for (int sent = 0; sent < packets; sent += 1000 * perMillisecond) {
            step(overlay, attacker[0], Math.min(1000, (packets - sent) / perMillisecond) * MS, true);
            checkDatabases(overlay);
        }
        long attackEnd = overlay.now();
        cutWhenStopped = unreachable(overlay);
        long originatedDuring = ownSequences(overlay).get(TARGET) - before.get(TARGET);
        if (originatedDuring <= 0 && attackEnd - attackStart >= refresh) {
            record(TARGET_ORIGINATES, TARGET + " did not originate during " + (attackEnd - attackStart) / MS
                    + " ms of attack");
        }
        while (overlay.now() < attackEnd + refresh) {
            step(overlay, attacker[0], 100 * MS, false);
            if (restoredAfterNanos < 0 && allReachable(overlay)) {
                restoredAfterNanos = overlay.now() - attackEnd;
            }
        }
        checkDatabases(overlay);
        checkAfter(overlay, before, attackStart);
        checkTrafficResumes(overlay, attacker[0]);
        for (String n : REAL) {
            sessionsOpen.put(n, overlay.engine(n).sessions().size());
        }
    }

    private final Map<String, Integer> sessionsOpen = new TreeMap<>();

    /** Runs {@code nanos} of virtual time a millisecond at a time: hellos, real traffic, and attack packets. */
    private void step(VirtualOverlay overlay, HostileNeighbour attacker, long nanos, boolean attacking) {
        long end = overlay.now() + nanos;
        while (overlay.now() < end) {
            long now = overlay.now();
            for (byte[] hello : attacker.onTimer(now)) {
                overlay.inject(ATTACKER, TARGET, Unpooled.wrappedBuffer(hello));
            }
            for (int k = 0; attacking && k < perMillisecond; k++) {
                byte[] packet = attacker.attack(now);
                PacketType type = packet.length > WireHeader.OFFSET_TYPE
                        ? PacketType.ofCode(packet[WireHeader.OFFSET_TYPE] & 0xFF) : null;
                if (type == null) {
                    mutatedOrUnknown++;
                } else {
                    sentByType.merge(type, 1L, Long::sum);
                }
                overlay.inject(ATTACKER, TARGET, Unpooled.wrappedBuffer(packet));
            }
            if ((now / MS) % (TRAFFIC_INTERVAL / MS) == 0) {
                sendTraffic(overlay, now);
            }
            overlay.runFor(MS);
        }
    }

    private long flowSequence;
    private SessionEndpoint session;

    private void sendTraffic(VirtualOverlay overlay, long now) {
        flowSequence++;
        for (String[] pair : new String[][] {{"a", "d"}, {"d", "a"}}) {
            NodeStack from = overlay.engine(pair[0]);
            ByteBuf payload = Unpooled.wrappedBuffer(new byte[32]);
            from.send(PORT, NodeId.ofName(pair[1]), PORT, payload, RoutingMetric.LATENCY, now);
            from.sendRealTime(PORT, NodeId.ofName(pair[1]), PORT, flowSequence, Unpooled.wrappedBuffer(new byte[32]),
                    RoutingMetric.LATENCY, now);
        }
        if (session != null) {
            overlay.engine("a").sessionSend(session, Unpooled.wrappedBuffer(new byte[32]), now);
        }
    }

    private void escaped(String node, String from, ByteBuf datagram, RuntimeException e) {
        escaped++;
        List<String> list = violations.get(NO_ESCAPE);
        if (list.size() < 5) {
            list.add(node + " threw " + e + " at " + stackTop(e) + " on a datagram from " + from + ": "
                    + ByteBufUtil.hexDump(datagram));
        }
    }

    private static String stackTop(Throwable e) {
        StackTraceElement[] st = e.getStackTrace();
        return st.length == 0 ? "?" : st[0].toString();
    }

    private void checkDatabases(VirtualOverlay overlay) {
        for (String n : REAL) {
            NodeStack e = overlay.engine(n);
            int size = e.router().database().size();
            largestDatabase = Math.max(largestDatabase, size);
            if (size > REAL.size() + 1 + EXTRA_ORIGINS) {
                record(DATABASE_BOUND, n + " holds " + size + " origins at " + overlay.now() / MS + " ms");
            }
        }
    }

    private static Map<String, Long> ownSequences(VirtualOverlay overlay) {
        Map<String, Long> seq = new TreeMap<>();
        for (String n : REAL) {
            seq.put(n, overlay.engine(n).router().database().get(NodeId.ofName(n))
                    .map(LinkStateAdvertisement::sequence).orElse(-1L));
        }
        return seq;
    }

    private void checkAfter(VirtualOverlay overlay, Map<String, Long> before, long attackStart) {
        Map<String, Long> own = ownSequences(overlay);
        // Sequences are wall-clock milliseconds: an origin's own moves with its clock, and a forger may
        // lead a receiver's clock by at most the configured sequence lead (a day by default). What is
        // further ahead than FAR_LEAD than the clock has moved eats sequence space faster than time.
        long allowed = (overlay.now() - attackStart) / MS + FAR_LEAD_MILLIS;
        for (String x : REAL) {
            NodeId id = NodeId.ofName(x);
            if (own.get(x) > before.get(x) + allowed) {
                record(SEQUENCES, x + "'s own sequence went from " + before.get(x) + " to " + own.get(x));
            }
            for (String y : REAL) {
                long held = overlay.engine(y).router().database().get(id).map(LinkStateAdvertisement::sequence)
                        .orElse(-1L);
                if (held > before.get(x) + allowed) {
                    record(SEQUENCES, y + " holds " + x + " at sequence " + held + ", " + x + " itself is at "
                            + own.get(x));
                }
                if (x.equals(TARGET) && held != own.get(x)) {
                    record(TARGET_ORIGINATES, y + " holds " + TARGET + " at " + held + " but " + TARGET
                            + " originates " + own.get(x));
                }
            }
        }
        if (own.get(TARGET) <= before.get(TARGET)) {
            record(TARGET_ORIGINATES, TARGET + "'s sequence did not advance: " + before.get(TARGET) + " -> "
                    + own.get(TARGET));
        }
        for (String x : REAL) {
            for (String y : REAL) {
                for (RoutingMetric m : RoutingMetric.values()) {
                    if (!overlay.engine(x).hasRoute(NodeId.ofName(y), m)) {
                        record(REACHABILITY, x + " has no route to " + y + " under " + m
                                + " one refresh interval after the attack");
                    }
                }
            }
            for (var n : overlay.engine(x).neighbours()) {
                if (REAL.contains(n.name()) && n.status() != LinkStatus.UP) {
                    record(LINKS, x + "'s link to " + n.name() + " is " + n.status());
                }
            }
        }
    }

    private void checkTrafficResumes(VirtualOverlay overlay, HostileNeighbour attacker) {
        long a = delivered.getOrDefault("a", 0L);
        long d = delivered.getOrDefault("d", 0L);
        long sessionD = delivered.getOrDefault("d session", 0L);
        // Three seconds: a session whose packets were lost while the route was gone resends after
        // its retransmission timer, at most the session's maxTimeout (2 s by default).
        step(overlay, attacker, 3_000 * MS, false);
        long gotA = delivered.getOrDefault("a", 0L) - a;
        long gotD = delivered.getOrDefault("d", 0L) - d;
        long gotSession = delivered.getOrDefault("d session", 0L) - sessionD;
        if (gotSession < 45) {
            record(TRAFFIC, "in the 3 s after recovery d's session from a delivered " + gotSession
                    + " of about 150 messages");
        }
        // 150 datagrams and 150 real-time packets each way; the last few are in flight.
        if (gotA < 280 || gotD < 280) {
            record(TRAFFIC, "in the 3 s after recovery a got " + gotA + " and d got " + gotD
                    + " of about 300 messages each");
        }
    }

    private List<String> cutWhenStopped = List.of();

    private static List<String> unreachable(VirtualOverlay overlay) {
        List<String> cut = new ArrayList<>();
        for (String x : REAL) {
            for (String y : REAL) {
                if (!overlay.engine(x).hasRoute(NodeId.ofName(y), RoutingMetric.HOPS)) {
                    cut.add(x + "->" + y + (overlay.engine(x).router().database().get(NodeId.ofName(y)).isEmpty()
                            ? " (no advertisement of " + y + " held)" : ""));
                }
            }
        }
        return cut;
    }

    private boolean allReachable(VirtualOverlay overlay) {
        for (String x : REAL) {
            for (String y : REAL) {
                for (RoutingMetric m : RoutingMetric.values()) {
                    if (!overlay.engine(x).hasRoute(NodeId.ofName(y), m)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private void record(String check, String fact) {
        List<String> list = violations.get(check);
        if (list.size() < 10) {
            list.add(fact);
        }
    }

    public Map<String, List<String>> violations() {
        return violations;
    }

    public long seed() {
        return seed;
    }

    public long escaped() {
        return escaped;
    }

    public int largestDatabase() {
        return largestDatabase;
    }

    public long restoredAfterNanos() {
        return restoredAfterNanos;
    }

    public String summary() {
        return "seed " + seed + ": sent " + sentByType + " and " + mutatedOrUnknown + " of unknown type; "
                + escaped + " handler errors; largest database " + largestDatabase + "; full reachability "
                + (restoredAfterNanos < 0 ? "not restored" : "restored " + restoredAfterNanos / MS + " ms")
                + " after the attack; unreachable when it stopped " + cutWhenStopped + "; delivered " + delivered + "; sessions open at the end " + sessionsOpen;
    }
}
