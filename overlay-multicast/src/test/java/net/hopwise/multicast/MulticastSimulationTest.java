package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.SimNetwork;
import org.junit.jupiter.api.Test;

/**
 * The unchanged module in the simulator: a source s behind a relay r that fans out to three
 * branches, one of which (x) has no member, so the relay sends to two of its three children.
 */
class MulticastSimulationTest {
    @Test
    void membersOnTwoBranchesGetEveryMessageAndTheBranchWithoutMembersNothing() {
        try (SimNetwork net = new SimNetwork(21, b -> b.module(new MulticastModule()))) {
            for (String n : List.of("s", "r", "m1", "m2", "x", "m3")) {
                net.node(n);
            }
            net.link("s", "r", LinkSpec.delay(Duration.ofMillis(10)));
            net.link("r", "m1", LinkSpec.delay(Duration.ofMillis(5)));
            net.link("r", "m2", LinkSpec.delay(Duration.ofMillis(7)));
            net.link("r", "x", LinkSpec.delay(Duration.ofMillis(3)));
            net.link("m2", "m3", LinkSpec.delay(Duration.ofMillis(4)));
            net.start();
            net.runFor(Duration.ofSeconds(30));

            Map<String, Inbox> inboxes = new LinkedHashMap<>();
            for (String n : List.of("m1", "m3")) {
                Inbox inbox = new Inbox();
                inboxes.put(n, inbox);
                net.nodeNamed(n).interact(stack -> stack.module(Multicast.class).join("video", 5004, inbox));
            }
            net.runFor(Duration.ofSeconds(2));

            byte[] frame = new byte[20_000];
            new Random(1).nextBytes(frame);
            SendResult[] results = new SendResult[10];
            for (int i = 0; i < results.length; i++) {
                int k = i;
                net.nodeNamed("s").interact(stack -> results[k] = stack.module(Multicast.class)
                        .send("video", 5004, RoutingMetric.LATENCY, frame));
                net.runFor(Duration.ofMillis(40));
            }
            net.runFor(Duration.ofSeconds(1));

            assertThat(results).allSatisfy(r -> assertThat(r.accepted()).isTrue());
            for (Inbox inbox : inboxes.values()) {
                assertThat(inbox.messages).hasSize(10).allSatisfy(m -> {
                    assertThat(m.payload()).isEqualTo(frame);
                    assertThat(m.source()).isEqualTo(NodeId.ofName("s"));
                });
                assertThat(inbox.messages).extracting(MulticastMessage::messageId).doesNotHaveDuplicates();
            }
            Multicast relay = net.engine("r").module(Multicast.class);
            GroupStatistics atRelay = relay.statistics("video");
            int fragments = results[0].fragments();
            assertThat(atRelay.forwarded()).as("each fragment to m1 and m2, none to x").isEqualTo(2L * 10 * fragments);
            assertThat(net.engine("x").module(Multicast.class).statistics("video").forwarded()).isZero();
            assertThat(net.engine("s").module(Multicast.class).statistics("video").sentFragments())
                    .isEqualTo(10L * fragments);
        }
    }
}
