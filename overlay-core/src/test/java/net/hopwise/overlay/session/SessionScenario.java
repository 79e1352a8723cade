package net.hopwise.overlay.session;

import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.VirtualOverlay;

/**
 * One reliable session across a {@link VirtualOverlay}: an application at the sending edge that
 * offers numbered messages at a steady pace (retrying when back-pressured) and one at the receiving
 * edge that records what it gets. Messages carry their number and a length-dependent body, so a
 * check can tell a lost, duplicated, reordered or corrupted message.
 */
final class SessionScenario {
    static final int PORT = 7;

    final VirtualOverlay overlay;
    final String from;
    final String to;
    final List<byte[]> sent = new ArrayList<>();
    final List<byte[]> received = new ArrayList<>();
    SessionEndpoint sender;
    SessionEndpoint receiver;
    int backPressured;

    SessionScenario(VirtualOverlay overlay, String from, String to) {
        this.overlay = overlay;
        this.from = from;
        this.to = to;
    }

    void open(RoutingMetric metric) {
        NodeStack a = overlay.engine(from);
        NodeStack b = overlay.engine(to);
        receiver = b.openSession(PORT, NodeId.ofName(from), PORT, metric, m -> received.add(m.payloadBytes()), null,
                overlay.now());
        sender = a.openSession(PORT, NodeId.ofName(to), PORT, metric, m -> {}, null, overlay.now());
    }

    static byte[] message(int index, int length, SplittableRandom random) {
        byte[] m = new byte[Math.max(4, length)];
        random.nextBytes(m);
        ByteBuffer.wrap(m).putInt(index);
        return m;
    }

    /** Offers the next message; false when back-pressured (try again later). */
    boolean offer(byte[] m) {
        SendResult r = overlay.engine(from).sessionSend(sender, Unpooled.wrappedBuffer(m), overlay.now());
        if (r == SendResult.ACCEPTED) {
            sent.add(m);
            return true;
        }
        backPressured++;
        return false;
    }

    /**
     * Sends {@code count} messages from {@code lengths}, one every {@code gapNanos} (or as soon as the
     * session takes it), running the overlay, then runs until all arrived or {@code limitNanos} passed.
     */
    void run(int count, int[] lengths, long gapNanos, long limitNanos, SplittableRandom random, Runnable midway) {
        long start = overlay.now();
        int next = 0;
        byte[] pending = null;
        boolean midwayDone = midway == null;
        while (overlay.now() - start < limitNanos) {
            if (!midwayDone && next >= count / 2) {
                midway.run();
                midwayDone = true;
            }
            if (next < count) {
                if (pending == null) {
                    pending = message(next, lengths[next], random);
                }
                if (offer(pending)) {
                    pending = null;
                    next++;
                }
            } else if (received.size() >= count) {
                return;
            }
            overlay.runFor(gapNanos);
        }
    }
}
