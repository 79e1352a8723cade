package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Late join and the two policies for a member that cannot keep up, on a star: the source s, a relay r,
 * and members a and b behind it. Caches of 64 packets and a window of 32, so that a cut-off member
 * runs out of them quickly.
 */
class ReliablePoliciesTest {
    private static final long MS = 1_000_000L;
    private static final String GROUP = "quotes";

    private VirtualOverlay overlay;

    private void start() {
        overlay = new VirtualOverlay(5, b -> b.module(new MulticastModule()
                .withReliable(ReliableConfig.defaults().withCache(64, 32))));
        for (String n : List.of("s", "r", "a", "b")) {
            overlay.node(n);
        }
        overlay.link("s", "r", 5 * MS);
        overlay.link("r", "a", 5 * MS);
        overlay.link("r", "b", 5 * MS);
        overlay.startAll();
        overlay.runFor(10_000 * MS);
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

    private static byte[] text(int i) {
        return ("m" + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aLateJoinerReceivesFromItsJoinOnwardsAndTheOthersEverything() {
        start();
        Inbox atA = new Inbox();
        multicast("a").join(GROUP, 1, atA);
        overlay.runFor(2_000 * MS);
        GroupSender sender = multicast("s").reliableSender(GROUP, 1, RoutingMetric.HOPS, SlowMemberPolicy.SLOW_GROUP);
        for (int i = 0; i < 10; i++) {
            assertThat(sender.send(text(i)).accepted()).isTrue();
            overlay.runFor(20 * MS);
        }
        overlay.runFor(1_000 * MS);
        Inbox atB = new Inbox();
        multicast("b").join(GROUP, 1, atB);
        overlay.runFor(2_000 * MS);
        for (int i = 10; i < 20; i++) {
            assertThat(sender.send(text(i)).accepted()).isTrue();
            overlay.runFor(20 * MS);
        }
        overlay.runFor(2_000 * MS);
        assertThat(atA.texts()).containsExactlyElementsOf(range(0, 20));
        assertThat(atB.texts()).containsExactlyElementsOf(range(10, 20));
    }

    @Test
    void slowGroupHoldsTheSenderWhileAMemberIsCutOffThenDeliversEverything() {
        start();
        Inbox atA = new Inbox();
        Inbox atB = new Inbox();
        multicast("a").join(GROUP, 1, atA);
        multicast("b").join(GROUP, 1, atB);
        overlay.runFor(2_000 * MS);
        GroupSender sender = multicast("s").reliableSender(GROUP, 1, RoutingMetric.HOPS, SlowMemberPolicy.SLOW_GROUP);
        // Shorter than the hellos take to declare the link dead: b stays on the tree, unreachable.
        overlay.loss("r", "b", 1.0);
        int sent = 0;
        boolean blocked = false;
        for (int t = 0; t < 60; t++) {
            multicast("s");
            if (sender.writable() && sender.send(text(sent)).accepted()) {
                sent++;
            } else {
                blocked = true;
            }
            overlay.runFor(10 * MS);
        }
        assertThat(blocked).as("the window of 32 filled while b received nothing").isTrue();
        assertThat(sent).as("at most a window past what b had").isLessThanOrEqualTo(33);
        overlay.loss("r", "b", 0);
        for (int t = 0; t < 300 && sent < 100; t++) {
            multicast("s");
            if (sender.writable() && sender.send(text(sent)).accepted()) {
                sent++;
            }
            overlay.runFor(10 * MS);
        }
        overlay.runFor(3_000 * MS);
        assertThat(sent).isEqualTo(100);
        assertThat(atA.texts()).containsExactlyElementsOf(range(0, 100));
        assertThat(atB.texts()).containsExactlyElementsOf(range(0, 100));
    }

    @Test
    void dropMemberDropsTheCutOffMemberWithAnEventAndTheOthersGoOn() {
        start();
        Inbox atA = new Inbox();
        List<MemberDropped> dropped = new ArrayList<>();
        Inbox atB = new Inbox();
        MessageHandler toB = new MessageHandler() {
            @Override
            public void onMessage(MulticastMessage message) {
                atB.onMessage(message);
            }

            @Override
            public void onDropped(MemberDropped event) {
                dropped.add(event);
            }
        };
        multicast("a").join(GROUP, 1, atA);
        multicast("b").join(GROUP, 1, toB);
        overlay.runFor(2_000 * MS);
        GroupSender sender = multicast("s").reliableSender(GROUP, 1, RoutingMetric.HOPS, SlowMemberPolicy.DROP_MEMBER);
        for (int i = 0; i < 10; i++) {
            assertThat(sender.send(text(i)).accepted()).isTrue();
            overlay.runFor(10 * MS);
        }
        overlay.runFor(500 * MS);
        overlay.loss("r", "b", 1.0);
        for (int i = 10; i < 210; i++) {
            assertThat(sender.send(text(i)).accepted()).as("never held back").isTrue();
            overlay.runFor(10 * MS);
        }
        overlay.loss("r", "b", 0);
        overlay.runFor(10_000 * MS);
        assertThat(atA.texts()).containsExactlyElementsOf(range(0, 210));
        assertThat(dropped).singleElement().satisfies(e -> {
            assertThat(e.group()).isEqualTo(GroupId.ofName(GROUP));
            assertThat(e.port()).isEqualTo(1);
        });
        assertThat(atB.texts()).as("in order with no hole, up to where it was cut off").isEqualTo(
                range(0, atB.size()));
        assertThat(multicast("b").statistics(GROUP).localMembers()).as("b left the group").isZero();
    }

    private static List<String> range(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("m" + i);
        }
        return out;
    }
}
