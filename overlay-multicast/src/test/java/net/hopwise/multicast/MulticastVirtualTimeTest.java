package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.RouteView;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Best-effort multicast on production node stacks joined by virtual links: a mesh of seven nodes
 * with distinct delays, so the latency trees differ from the hop trees.
 */
class MulticastVirtualTimeTest {
    private static final long MS = 1_000_000L;
    private static final String GROUP = "news";
    private static final int PORT = 7;
    /** Links and one-way delays in ms: a ring a-b-c-d-e-f-a, a chord b-e and a tail d-g. */
    private static final Object[][] LINKS = {{"a", "b", 3}, {"b", "c", 5}, {"c", "d", 4}, {"d", "e", 6},
        {"e", "f", 2}, {"f", "a", 7}, {"b", "e", 9}, {"d", "g", 3}};
    private static final List<String> NODES = List.of("a", "b", "c", "d", "e", "f", "g");

    private VirtualOverlay overlay;

    private void start() {
        overlay = new VirtualOverlay(11, b -> b.module(new MulticastModule()).module(new RoutesProbe()));
        NODES.forEach(overlay::node);
        for (Object[] l : LINKS) {
            overlay.link((String) l[0], (String) l[1], ((Integer) l[2]) * MS);
        }
        overlay.startAll();
        overlay.runFor(30_000 * MS);
    }

    @AfterEach
    void close() {
        if (overlay != null) {
            overlay.close();
        }
    }

    private Multicast multicast(String node) {
        NodeStack stack = overlay.engine(node);
        stack.advance(overlay.now());
        return stack.module(Multicast.class);
    }

    private RouteView routes(String node) {
        return overlay.engine(node).module(RoutesProbe.View.class).routes();
    }

    private long drop(String node, String reason) {
        return overlay.engine(node).counters().moduleDrops().stream().filter(c -> c.reason().equals(reason))
                .mapToLong(DropCounter::count).findFirst().orElseThrow();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyMemberGetsEachMessageOnceNonMembersNoneAndALeaverStops() {
        start();
        Map<String, Inbox> members = new LinkedHashMap<>();
        Map<String, Membership> handles = new LinkedHashMap<>();
        for (String n : List.of("c", "e", "g")) {
            Inbox inbox = new Inbox();
            members.put(n, inbox);
            handles.put(n, multicast(n).join(GROUP, PORT, inbox));
        }
        Inbox otherPort = new Inbox();
        multicast("f").join(GROUP, PORT + 1, otherPort);
        Inbox otherGroup = new Inbox();
        multicast("b").join("sports", PORT, otherGroup);
        overlay.runFor(2_000 * MS);
        Set<NodeId> expected = Set.of(NodeId.ofName("c"), NodeId.ofName("e"), NodeId.ofName("g"), NodeId.ofName("f"));
        for (String n : NODES) {
            assertThat(multicast(n).memberNodes(GROUP)).as("view at %s", n).isEqualTo(expected);
        }

        byte[] big = new byte[5_000];
        new Random(3).nextBytes(big);
        for (RoutingMetric metric : List.of(RoutingMetric.LATENCY, RoutingMetric.HOPS)) {
            assertThat(multicast("a").send(GROUP, PORT, metric, bytes("hello " + metric)).accepted()).isTrue();
            SendResult r = multicast("a").send(GROUP, PORT, metric, big);
            assertThat(r.accepted()).isTrue();
            assertThat(r.fragments()).as("a 5000-byte message needs several datagrams").isGreaterThan(1);
        }
        overlay.runFor(1_000 * MS);
        for (Map.Entry<String, Inbox> e : members.entrySet()) {
            List<MulticastMessage> got = e.getValue().messages;
            assertThat(got).as("at %s", e.getKey()).hasSize(4);
            assertThat(new String(got.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("hello LATENCY");
            assertThat(got.get(1).payload()).isEqualTo(big);
            assertThat(new String(got.get(2).payload(), StandardCharsets.UTF_8)).isEqualTo("hello HOPS");
            assertThat(got.get(3).payload()).isEqualTo(big);
            assertThat(got).allSatisfy(m -> {
                assertThat(m.sourceName()).isEqualTo("a");
                assertThat(m.group()).isEqualTo(GroupId.ofName(GROUP));
                assertThat(m.port()).isEqualTo(PORT);
            });
        }
        assertThat(otherPort.messages).as("a member on another port").isEmpty();
        assertThat(otherGroup.messages).as("a member of another group").isEmpty();
        assertThat(multicast("c").statistics(GROUP).delivered()).isEqualTo(4);
        assertThat(multicast("a").statistics(GROUP).sent()).isEqualTo(4);

        handles.get("e").leave();
        overlay.runFor(2_000 * MS);
        assertThat(multicast("a").memberNodes(GROUP)).doesNotContain(NodeId.ofName("e"));
        multicast("a").send(GROUP, PORT, bytes("after e left"));
        overlay.runFor(1_000 * MS);
        assertThat(members.get("e").texts()).doesNotContain("after e left").hasSize(4);
        assertThat(members.get("c").texts()).endsWith("after e left");
        assertThat(members.get("g").texts()).endsWith("after e left");
        for (String n : NODES) {
            assertThat(drop(n, "multicast_off_tree")).as("off-tree drops at %s", n).isZero();
            assertThat(drop(n, "multicast_malformed")).isZero();
        }
    }

    @Test
    void eachNodesTreeIsTheSourcesUnicastPathsToTheMembersPruned() {
        start();
        List<String> memberNodes = List.of("c", "f", "g");
        memberNodes.forEach(n -> multicast(n).join(GROUP, PORT, m -> {}));
        overlay.runFor(2_000 * MS);
        GroupId group = GroupId.ofName(GROUP);
        for (RoutingMetric metric : List.of(RoutingMetric.LATENCY, RoutingMetric.HOPS)) {
            for (String source : NODES) {
                NodeId s = NodeId.ofName(source);
                // The union of the source's unicast paths to the members, as next hops per node.
                Map<NodeId, Set<NodeId>> expectedChildren = new LinkedHashMap<>();
                Set<NodeId> onPaths = new HashSet<>();
                for (String m : memberNodes) {
                    List<NodeId> path = routes(source).path(NodeId.ofName(m), metric);
                    if (source.equals(m)) {
                        path = List.of(s);
                    }
                    assertThat(path).as("path %s to %s", source, m).isNotEmpty();
                    onPaths.addAll(path);
                    for (int i = 0; i + 1 < path.size(); i++) {
                        expectedChildren.computeIfAbsent(path.get(i), k -> new HashSet<>()).add(path.get(i + 1));
                    }
                }
                for (String x : NODES) {
                    NodeId id = NodeId.ofName(x);
                    MulticastStage stage = (MulticastStage) multicast(x);
                    GroupTrees.Entry e = stage.treeAt(s, group, metric);
                    assertThat(e.onTree()).as("%s on the tree of %s under %s", x, source, metric)
                            .isEqualTo(onPaths.contains(id));
                    assertThat(new HashSet<>(e.children())).as("children of %s on the tree of %s under %s", x,
                            source, metric).isEqualTo(expectedChildren.getOrDefault(id, Set.of()));
                }
            }
        }
        assertThat(NODES.stream().mapToLong(n -> drop(n, "multicast_off_tree")).sum()).isZero();
    }

    @Test
    void membershipChangeForgetsOnlyThatGroupsTreesAndRoutesForgetAll() {
        start();
        multicast("c").join(GROUP, PORT, m -> {});
        multicast("g").join("other", PORT, m -> {});
        overlay.runFor(2_000 * MS);
        MulticastStage b = (MulticastStage) multicast("b");
        b.treeAt(NodeId.ofName("a"), GroupId.ofName(GROUP), RoutingMetric.LATENCY);
        GroupTrees.Entry other = b.treeAt(NodeId.ofName("a"), GroupId.ofName("other"), RoutingMetric.LATENCY);
        assertThat(b.cachedTrees()).isEqualTo(2);
        multicast("e").join(GROUP, PORT, m -> {});
        overlay.runFor(1_000 * MS);
        assertThat(b.cachedTrees()).as("the joined group's entry went, the other's stayed").isEqualTo(1);
        assertThat(b.treeAt(NodeId.ofName("a"), GroupId.ofName("other"), RoutingMetric.LATENCY)).isSameAs(other);

        overlay.crash("f");
        overlay.runFor(30_000 * MS);
        assertThat(b.cachedTrees()).as("a change of routes forgets every tree").isZero();
    }

    @Test
    void aCrashedNodesMembershipGoesWithItsLinkState() {
        overlay = new VirtualOverlay(5, b -> b.module(new MulticastModule()).routing(
                net.hopwise.overlay.routing.RoutingConfig.builder().refreshInterval(java.time.Duration.ofSeconds(5))
                        .maxAge(java.time.Duration.ofSeconds(15)).build()));
        NODES.forEach(overlay::node);
        for (Object[] l : LINKS) {
            overlay.link((String) l[0], (String) l[1], ((Integer) l[2]) * MS);
        }
        overlay.startAll();
        overlay.runFor(30_000 * MS);
        multicast("g").join(GROUP, PORT, m -> {});
        multicast("c").join(GROUP, PORT, m -> {});
        overlay.runFor(2_000 * MS);
        assertThat(multicast("a").memberNodes(GROUP)).contains(NodeId.ofName("g"));
        overlay.crash("g");
        overlay.runFor(120_000 * MS);
        for (String n : NODES) {
            if (!n.equals("g")) {
                assertThat(multicast(n).memberNodes(GROUP)).as("at %s", n).containsExactly(NodeId.ofName("c"));
            }
        }
    }

    @Test
    void malformedDatagramsAreCountedDrops() {
        start();
        Inbox inbox = new Inbox();
        multicast("b").join(GROUP, PORT, inbox);
        overlay.runFor(2_000 * MS);
        GroupId group = GroupId.ofName(GROUP);
        NodeId a = NodeId.ofName("a");
        List<ByteBuf> bodies = new ArrayList<>();
        bodies.add(Unpooled.buffer().writeBytes(new byte[5]));
        bodies.add(body(new MulticastPacket(RoutingMetric.LATENCY, 8, a, group, 1, PORT, 0, 1), 2, 9));
        ByteBuf badFragment = body(new MulticastPacket(RoutingMetric.LATENCY, 8, a, group, 1, PORT, 0, 1), 0, 0);
        badFragment.setShort(26, 3); // fragment 3 of 1
        bodies.add(badFragment);
        ByteBuf badMetric = body(new MulticastPacket(RoutingMetric.LATENCY, 8, a, group, 1, PORT, 0, 1), 0, 0);
        badMetric.setByte(1, 200);
        bodies.add(badMetric);
        for (ByteBuf body : bodies) {
            inject("a", "b", body);
        }
        // Well formed, but from a node that is not b's parent on c's tree: off the tree.
        inject("a", "b", body(new MulticastPacket(RoutingMetric.LATENCY, 8, NodeId.ofName("c"), group, 1, PORT, 0, 1),
                0, 4));
        overlay.runFor(100 * MS);
        assertThat(drop("b", "multicast_malformed")).isEqualTo(bodies.size());
        assertThat(drop("b", "multicast_off_tree")).isEqualTo(1);
        assertThat(inbox.messages).isEmpty();

        // The same datagram from the parent on a's tree is delivered.
        inject("a", "b", body(new MulticastPacket(RoutingMetric.LATENCY, 8, a, group, 1, PORT, 0, 1), 0, 4));
        overlay.runFor(100 * MS);
        assertThat(inbox.messages).hasSize(1);
        assertThat(inbox.messages.get(0).payload()).hasSize(4);
    }

    @Test
    void badArgumentsAreClearErrorsOrResults() {
        start();
        Multicast m = multicast("a");
        assertThatThrownBy(() -> m.join("no such name!", PORT, x -> {})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.join(GROUP, 70_000, x -> {})).isInstanceOf(IllegalArgumentException.class);
        assertThat(m.send("bad name!", PORT, new byte[1]).status()).isEqualTo(SendResult.Status.INVALID);
        assertThat(m.send(GROUP, -1, new byte[1]).status()).isEqualTo(SendResult.Status.INVALID);
        assertThat(m.send(GROUP, PORT, new byte[MulticastModule.DEFAULT_MAX_MESSAGE_BYTES + 1]).status())
                .isEqualTo(SendResult.Status.TOO_LARGE);
        assertThat(m.send(GROUP, PORT, new byte[0]).accepted()).as("an empty message is a message").isTrue();
    }

    /** A group datagram's body: the header, {@code length} bytes, and then the header's length skewed by {@code skew}. */
    private static ByteBuf body(MulticastPacket p, int skew, int length) {
        ByteBuf b = p.encodeHeader(Unpooled.buffer().alloc(), length);
        b.writeZero(length);
        if (skew > 0) {
            b.writerIndex(MulticastPacket.HEADER - skew);
        }
        return b;
    }

    private void inject(String from, String to, ByteBuf body) {
        ByteBuf datagram = Unpooled.buffer(WireHeader.LENGTH + body.readableBytes());
        WireHeader.write(datagram, MulticastPacket.DATA, 0, body.readableBytes(), NodeId.ofName(from).value(),
                NodeId.ofName(to).value(), 1_000_000);
        datagram.writeBytes(body);
        body.release();
        overlay.inject(from, to, datagram);
    }
}
