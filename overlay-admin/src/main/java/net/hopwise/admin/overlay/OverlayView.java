package net.hopwise.admin.overlay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.node.RealTimeChannel;
import net.hopwise.overlay.reliable.ReliableLinkStatistics;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Reads the overlay from the service's node: topology and costs from its link-state database, routes
 * from its routing table, and the measurements of every local link.
 *
 * <p>Each read takes one consistent snapshot on the node's event loop ({@link OverlayNode#inspect})
 * and builds the views from it on the caller's thread. Links once seen and no longer advertised by
 * either end stay listed as DOWN until one of their ends leaves the database, so an operator sees a
 * remote link fail rather than vanish.
 *
 * <p>Just over the house's 400 lines: topology, links, sessions, drops and routes are all read from
 * the one snapshot this class takes, and each section is a few small builders over it.
 */
public final class OverlayView {
    private static final RoutingMetric[] METRICS = RoutingMetric.values();

    private final LocalNodes nodes;
    private final LinkRates rates;
    private final Set<LinkKey> seen = ConcurrentHashMap.newKeySet();

    public OverlayView(LocalNodes nodes, LinkRates rates) {
        this.nodes = nodes;
        this.rates = rates;
    }

    public LocalNodes nodes() {
        return nodes;
    }

    /** An undirected link, its ends in name order. */
    public record LinkKey(String a, String b) {
        public LinkKey {
            if (a.compareTo(b) > 0) {
                String t = a;
                a = b;
                b = t;
            }
        }

        public String id() {
            return a + "~" + b;
        }
    }

    /** The database, names and routes of the service's node at one moment. */
    public record Snapshot(
            Instant time,
            String self,
            RoutingConfig routing,
            Map<String, LinkStateAdvertisement> advertisements,
            Map<String, Double> ageSeconds,
            Map<String, Map<RoutingMetric, RoutesView.Path>> routes,
            long recomputations,
            Map<String, Map<String, Neighbour>> localLinks,
            Map<String, Map<String, RealTimeChannel>> realTimeChannels,
            Map<String, Map<String, LinkSecurityStatus>> security,
            Set<LinkKey> links) {

        public boolean knows(String node) {
            return advertisements.containsKey(node) || localLinks.containsKey(node)
                    || localLinks.values().stream().anyMatch(m -> m.containsKey(node));
        }

        /** The cost {@code from} advertises towards {@code to}, or null. */
        LinkCost advertised(String from, String to) {
            LinkStateAdvertisement a = advertisements.get(from);
            LinkStateAdvertisement b = advertisements.get(to);
            return a == null || b == null ? null : a.costTo(b.origin());
        }
    }

    /** Takes a snapshot. */
    public Snapshot snapshot() {
        OverlayNode self = nodes.self();
        Snapshot s = self.inspect(engine -> {
            long now = System.nanoTime();
            var database = engine.router().database();
            Map<String, LinkStateAdvertisement> ads = new TreeMap<>();
            Map<String, Double> ages = new HashMap<>();
            Map<NodeId, String> names = new HashMap<>();
            for (LinkStateAdvertisement a : database.advertisements()) {
                ads.put(a.originName(), a);
                names.put(a.origin(), a.originName());
                database.ageNanos(a.origin(), now).ifPresent(age -> ages.put(a.originName(), age / 1e9));
            }
            Map<String, Map<RoutingMetric, RoutesView.Path>> routes = new TreeMap<>();
            for (LinkStateAdvertisement a : database.advertisements()) {
                if (a.origin().equals(engine.id())) {
                    continue;
                }
                Map<RoutingMetric, RoutesView.Path> perMetric = new EnumMap<>(RoutingMetric.class);
                for (RoutingMetric m : METRICS) {
                    List<NodeId> path = engine.router().path(a.origin(), m);
                    NodeId next = engine.router().nextHop(a.origin(), m);
                    double cost = engine.router().pathCost(a.origin(), m);
                    List<String> named = path.stream().map(id -> names.getOrDefault(id, id.toString())).toList();
                    perMetric.put(m, new RoutesView.Path(!path.isEmpty(),
                            next == null ? null : names.getOrDefault(next, next.toString()), named,
                            finite(cost), RoutesView.unitOf(m)));
                }
                routes.put(a.originName(), perMetric);
            }
            return new Snapshot(Instant.now(), engine.config().name(), engine.config().routing(), ads, ages, routes,
                    engine.router().recomputations(), Map.of(), Map.of(), Map.of(), Set.of());
        });
        Map<String, Map<String, Neighbour>> local = new TreeMap<>();
        Map<String, Map<String, RealTimeChannel>> realTime = new TreeMap<>();
        Map<String, Map<String, LinkSecurityStatus>> security = new TreeMap<>();
        for (OverlayNode node : nodes.all().values()) {
            security.put(node.name(), LinkSecurityStatus.of(node));
            Map<String, Neighbour> links = new TreeMap<>();
            for (Neighbour n : node.neighbours()) {
                links.put(n.name(), n);
            }
            local.put(node.name(), links);
            // A channel exists from a link's first real-time packet on; its counters are read from here.
            realTime.put(node.name(), node.inspect(engine -> {
                Map<String, RealTimeChannel> channels = new HashMap<>();
                for (Neighbour n : engine.neighbours()) {
                    RealTimeChannel c = engine.realTimeChannel(n.id());
                    if (c != null) {
                        channels.put(n.name(), c);
                    }
                }
                return channels;
            }));
        }
        Set<LinkKey> links = new TreeSet<>((x, y) -> x.id().compareTo(y.id()));
        for (LinkStateAdvertisement a : s.advertisements().values()) {
            for (LinkStateAdvertisement.Link l : a.links()) {
                String other = nameOf(s.advertisements(), l.neighbour());
                if (other != null) {
                    links.add(new LinkKey(a.originName(), other));
                }
            }
        }
        local.forEach((node, peers) -> peers.keySet().forEach(peer -> links.add(new LinkKey(node, peer))));
        // Links seen before and no longer advertised stay, as DOWN, while both ends are known.
        seen.removeIf(k -> !(s.advertisements().containsKey(k.a()) || local.containsKey(k.a()))
                || !(s.advertisements().containsKey(k.b()) || local.containsKey(k.b())));
        seen.addAll(links);
        links.addAll(seen);
        return new Snapshot(s.time(), s.self(), s.routing(), s.advertisements(), s.ageSeconds(), s.routes(),
                s.recomputations(), local, realTime, security, links);
    }

    private static String nameOf(Map<String, LinkStateAdvertisement> ads, NodeId id) {
        for (LinkStateAdvertisement a : ads.values()) {
            if (a.origin().equals(id)) {
                return a.originName();
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- topology

    public TopologyView topology() {
        return topology(snapshot());
    }

    public TopologyView topology(Snapshot s) {
        return new TopologyView(s.self(), nodes.demo(), s.time(), nodeViews(s),
                s.links().stream().map(k -> topologyLink(s, k)).toList());
    }

    public List<TopologyView.Node> nodeViews(Snapshot s) {
        Set<String> names = new TreeSet<>(s.advertisements().keySet());
        names.addAll(s.localLinks().keySet());
        s.localLinks().values().forEach(m -> names.addAll(m.keySet()));
        List<TopologyView.Node> list = new ArrayList<>();
        for (String name : names) {
            LinkStateAdvertisement a = s.advertisements().get(name);
            OverlayNode local = nodes.get(name);
            boolean reachable = name.equals(s.self())
                    || (s.routes().containsKey(name) && s.routes().get(name).get(RoutingMetric.HOPS).reachable());
            list.add(new TopologyView.Node(name, NodeId.ofName(name).toString(), name.equals(s.self()), local != null,
                    reachable, a == null ? null : a.sequence(), s.ageSeconds().get(name),
                    a == null ? 0 : a.links().size(),
                    local == null ? null : local.localAddress().getHostString() + ":" + local.localAddress().getPort(),
                    local == null ? null : NodeDropsView.of(local, local == nodes.self()).reasons(),
                    local == null ? null : local.loopStalls(),
                    local == null ? null : local.longestLoopStallNanos() / 1e6));
        }
        return list;
    }

    private TopologyView.Link topologyLink(Snapshot s, LinkKey k) {
        List<TopologyView.Direction> directions = List.of(direction(s, k.a(), k.b()), direction(s, k.b(), k.a()));
        return new TopologyView.Link(k.id(), k.a(), k.b(), state(s, k), isLocal(k), directions);
    }

    private TopologyView.Direction direction(Snapshot s, String from, String to) {
        LinkCost cost = s.advertised(from, to);
        Map<RoutingMetric, Double> costs = new EnumMap<>(RoutingMetric.class);
        for (RoutingMetric m : METRICS) {
            costs.put(m, cost == null ? null : finite(m.linkCost(cost, s.routing())));
        }
        return new TopologyView.Direction(from, to, cost != null, cost == null ? null : cost.latencyMillis(),
                cost == null ? null : cost.lossRate(), costs);
    }

    private boolean isLocal(LinkKey k) {
        return nodes.isLocal(k.a()) || nodes.isLocal(k.b());
    }

    /** A local end's own status decides; otherwise what the two advertisements say. */
    LinkState state(Snapshot s, LinkKey k) {
        Neighbour atA = neighbour(s, k.a(), k.b());
        Neighbour atB = neighbour(s, k.b(), k.a());
        if (atA != null || atB != null) {
            LinkStatus a = atA == null ? null : atA.status();
            LinkStatus b = atB == null ? null : atB.status();
            if (a == LinkStatus.DOWN || b == LinkStatus.DOWN) {
                return LinkState.DOWN;
            }
            if (a == LinkStatus.CONNECTING || b == LinkStatus.CONNECTING) {
                return LinkState.CONNECTING;
            }
        }
        boolean ab = s.advertised(k.a(), k.b()) != null;
        boolean ba = s.advertised(k.b(), k.a()) != null;
        if (ab && ba) {
            return LinkState.UP;
        }
        if (ab || ba) {
            return LinkState.ONE_WAY;
        }
        // Up at every local end but not yet in the database: flooding is on its way.
        return atA != null || atB != null ? LinkState.ONE_WAY : LinkState.DOWN;
    }

    private static Neighbour neighbour(Snapshot s, String node, String peer) {
        Map<String, Neighbour> m = s.localLinks().get(node);
        return m == null ? null : m.get(peer);
    }

    // ---------------------------------------------------------------- links

    public List<LinkStatisticsView> links() {
        Snapshot s = snapshot();
        return s.links().stream().map(k -> link(s, k)).toList();
    }

    public LinkStatisticsView link(Snapshot s, LinkKey k) {
        LinkStatisticsView.End a = end(s, k.a(), k.b());
        LinkStatisticsView.End b = end(s, k.b(), k.a());
        boolean measured = a.measured() != null || b.measured() != null;
        return new LinkStatisticsView(k.id(), k.a(), k.b(), state(s, k),
                measured ? LinkStatisticsView.Source.MEASURED : LinkStatisticsView.Source.ADVERTISED, s.time(),
                summary(a, b), List.of(a, b));
    }

    private LinkStatisticsView.End end(Snapshot s, String node, String peer) {
        LinkCost cost = s.advertised(node, peer);
        Neighbour n = neighbour(s, node, peer);
        return new LinkStatisticsView.End(node, peer, n != null, cost != null,
                cost == null ? null : cost.latencyMillis(), cost == null ? null : cost.lossRate(),
                n == null ? null : measured(node, n, s.realTimeChannels().getOrDefault(node, Map.of()).get(peer),
                        s.security().getOrDefault(node, Map.of()).get(peer)));
    }

    private LinkStatisticsView.Measured measured(String node, Neighbour n, RealTimeChannel realTime,
            LinkSecurityStatus security) {
        LinkStatistics st = n.statistics();
        ReliableLinkStatistics reliable = n.reliableStatistics();
        long reliableResent = reliable == null ? 0 : reliable.retransmissions();
        long realTimeResent = realTime == null ? 0 : realTime.retransmissions();
        LinkRates.Rate rate = rates.rate(node, n.name());
        boolean sampled = st != null && st.srttNanos() > 0;
        return new LinkStatisticsView.Measured(
                n.status().name(),
                sampled ? st.srttNanos() / 1e6 : null,
                sampled ? st.rttVarNanos() / 1e6 : null,
                sampled ? st.minRttNanos() / 1e6 : null,
                sampled ? st.lastRttNanos() / 1e6 : null,
                st == null ? 0 : st.jitterNanos() / 1e6,
                st == null ? 0 : st.inboundLossRate(),
                st == null ? 0 : st.outboundLossRate(),
                n.packetsReceived(), n.packetsSent(), n.bytesReceived(), n.bytesSent(),
                rate == null ? null : rate.inBps(), rate == null ? null : rate.outBps(),
                st == null ? 0 : st.upTransitions(), st == null ? 0 : st.downTransitions(),
                n.address().getHostString() + ":" + n.address().getPort(),
                sampled ? st.peerClockOffsetNanos() / 1e6 : null,
                reliableResent + realTimeResent,
                reliable == null ? 0 : reliable.queueLength(),
                reliableResent,
                reliable == null ? 0 : reliable.timeouts(),
                reliable == null ? 0 : reliable.unacknowledged(),
                reliable == null ? 0 : reliable.congestionWindowBytes(),
                realTimeResent,
                realTime == null ? 0 : realTime.nacksSent(),
                realTime == null ? 0 : realTime.nacksReceived(),
                security);
    }

    private static LinkStatisticsView.Summary summary(LinkStatisticsView.End a, LinkStatisticsView.End b) {
        LinkStatisticsView.Measured m = a.measured() != null ? a.measured() : b.measured();
        if (m != null) {
            LinkStatisticsView.Measured other = m == a.measured() ? b.measured() : a.measured();
            Double rtt = m.rttMs() != null ? m.rttMs() : other == null ? null : other.rttMs();
            double loss = Math.max(m.lossInRate(), m.lossOutRate());
            Double throughput = m.throughputInBps() == null ? null : m.throughputInBps() + m.throughputOutBps();
            // Each end counts what it resends and queues towards the other: together, both directions.
            long retransmissions = m.retransmissions() + (other == null ? 0 : other.retransmissions());
            int queued = m.queuedPackets() + (other == null ? 0 : other.queuedPackets());
            return new LinkStatisticsView.Summary(rtt, m.jitterMs(), loss, throughput, retransmissions, queued);
        }
        Double rtt = a.advertisedLatencyMs() != null && b.advertisedLatencyMs() != null
                ? a.advertisedLatencyMs() + b.advertisedLatencyMs() : null;
        Double loss = a.advertisedLossRate() == null && b.advertisedLossRate() == null ? null
                : Math.max(orZero(a.advertisedLossRate()), orZero(b.advertisedLossRate()));
        return new LinkStatisticsView.Summary(rtt, null, loss, null, null, null);
    }

    // ---------------------------------------------------------------- sessions

    /**
     * The reliable sessions of the service's node and the real-time flows arriving at its ports, read
     * in one pass on its event loop.
     */
    public List<SessionView> sessions() {
        return NodeStreams.read(nodes);
    }

    // ---------------------------------------------------------------- drops

    /** The drop counters of every local node, the service's own first. */
    public List<NodeDropsView> drops() {
        return NodeDropsView.of(nodes);
    }

    // ---------------------------------------------------------------- lookups

    /**
     * The link between two named nodes as a snapshot knows it.
     *
     * @throws IllegalArgumentException when both names are the same node
     * @throws OverlayException UNKNOWN_NODE or UNKNOWN_LINK
     */
    public static LinkKey knownLink(Snapshot s, String a, String b) {
        if (a.equals(b)) {
            throw new IllegalArgumentException("a link joins two different nodes, got " + a + " twice");
        }
        for (String n : List.of(a, b)) {
            if (!s.knows(n)) {
                throw OverlayException.unknownNode(n);
            }
        }
        LinkKey k = new LinkKey(a, b);
        if (!s.links().contains(k)) {
            throw OverlayException.unknownLink(a, b);
        }
        return k;
    }

    // ---------------------------------------------------------------- routes

    public RoutesView routes() {
        Snapshot s = snapshot();
        List<RoutesView.Route> list = new ArrayList<>();
        s.routes().forEach((destination, perMetric) -> list.add(new RoutesView.Route(destination, perMetric)));
        return new RoutesView(s.self(), s.time(), list);
    }

    /** Every route as (destination, metric) to path names, for spotting reroutes. */
    public Map<String, List<String>> routeSignature(Snapshot s) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        s.routes().forEach((destination, perMetric) -> perMetric.forEach(
                (metric, path) -> out.put(destination + " " + metric, path.path())));
        return out;
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    /** JSON has no infinity: an unreachable cost is null. */
    static Double finite(double d) {
        return Double.isFinite(d) ? d : null;
    }
}
