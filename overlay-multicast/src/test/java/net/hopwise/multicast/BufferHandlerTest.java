package net.hopwise.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reliable multicast hands a {@link BufferHandler} a read-only view of the packets the member node
 * holds, one message whole however many packets it took, while a plain handler at the same node still
 * gets an array of its own; a handler that leaves in its call does not pull the bytes from under the
 * others. Virtual time, on a chain s - r - m.
 */
class BufferHandlerTest {
    private static final long MS = 1_000_000L;
    private static final String GROUP = "views";

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
    void aBufferHandlerGetsEveryMessageWholeAsAViewAndAPlainHandlerItsOwnArray() {
        overlay = new VirtualOverlay(11, b -> b.module(new MulticastModule()));
        for (String n : List.of("s", "r", "m")) {
            overlay.node(n);
        }
        overlay.link("s", "r", MS);
        overlay.link("r", "m", MS);
        overlay.startAll();
        overlay.runFor(5_000 * MS);
        List<byte[]> viewed = new ArrayList<>();
        List<Boolean> readOnly = new ArrayList<>();
        multicast("m").join(GROUP, 1, (BufferHandler) m -> {
            readOnly.add(m.payload().isReadOnly());
            viewed.add(m.payloadBytes());
        });
        // The first message makes this member leave in its call: the members after it still get their bytes.
        AtomicReference<Membership> leaving = new AtomicReference<>();
        List<byte[]> beforeLeaving = new ArrayList<>();
        leaving.set(multicast("m").join(GROUP, 1, (BufferHandler) m -> {
            beforeLeaving.add(m.payloadBytes());
            leaving.get().leave();
        }));
        Inbox plain = new Inbox();
        multicast("m").join(GROUP, 1, plain);
        overlay.runFor(2_000 * MS);

        GroupSender sender = multicast("s").reliableSender(GROUP, 1, RoutingMetric.HOPS, SlowMemberPolicy.SLOW_GROUP);
        SplittableRandom random = new SplittableRandom(11);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // One packet, or several: up to 6000 bytes against a body of about 1400.
            byte[] payload = new byte[i % 4 == 0 ? 1 + random.nextInt(6000) : 1 + random.nextInt(1000)];
            random.nextBytes(payload);
            multicast("s");
            assertThat(sender.send(payload).accepted()).isTrue();
            sent.add(payload);
            overlay.runFor(5 * MS);
        }
        overlay.runFor(1_000 * MS);

        assertThat(viewed).hasSize(sent.size());
        for (int i = 0; i < sent.size(); i++) {
            assertThat(viewed.get(i)).as("message %d by view", i).isEqualTo(sent.get(i));
            assertThat(plain.messages.get(i).payload()).as("message %d as an array", i).isEqualTo(sent.get(i));
        }
        assertThat(readOnly).containsOnly(true);
        assertThat(beforeLeaving).hasSize(1);
        assertThat(beforeLeaving.get(0)).isEqualTo(sent.get(0));
        assertThat(plain.messages.stream().map(MulticastMessage::payload).distinct().count())
                .as("arrays of the plain handler's own").isEqualTo(sent.size());
        assertThat(sent).as("some messages took several packets").anyMatch(p -> p.length > 3000);
    }
}
