package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.multicast.GroupId;
import net.hopwise.multicast.GroupStatistics;
import net.hopwise.multicast.Multicast;
import net.hopwise.multicast.RealTimeMemberStatistics;
import net.hopwise.multicast.ReliableStatistics;
import net.hopwise.multicast.TreeLink;
import net.hopwise.multicast.layered.LayeredMulticast;
import net.hopwise.multicast.layered.LayeredReceiverView;
import net.hopwise.multicast.layered.LayeredRelayView;
import net.hopwise.multicast.layered.LevelChange;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.spi.RealTimeStatistics;

/**
 * Multicast as the service's node sees it: every group some node is a member of (node-level
 * membership, flooded with link state), each group's members and, for the groups whose names this
 * service knows, what each local node sent, delivered and relayed, the reliable streams it holds and the
 * real-time streams it receives; and
 * the link costs of Cost-Benefit flow control where it runs; and the layered receivers of the local nodes
 * and their part as relays of layered sessions.
 */
@Schema(description = "Multicast groups, members and Cost-Benefit link costs as the service's node knows them")
public record MulticastView(
        String node,
        List<Group> groups,
        @Schema(description = "Cost-Benefit link costs, links that cost nothing left out; empty without flow control")
                List<LinkCost> linkCosts,
        @Schema(description = "Layered (multi-rate) receivers on the local nodes, each at the level its path carries")
                List<LayeredReceiver> layered,
        @Schema(description = "Each local node's part in every layered session whose tree crosses it: the layers"
                + " each of its links down the tree carries, and what went there per layer")
                List<LayeredRelay> layeredRelays) {

    /**
     * One local node's part in one layered session: where it takes the session from, and each neighbour
     * it forwards it to with the highest layer that neighbour holds and what went to it per layer.
     */
    public record LayeredRelay(String node, String group, int port, String source, int sessionId,
            @Schema(description = "The neighbour the node takes the session from; null at the source", nullable = true)
                    String upstream,
            int localReceivers, List<LayeredChild> children) {}

    /** A neighbour down a layered session's tree, and what went to it (since it last subscribed from nothing). */
    public record LayeredChild(String node,
            @Schema(description = "The highest layer it holds (cumulative), -1 for none") int level,
            long packets, long bytes,
            @Schema(description = "Per layer that carried anything, lowest first") List<LayerTraffic> layers) {}

    /** Packets and layered bytes (header and payload, not the overlay's own headers) of one layer to one child. */
    public record LayerTraffic(int layer, long packets, long bytes) {}

    /**
     * One layered receiver on a local node: the session it follows, the level (highest layer held, -1
     * for none) and rate it holds now, and its level changes over time, newest last.
     */
    public record LayeredReceiver(String node, String group, int port,
            @Schema(description = "The session's source, null before its first announcement", nullable = true)
                    String source,
            int level, long rateBitsPerSecond, long packetsReceived,
            @Schema(description = "The latest level changes, oldest first (at most 256)") List<LevelPoint> history) {}

    /** A level change: how long ago, and the level and rate it moved to. */
    public record LevelPoint(double secondsAgo, int level, long rateBitsPerSecond) {}

    /** One group. */
    public record Group(
            @Schema(description = "The group id, a hash of its name as node ids are of theirs") String id,
            @Schema(description = "The group's name where this service knows it", nullable = true) String name,
            @Schema(description = "Nodes with at least one member, by name") List<String> memberNodes,
            @Schema(description = "Each local node's counts for the group, for a named group") List<LocalCounts> local,
            @Schema(description = "The reliable streams to the group as each local node holds them (source, member"
                    + " or relay), for a named group") List<ReliableStream> reliable,
            @Schema(description = "The tree from each local node that sent to the group, under the default metric,"
                    + " pruned to the member nodes, as the service's node computes it; for a named group")
                    List<SourceTree> trees,
            @Schema(description = "The real-time streams to the group each local member node receives, one per"
                    + " source, port and metric; for a named group") List<RealTimeStream> realTime) {}

    /**
     * One real-time stream as a local member node received it (see {@code docs/multicast.md}, Real-time
     * multicast): loss after hop-by-hop recovery, packets that came too late for their deadline, and the
     * one-way delay across the two nodes' clocks.
     */
    public record RealTimeStream(String node, String source, int port,
            @Schema(description = "The metric whose trees the stream follows") String metric,
            @Schema(description = "Distinct packets that arrived, late ones included") long received,
            @Schema(description = "Packets still missing from the stream's sequence") long lost,
            @Schema(description = "Packets that arrived after their deadline, counted and dropped") long late,
            @Schema(description = "Packets that arrived only because a link resent them") long recovered,
            long duplicates,
            @Schema(description = "Lost or late, percent of the packets sent so far: what the codec conceals")
                    double missedPercent,
            double p50DelayMillis, double p99DelayMillis,
            @Schema(description = "RFC 3550 interarrival jitter") double jitterMillis) {}

    /** A source's tree for a group: the links its messages take, parent to child, by node name. */
    public record SourceTree(String source, List<TreeEdge> links) {}

    /** One link of a source's tree. */
    public record TreeEdge(String parent, String child) {}

    /** One local node's counts for a group since it started. */
    public record LocalCounts(String node, int localMembers, long sent, long delivered, long forwarded) {}

    /**
     * One reliable stream as one local node holds it: where delivery or repair stands, and the NACKs
     * and repairs that node took part in (see {@code docs/multicast.md}, Reliable multicast).
     */
    public record ReliableStream(String node, String source, int port,
            @Schema(description = "source, member (delivers it) or relay") String role,
            @Schema(description = "A member's next sequence to deliver, the source's next to send, a relay's first"
                    + " missing one") long next,
            @Schema(description = "How far the subtree below this node has received") long acknowledged,
            @Schema(description = "Packets held for repair and reordering now") int held,
            long delivered, long gaps, long nacksSent, long repairsSent, long membersDropped) {}

    /** One link's cost as its advertising end computed it. */
    public record LinkCost(String node, String neighbour, double cost) {}

    private static List<LayeredReceiver> layered(Map<String, OverlayNode> local, Map<NodeId, String> names,
            Map<GroupId, String> groupNames) {
        List<LayeredReceiver> out = new ArrayList<>();
        // Live nodes run on System.nanoTime, the clock the level changes were stamped with.
        long now = System.nanoTime();
        for (OverlayNode n : local.values()) {
            n.findModule(LayeredMulticast.class).ifPresent(m -> {
                for (LayeredReceiverView r : m.receivers()) {
                    List<LevelPoint> history = new ArrayList<>();
                    for (LevelChange c : r.history()) {
                        history.add(new LevelPoint(Math.max(0, now - c.nowNanos()) / 1e9, c.level(), c.rateBitsPerSecond()));
                    }
                    out.add(new LayeredReceiver(n.name(), groupNames.getOrDefault(r.group(), r.group().toString()),
                            r.port(), r.source() == null ? null : names.getOrDefault(r.source(), r.source().toString()),
                            r.level(), r.rateBitsPerSecond(), r.packetsReceived(), history));
                }
            });
        }
        out.sort(java.util.Comparator.comparing(LayeredReceiver::group).thenComparing(LayeredReceiver::node));
        return out;
    }

    private static List<LayeredRelay> layeredRelays(Map<String, OverlayNode> local, Map<NodeId, String> names,
            Map<GroupId, String> groupNames) {
        List<LayeredRelay> out = new ArrayList<>();
        for (OverlayNode n : local.values()) {
            java.util.Optional<LayeredMulticast> module = n.findModule(LayeredMulticast.class);
            if (module.isEmpty()) {
                continue;
            }
            List<LayeredRelayView> views;
            try {
                views = module.get().relays().get(NODE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return out;
            } catch (ExecutionException | TimeoutException e) {
                continue; // a node stopping, or not answering in time, shows no sessions this once
            }
            for (LayeredRelayView v : views) {
                List<LayeredChild> children = new ArrayList<>();
                for (LayeredRelayView.Child c : v.children()) {
                    children.add(new LayeredChild(names.getOrDefault(c.node(), c.node().toString()), c.level(), c.packets(),
                            c.bytes(), c.layers().stream().map(t -> new LayerTraffic(t.layer(), t.packets(), t.bytes()))
                                    .toList()));
                }
                children.sort(java.util.Comparator.comparing(LayeredChild::node));
                out.add(new LayeredRelay(n.name(), groupNames.getOrDefault(v.group(), v.group().toString()), v.port(),
                        names.getOrDefault(v.source(), v.source().toString()), v.sessionId(),
                        v.upstream() == null ? null : names.getOrDefault(v.upstream(), v.upstream().toString()),
                        v.localReceivers(), children));
            }
        }
        out.sort(java.util.Comparator.comparing(LayeredRelay::group).thenComparing(LayeredRelay::node));
        return out;
    }

    private static RealTimeStream realTime(String node, RealTimeMemberStatistics r, Map<NodeId, String> names) {
        RealTimeStatistics st = r.stats();
        String source = r.sourceName() != null ? r.sourceName() : names.getOrDefault(r.source(), r.source().toString());
        return new RealTimeStream(node, source, r.port(), r.metric() == null ? null : r.metric().name(), st.received(), st.lost(), st.late(),
                st.recovered(), st.duplicates(), 100 * st.missedRate(), st.p50DelayNanos() / 1e6,
                st.p99DelayNanos() / 1e6, st.jitterNanos() / 1e6);
    }

    /** How long the view waits for a node's thread to answer (a tree, a node's layered relays). */
    private static final long NODE_WAIT_MILLIS = 2_000;

    private static List<TreeEdge> tree(Multicast multicast, String group, NodeId source, Map<NodeId, String> names) {
        try {
            List<TreeEdge> edges = new ArrayList<>();
            for (TreeLink l : multicast.tree(group, source, null).get(NODE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                edges.add(new TreeEdge(names.getOrDefault(l.parent(), l.parent().toString()),
                        names.getOrDefault(l.child(), l.child().toString())));
            }
            edges.sort(java.util.Comparator.comparing(TreeEdge::parent).thenComparing(TreeEdge::child));
            return edges;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException e) {
            return List.of(); // a node that does not answer in time shows no tree this once
        }
    }

    /**
     * The view of {@code self}'s multicast, naming groups from {@code knownNames} and nodes from the
     * link-state database.
     *
     * @throws OverlayException when {@code self} runs no multicast module
     */
    public static MulticastView of(OverlayNode self, Map<String, OverlayNode> local, Set<String> knownNames) {
        Multicast multicast = self.findModule(Multicast.class).orElseThrow(OverlayException::multicastDisabled);
        Map<NodeId, String> names = self.inspect(engine -> {
            Map<NodeId, String> m = new HashMap<>();
            for (LinkStateAdvertisement a : engine.router().database().advertisements()) {
                m.put(a.origin(), a.originName());
            }
            return m;
        });
        local.values().forEach(n -> names.put(n.id(), n.name()));
        Map<GroupId, String> groupNames = new HashMap<>();
        knownNames.forEach(n -> groupNames.put(GroupId.ofName(n), n));
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<GroupId, Set<NodeId>> e : new java.util.TreeMap<>(multicast.view()).entrySet()) {
            Set<String> members = new TreeSet<>();
            e.getValue().forEach(id -> members.add(names.getOrDefault(id, id.toString())));
            String name = groupNames.get(e.getKey());
            List<LocalCounts> counts = new ArrayList<>();
            List<ReliableStream> reliable = new ArrayList<>();
            List<SourceTree> trees = new ArrayList<>();
            List<RealTimeStream> realTime = new ArrayList<>();
            if (name != null) {
                for (OverlayNode n : local.values()) {
                    n.findModule(Multicast.class).ifPresent(m -> {
                        GroupStatistics st = m.statistics(name);
                        counts.add(new LocalCounts(n.name(), st.localMembers(), st.sent(), st.delivered(), st.forwarded()));
                        if (st.sent() > 0) {
                            trees.add(new SourceTree(n.name(), tree(multicast, name, n.id(), names)));
                        }
                        for (ReliableStatistics r : m.reliableStatistics(name)) {
                            reliable.add(new ReliableStream(n.name(), names.getOrDefault(r.source(), r.source().toString()),
                                    r.port(), r.role(), r.next(), r.acknowledged(), r.held(), r.delivered(), r.gaps(),
                                    r.nacksSent(), r.repairsSent(), r.membersDropped()));
                        }
                        for (RealTimeMemberStatistics r : m.realTimeStatistics(name)) {
                            realTime.add(realTime(n.name(), r, names));
                        }
                    });
                }
            }
            groups.add(new Group(e.getKey().toString(), name, List.copyOf(members), counts, reliable, trees, realTime));
        }
        List<LinkCost> costs = new ArrayList<>();
        multicast.linkCosts().forEach((node, links) -> links.forEach((peer, cost) ->
                costs.add(new LinkCost(names.getOrDefault(node, node.toString()), names.getOrDefault(peer, peer.toString()),
                        cost))));
        costs.sort(java.util.Comparator.comparing(LinkCost::node).thenComparing(LinkCost::neighbour));
        return new MulticastView(self.name(), groups, costs, layered(local, names, groupNames),
                layeredRelays(local, names, groupNames));
    }
}
