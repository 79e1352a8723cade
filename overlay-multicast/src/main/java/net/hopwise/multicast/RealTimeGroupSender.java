package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * The real-time stream of one node to a group's port, for audio or video conferences: from {@link
 * Multicast#realTimeSender}. Callable from any thread.
 *
 * <pre>{@code
 * RealTimeGroupSender voice = multicast.realTimeSender("room-7", 5004, null, Duration.ofMillis(100));
 * voice.send(frame);   // every 20 ms
 * // at each member node: multicast.realTimeStatistics("room-7") gives delay, loss, late, recovered, jitter
 * }</pre>
 *
 * <p>Each packet leaves at once, unfragmented, numbered and stamped with its send time, down the
 * source's tree on the links' real-time channels: every link resends what it loses, once, only while
 * the packet can still reach the next node before its deadline. Relays forward at once, out of order,
 * and keep no state of the stream. Member nodes deliver each packet once, in arrival order, and drop
 * (and count) the packets that arrive after their deadline: late is as good as lost to a codec.
 */
public final class RealTimeGroupSender {
    /**
     * 100 ms: the codec deadline of the thesis's voice experiments and of unicast real-time flows
     * ({@code RealTimeConfig.DEFAULT_LATE_DEADLINE}); interactive voice stops being interactive
     * beyond 100-150 ms one way.
     */
    public static final Duration DEFAULT_DEADLINE = Duration.ofMillis(100);

    private final RealTimeMulticast service;
    private final GroupId group;
    private final String groupName;
    private final int port;
    private final RoutingMetric metric;
    private final Duration deadline;
    private final AtomicLong sent = new AtomicLong();
    /** Only on the node's thread: the stream's next sequence number (32 bits travel). */
    long nextSequence;

    RealTimeGroupSender(RealTimeMulticast service, GroupId group, String groupName, int port, RoutingMetric metric,
            Duration deadline) {
        this.service = service;
        this.group = group;
        this.groupName = groupName;
        this.port = port;
        this.metric = metric;
        this.deadline = deadline;
    }

    /** Sends one packet (copied: the array may be reused at once). */
    public SendResult send(byte[] payload) {
        return send(io.netty.buffer.Unpooled.wrappedBuffer(payload));
    }

    /**
     * Sends the readable bytes of {@code payload} as one packet; the caller keeps the buffer (its
     * bytes are copied, its indices left as they were).
     *
     * @return {@code ACCEPTED} when handed to the node; {@code TOO_LARGE} over {@link #maxPayload()};
     *     {@code STOPPED} when the node is
     */
    public SendResult send(ByteBuf payload) {
        int length = payload.readableBytes();
        if (length > maxPayload()) {
            return SendResult.refused(SendResult.Status.TOO_LARGE, "a real-time packet of " + length
                    + " bytes exceeds " + maxPayload());
        }
        byte[] bytes = new byte[length];
        payload.getBytes(payload.readerIndex(), bytes);
        SendResult r = service.submit(this, bytes);
        if (r.accepted()) {
            sent.incrementAndGet();
        }
        return r;
    }

    /** Largest payload of one packet: real-time packets are never fragmented. */
    public int maxPayload() {
        return service.maxPayload();
    }

    public GroupId group() {
        return group;
    }

    public String groupName() {
        return groupName;
    }

    public int port() {
        return port;
    }

    public RoutingMetric metric() {
        return metric;
    }

    /** How long after its send a packet is still of use at the members. */
    public Duration deadline() {
        return deadline;
    }

    /** Packets accepted by {@link #send} so far. */
    public long packetsSent() {
        return sent.get();
    }
}
