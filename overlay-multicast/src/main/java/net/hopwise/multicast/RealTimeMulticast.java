package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.RealTimeMonitor;
import net.hopwise.overlay.spi.Stage;

/**
 * Real-time multicast on one node: originates its senders' packets, relays packets down the source's
 * tree on the links' real-time channels (which recover losses hop by hop within each packet's
 * deadline), and at a member node suppresses duplicates, drops late packets and keeps each stream's
 * statistics. Relays keep no state per stream: the cached tree is all they use. A stage of its own
 * only for the node's close; its packets come through the real-time channels' receiver.
 */
final class RealTimeMulticast implements Stage {
    /**
     * Streams a member node keeps statistics and duplicate windows for (about 20 KiB each, so 20 MiB
     * at most): a conference node receives a few dozen, and made-up streams must not grow the node
     * without bound. When all are taken, a new stream takes the slot of the one silent longest if that
     * one has been silent for {@link #STREAM_IDLE}; otherwise its packets are dropped and counted.
     */
    static final int MAX_STREAMS = 1024;
    /** rtpengine's media timeout, as for unicast real-time flows: a stream silent this long has ended. */
    static final Duration STREAM_IDLE = Duration.ofSeconds(60);
    /** As the unicast flows' window: far more packets than arrive out of order within one deadline. */
    static final int DUPLICATE_WINDOW = 4096;

    private final ModuleContext context;
    private final MulticastStage stage;
    private final NodeId self;
    private final int hopLimit;
    private final int maxPayload;
    private final DropCounter malformed;
    private final DropCounter offTree;
    private final DropCounter late;
    private final DropCounter streamLimit;
    private final DropCounter unsent;
    private final DropCounter hopLimitDrops;
    private final ConcurrentHashMap<SenderKey, RealTimeGroupSender> senders = new ConcurrentHashMap<>();
    /** Member streams in order of last arrival (access order): the eldest is the one silent longest. */
    private final LinkedHashMap<StreamKey, RealTimeMonitor> streams = new LinkedHashMap<>(16, 0.75f, true);
    private volatile boolean closed;

    private record SenderKey(GroupId group, int port, RoutingMetric metric) {}

    private record StreamKey(NodeId source, GroupId group, int port, RoutingMetric metric) {}

    RealTimeMulticast(ModuleContext context, MulticastStage stage) {
        this.context = context;
        this.stage = stage;
        this.self = context.self();
        this.hopLimit = Math.min(255, context.config().hopLimit());
        this.maxPayload = context.maxBody() - ModuleContext.REAL_TIME_HEADER - RealTimePacket.HEADER;
        this.malformed = context.dropReason("multicast_realtime_malformed");
        this.offTree = context.dropReason("multicast_realtime_off_tree");
        this.late = context.dropReason("multicast_realtime_late");
        this.streamLimit = context.dropReason("multicast_realtime_stream_limit");
        this.unsent = context.dropReason("multicast_realtime_unsent");
        this.hopLimitDrops = context.dropReason("multicast_realtime_hop_limit");
        context.receiveRealTime(RealTimePacket.TYPE, this::onRealTime);
        stage.realTime = this;
    }

    int maxPayload() {
        return maxPayload;
    }

    // ---------------------------------------------------------------- the API, from any thread

    RealTimeGroupSender sender(String group, int port, RoutingMetric metric, Duration deadline) {
        GroupId id = GroupId.ofName(group);
        if (port < 0 || port > Multicast.MAX_PORT) {
            throw new IllegalArgumentException("port must be 0-" + Multicast.MAX_PORT + ", got " + port);
        }
        Duration d = deadline != null ? deadline : RealTimeGroupSender.DEFAULT_DEADLINE;
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("deadline must be positive, got " + d);
        }
        if (closed) {
            throw new IllegalStateException("the node is stopped");
        }
        RoutingMetric m = metric != null ? metric : context.config().defaultMetric();
        return senders.computeIfAbsent(new SenderKey(id, port, m),
                k -> new RealTimeGroupSender(this, id, group, port, m, d));
    }

    SendResult submit(RealTimeGroupSender sender, byte[] payload) {
        if (closed) {
            return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
        }
        try {
            context.execute(() -> originate(sender, payload));
        } catch (RejectedExecutionException e) {
            return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
        }
        stage.countSent(sender.group());
        return SendResult.accepted(1);
    }

    synchronized List<RealTimeMemberStatistics> statistics(GroupId group) {
        List<RealTimeMemberStatistics> out = new ArrayList<>();
        for (Map.Entry<StreamKey, RealTimeMonitor> e : streams.entrySet()) {
            StreamKey k = e.getKey();
            if (k.group().equals(group)) {
                out.add(new RealTimeMemberStatistics(k.source(), context.routes().nameOf(k.source()), k.group(),
                        k.port(), k.metric(), e.getValue().statistics()));
            }
        }
        out.sort(Comparator.comparing(RealTimeMemberStatistics::sourceName).thenComparingInt(
                RealTimeMemberStatistics::port).thenComparing(s -> s.metric().ordinal()));
        return out;
    }

    // ---------------------------------------------------------------- on the node's thread

    private void originate(RealTimeGroupSender sender, byte[] payload) {
        if (closed) {
            return;
        }
        long now = context.nowNanos();
        long sequence = sender.nextSequence;
        sender.nextSequence = (sequence + 1) & 0xFFFF_FFFFL;
        long deadline = now + sender.deadline().toNanos();
        RealTimePacket p = new RealTimePacket(sender.metric(), hopLimit, false, self, sender.group(), sequence,
                sender.port(), now);
        GroupTrees.Entry entry = stage.treeAt(self, sender.group(), sender.metric());
        if (!entry.children().isEmpty()) {
            ByteBuf body = p.encodeHeader(context.allocator(), payload.length);
            body.writeBytes(payload);
            fanOut(entry.children(), body, deadline);
        }
        if (stage.isMember(sender.group())) {
            arrive(p, payload, deadline);
        }
    }

    private void onRealTime(LinkView from, ByteBuf body, long deadlineNanos, boolean recoveredHere) {
        RealTimePacket decoded = RealTimePacket.decode(body);
        if (decoded == null) {
            malformed.increment();
            return;
        }
        RealTimePacket p = decoded.onThisClock(body, from.clockOffsetNanos());
        GroupTrees.Entry entry = p.source().equals(self) ? null : stage.treeAt(p.source(), p.group(), p.metric());
        // Only from the parent on this node's tree: a packet from elsewhere is a transient disagreement
        // of views, and taking it could loop.
        if (entry == null || !entry.onTree() || !from.id().equals(entry.parent())) {
            offTree.increment();
            return;
        }
        boolean recovered = p.recovered() || recoveredHere;
        if (!entry.children().isEmpty()) {
            if (p.hopLimit() <= 1) {
                hopLimitDrops.increment();
            } else {
                // A copy of the received bytes: the link's history keeps what it sends until the deadline.
                ByteBuf copy = context.allocator().buffer(body.readableBytes());
                copy.writeBytes(body, body.readerIndex(), body.readableBytes());
                RealTimePacket.relayed(copy, p.hopLimit() - 1, recovered);
                fanOut(entry.children(), copy, deadlineNanos);
            }
        }
        if (stage.isMember(p.group())) {
            byte[] payload = new byte[body.readableBytes() - RealTimePacket.HEADER];
            body.getBytes(body.readerIndex() + RealTimePacket.HEADER, payload);
            arrive(p.recovered() == recovered ? p : withRecovered(p), payload, deadlineNanos);
        }
    }

    private static RealTimePacket withRecovered(RealTimePacket p) {
        return new RealTimePacket(p.metric(), p.hopLimit(), true, p.source(), p.group(), p.sequence(), p.port(),
                p.sendTimeNanos());
    }

    /** Sends {@code body} to each child on its real-time channel; takes ownership of {@code body}. */
    private void fanOut(List<NodeId> children, ByteBuf body, long deadlineNanos) {
        try {
            for (NodeId child : children) {
                LinkView link = context.link(child);
                if (link == null || !context.sendRealTime(link, RealTimePacket.TYPE, body.retainedDuplicate(),
                        deadlineNanos)) {
                    unsent.increment();
                }
            }
        } finally {
            body.release();
        }
    }

    /** A packet at a member node: counted in its stream, delivered unless late or a duplicate. */
    private void arrive(RealTimePacket p, byte[] payload, long deadlineNanos) {
        long now = context.nowNanos();
        boolean isLate = now > deadlineNanos;
        synchronized (this) {
            RealTimeMonitor monitor = stream(new StreamKey(p.source(), p.group(), p.port(), p.metric()), now);
            if (monitor == null) {
                streamLimit.increment();
                return;
            }
            if (!monitor.onPacket(p.sequence(), p.sendTimeNanos(), now, isLate, p.recovered())) {
                return; // a duplicate (after a reroute): counted by the monitor
            }
        }
        if (isLate) {
            late.increment();
            return;
        }
        stage.deliver(p.source(), p.group(), p.port(), p.sequence(), payload);
    }

    private RealTimeMonitor stream(StreamKey key, long now) {
        RealTimeMonitor monitor = streams.get(key);
        if (monitor != null) {
            return monitor;
        }
        if (streams.size() >= MAX_STREAMS) {
            Iterator<Map.Entry<StreamKey, RealTimeMonitor>> eldest = streams.entrySet().iterator();
            if (now - eldest.next().getValue().lastArrivalNanos() < STREAM_IDLE.toNanos()) {
                return null;
            }
            eldest.remove();
        }
        monitor = new RealTimeMonitor(DUPLICATE_WINDOW);
        streams.put(key, monitor);
        return monitor;
    }

    /** Member streams kept now. */
    synchronized int streamCount() {
        return streams.size();
    }

    @Override
    public boolean takes(int type) {
        return false;
    }

    @Override
    public void close() {
        closed = true;
        senders.clear();
        synchronized (this) {
            streams.clear();
        }
    }

    @Override
    public String toString() {
        return "real-time multicast of " + Objects.toString(self);
    }
}
