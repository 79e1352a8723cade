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
 * The window of a {@code SLOW_GROUP} stream moves with the members' receipt, not with the
 * acknowledgement interval: on a chain s - r - m of 1 ms hops, eight windows' worth of messages reach
 * the member in a few round trips per window, where reports every 50 ms per hop held each window for an
 * interval at least (seven intervals, 350 ms, for the eight). Virtual time.
 */
class ReliableAckCadenceTest {
    private static final long MS = 1_000_000L;
    private static final String GROUP = "ticks";
    private static final int WINDOW = 64;
    private static final int MESSAGES = 8 * WINDOW;

    private VirtualOverlay overlay;

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

    @Test
    void eightWindowsReachTheMemberInFarLessThanSevenAcknowledgementIntervals() {
        ReliableConfig config = ReliableConfig.defaults().withCache(2 * WINDOW, WINDOW);
        overlay = new VirtualOverlay(7, b -> b.module(new MulticastModule().withReliable(config)));
        for (String n : List.of("s", "r", "m")) {
            overlay.node(n);
        }
        overlay.link("s", "r", MS);
        overlay.link("r", "m", MS);
        overlay.startAll();
        overlay.runFor(5_000 * MS);
        Inbox atM = new Inbox();
        multicast("m").join(GROUP, 1, atM);
        overlay.runFor(2_000 * MS);
        GroupSender sender = multicast("s").reliableSender(GROUP, 1, RoutingMetric.HOPS, SlowMemberPolicy.SLOW_GROUP);
        List<String> sent = new ArrayList<>();
        long start = overlay.now();
        int accepted = 0;
        int steps = 0;
        // Steps of 50 µs: a sender that may have only one message at the node at a time still keeps up.
        while (atM.size() < MESSAGES && steps++ < 10_000) {
            multicast("s");
            while (accepted < MESSAGES && sender.send(text(accepted)).accepted()) {
                sent.add("m" + accepted);
                accepted++;
            }
            overlay.runFor(MS / 20);
        }
        long took = overlay.now() - start;
        assertThat(atM.texts()).as("every message once and in order").isEqualTo(sent);
        assertThat(sent).hasSize(MESSAGES);
        assertThat(took).as("virtual time for eight windows, in ns").isLessThan(
                3 * ReliableConfig.DEFAULT_ACK_INTERVAL.toNanos());
        overlay.runFor(200 * MS);
        assertThat(multicast("s").reliableStatistics(GROUP)).singleElement()
                .satisfies(st -> assertThat(st.acknowledged()).isEqualTo(MESSAGES));
    }

    private static byte[] text(int i) {
        return ("m" + i).getBytes(StandardCharsets.UTF_8);
    }
}
