package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * On random connected topologies with lossy and reordering links, joins and leaves at random nodes, partitions and
 * merges, every node ends with the same membership view, and it is what the nodes' local members
 * say. Then, on the healed overlay, each node's place on a source's tree is the source's unicast
 * paths to the members pruned, and a message reaches every member exactly once.
 */
class MembershipConvergenceProperties {
    private static final long MS = 1_000_000L;
    private static final List<String> GROUPS = List.of("g0", "g1", "g2", "g3", "g4");

    private record Link(String a, String b) {}

    // Twelve random overlays per build (each with loss, reordering, a partition and a merge); more with -Djqwik.tries.
    @Property(tries = 12, edgeCases = EdgeCasesMode.NONE)
    void everyNodeConvergesToTheSameView(@ForAll long seed, @ForAll @IntRange(min = 3, max = 7) int size) {
        Random random = new Random(seed);
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            nodes.add("n" + i);
        }
        List<Link> links = new ArrayList<>();
        Set<Set<String>> linked = new HashSet<>();
        for (int i = 1; i < size; i++) {
            Link l = new Link(nodes.get(i), nodes.get(random.nextInt(i)));
            links.add(l);
            linked.add(Set.of(l.a(), l.b()));
        }
        for (int extra = random.nextInt(size); extra > 0; extra--) {
            String a = nodes.get(random.nextInt(size));
            String b = nodes.get(random.nextInt(size));
            if (!a.equals(b) && linked.add(Set.of(a, b))) {
                links.add(new Link(a, b));
            }
        }
        Map<Link, double[]> loss = new HashMap<>();
        try (VirtualOverlay overlay = new VirtualOverlay(seed, b -> b.module(new MulticastModule())
                .module(new RoutesProbe()))) {
            nodes.forEach(overlay::node);
            for (Link l : links) {
                overlay.link(l.a(), l.b(), (1 + random.nextInt(20)) * MS);
                double[] rates = {random.nextDouble() * 0.15, random.nextDouble() * 0.15};
                loss.put(l, rates);
                overlay.loss(l.a(), l.b(), rates[0]);
                overlay.loss(l.b(), l.a(), rates[1]);
                if (random.nextBoolean()) {
                    overlay.reorder(l.a(), l.b(), 0.2, 30 * MS);
                }
            }
            overlay.startAll();
            overlay.runFor(20_000 * MS);

            Map<String, List<Membership>> handles = new LinkedHashMap<>();
            nodes.forEach(n -> handles.put(n, new ArrayList<>()));
            for (int step = 4 + random.nextInt(9); step > 0; step--) {
                int op = random.nextInt(10);
                if (op < 5) {
                    String n = nodes.get(random.nextInt(size));
                    handles.get(n).add(multicast(overlay, n).join(GROUPS.get(random.nextInt(GROUPS.size())),
                            1 + random.nextInt(3), m -> {}));
                } else if (op < 8) {
                    List<Membership> at = handles.get(nodes.get(random.nextInt(size)));
                    if (!at.isEmpty()) {
                        at.remove(random.nextInt(at.size())).leave();
                    }
                } else if (op < 9) {
                    Set<String> side = new HashSet<>();
                    nodes.forEach(n -> {
                        if (random.nextBoolean()) {
                            side.add(n);
                        }
                    });
                    for (Link l : links) {
                        if (side.contains(l.a()) != side.contains(l.b())) {
                            overlay.loss(l.a(), l.b(), 1.0);
                            overlay.loss(l.b(), l.a(), 1.0);
                        }
                    }
                    overlay.runFor((5_000 + random.nextInt(25_000)) * MS);
                } else {
                    heal(overlay, loss);
                }
                overlay.runFor(random.nextInt(5_000) * MS);
            }
            heal(overlay, loss);
            overlay.runFor(90_000 * MS);

            Map<GroupId, Set<NodeId>> expected = new TreeMap<>();
            handles.forEach((n, list) -> list.forEach(m -> expected.computeIfAbsent(m.group(), g -> new HashSet<>())
                    .add(NodeId.ofName(n))));
            for (String n : nodes) {
                assertThat(multicast(overlay, n).view()).as("the view at %s", n).isEqualTo(expected);
            }

            // The healed overlay without loss or reordering: trees and delivery. Under hops, since
            // latency costs move with every measurement and nodes may disagree for a moment.
            loss.keySet().forEach(l -> {
                overlay.loss(l.a(), l.b(), 0);
                overlay.loss(l.b(), l.a(), 0);
                overlay.reorder(l.a(), l.b(), 0, 0);
            });
            Map<String, AtomicInteger> received = new LinkedHashMap<>();
            for (String n : nodes) {
                received.put(n, new AtomicInteger());
                if (random.nextBoolean()) {
                    multicast(overlay, n).join("final", 9, m -> received.get(n).incrementAndGet());
                }
            }
            overlay.runFor(5_000 * MS);
            String source = nodes.get(random.nextInt(size));
            checkTrees(overlay, nodes, source, RoutingMetric.HOPS);
            multicast(overlay, source).send("final", 9, RoutingMetric.HOPS, new byte[3000]);
            overlay.runFor(2_000 * MS);
            Set<NodeId> members = multicast(overlay, source).memberNodes("final");
            for (String n : nodes) {
                assertThat(received.get(n).get()).as("messages at %s", n)
                        .isEqualTo(members.contains(NodeId.ofName(n)) ? 1 : 0);
            }
        }
    }

    private static void heal(VirtualOverlay overlay, Map<Link, double[]> loss) {
        loss.forEach((l, rates) -> {
            overlay.loss(l.a(), l.b(), rates[0]);
            overlay.loss(l.b(), l.a(), rates[1]);
        });
    }

    private static void checkTrees(VirtualOverlay overlay, List<String> nodes, String source, RoutingMetric metric) {
        NodeId s = NodeId.ofName(source);
        GroupId group = GroupId.ofName("final");
        Set<NodeId> members = multicast(overlay, source).memberNodes("final");
        NodeStack stack = overlay.engine(source);
        var routes = stack.module(RoutesProbe.View.class).routes();
        Map<NodeId, Set<NodeId>> children = new HashMap<>();
        Set<NodeId> onPaths = new HashSet<>(Set.of(s)); // the root, members or not
        for (NodeId m : members) {
            List<NodeId> path = m.equals(s) ? List.of(s) : routes.path(m, metric);
            onPaths.addAll(path);
            for (int i = 0; i + 1 < path.size(); i++) {
                children.computeIfAbsent(path.get(i), k -> new HashSet<>()).add(path.get(i + 1));
            }
        }
        for (String x : nodes) {
            NodeId id = NodeId.ofName(x);
            GroupTrees.Entry e = ((MulticastStage) multicast(overlay, x)).treeAt(s, group, metric);
            assertThat(e.onTree()).as("%s on %s's tree", x, source).isEqualTo(onPaths.contains(id));
            assertThat(new HashSet<>(e.children())).as("children of %s", x)
                    .isEqualTo(children.getOrDefault(id, Set.of()));
        }
    }

    private static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }
}
