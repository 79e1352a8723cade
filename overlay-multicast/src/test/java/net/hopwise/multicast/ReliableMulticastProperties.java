package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.RouteView;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Reliable multicast on random topologies (a ring, so that any one node can go, with random chords),
 * 1% loss on every link in both directions, and one relay of the source's tree crashed in the middle
 * of the stream: every member receives every message exactly once and in order.
 */
class ReliableMulticastProperties {
    private static final long MS = 1_000_000L;
    private static final String GROUP = "ledger";
    private static final int PORT = 11;

    @Property(tries = 10, edgeCases = EdgeCasesMode.NONE)
    void everyMemberGetsEveryMessageOnceInOrderThroughLossAndARelayCrash(@ForAll long seed,
            @ForAll @IntRange(min = 5, max = 8) int size) {
        Random random = new Random(seed);
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            nodes.add("n" + i);
        }
        Set<Set<String>> links = new HashSet<>();
        for (int i = 0; i < size; i++) {
            links.add(Set.of(nodes.get(i), nodes.get((i + 1) % size)));
        }
        for (int extra = random.nextInt(size / 2 + 1); extra > 0; extra--) {
            String a = nodes.get(random.nextInt(size));
            String b = nodes.get(random.nextInt(size));
            if (!a.equals(b)) {
                links.add(Set.of(a, b));
            }
        }
        try (VirtualOverlay overlay = new VirtualOverlay(seed, b -> b.module(new MulticastModule())
                .module(new RoutesProbe()))) {
            nodes.forEach(overlay::node);
            for (Set<String> l : links) {
                List<String> ends = new ArrayList<>(l);
                overlay.link(ends.get(0), ends.get(1), (1 + random.nextInt(15)) * MS);
                overlay.loss(ends.get(0), ends.get(1), 0.01);
                overlay.loss(ends.get(1), ends.get(0), 0.01);
            }
            overlay.startAll();
            overlay.runFor(20_000 * MS);

            String source = nodes.get(random.nextInt(size));
            List<String> others = new ArrayList<>(nodes);
            others.remove(source);
            // The relay to crash: the first hop of the path to the farthest node, so that it carries a subtree.
            RouteView routes = overlay.engine(source).module(RoutesProbe.View.class).routes();
            String farthest = others.get(0);
            for (String n : others) {
                if (routes.path(NodeId.ofName(n), RoutingMetric.HOPS).size()
                        > routes.path(NodeId.ofName(farthest), RoutingMetric.HOPS).size()) {
                    farthest = n;
                }
            }
            String relay = routes.nameOf(routes.path(NodeId.ofName(farthest), RoutingMetric.HOPS).get(1));
            Map<String, Inbox> inboxes = new LinkedHashMap<>();
            for (String n : others) {
                if (!n.equals(relay) && (n.equals(farthest) || random.nextInt(3) > 0)) {
                    Inbox inbox = new Inbox();
                    inboxes.put(n, inbox);
                    multicast(overlay, n).join(GROUP, PORT, inbox);
                }
            }
            overlay.runFor(3_000 * MS);

            GroupSender sender = multicast(overlay, source).reliableSender(GROUP, PORT, RoutingMetric.HOPS,
                    SlowMemberPolicy.SLOW_GROUP);
            int messages = 150 + random.nextInt(100);
            List<String> sent = new ArrayList<>();
            int crashAt = messages / 3 + random.nextInt(messages / 3);
            for (int i = 0; i < messages; ) {
                if (i == crashAt && overlay.alive(relay)) {
                    overlay.crash(relay);
                }
                // Some messages span several packets, so that reassembly is across the crash too.
                String text = "message " + i + " " + "x".repeat(random.nextInt(10) == 0 ? 2500 : random.nextInt(200));
                overlay.engine(source).advance(overlay.now());
                if (sender.send(text.getBytes(StandardCharsets.UTF_8)).accepted()) {
                    sent.add(text);
                    i++;
                }
                overlay.runFor((1 + random.nextInt(10)) * MS);
            }
            overlay.runFor(15_000 * MS);

            StringBuilder streams = new StringBuilder();
            for (String n : nodes) {
                if (overlay.alive(n)) {
                    streams.append('\n').append(n).append(": ").append(multicast(overlay, n).reliableStatistics(GROUP));
                }
            }
            List<String> expected = sent.stream().map(ReliableMulticastProperties::head).toList();
            for (Map.Entry<String, Inbox> e : inboxes.entrySet()) {
                assertThat(e.getValue().texts().stream().map(ReliableMulticastProperties::head).toList())
                        .as("messages at %s (relay %s crashed, source %s, links %s)%s", e.getKey(), relay, source, links,
                                streams).isEqualTo(expected);
                assertThat(e.getValue().texts()).isEqualTo(sent);
            }
            assertThat(multicast(overlay, source).reliableStatistics(GROUP)).singleElement()
                    .satisfies(s -> assertThat(s.acknowledged()).as("every member acknowledged").isEqualTo(s.next()));
        }
    }

    private static String head(String text) {
        return text.substring(0, text.indexOf(' ', "message ".length()));
    }

    private static Multicast multicast(VirtualOverlay overlay, String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }
}
