package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * Reliable multicast on one node: sources number each stream's packets; every hop carries them on a
 * link channel of its own, which resends what a link loses; and what a hop cannot recover (a relay
 * crashed with packets in its buffers, a reroute, a buffer's hard bound) is asked for end to end:
 * each node on the tree that sees a gap asks its parent after a random back-off, a parent that holds
 * the packet resends it from its cache, and one that lacks it too asks its own parent once for all
 * its children (NORM's NACK suppression on a tree: a request heard upstream stops the duplicates).
 * Acknowledgements flow up the tree, each node reporting the least of its subtree, so that a source
 * under {@link SlowMemberPolicy#SLOW_GROUP} keeps at most a window ahead of its slowest member. Only
 * on the node's thread, except the API's entry points. Over 400 lines: the source's send path, the
 * data path and the accessors the control handler and timers use share the streams, the links and the
 * stage; the timed and control duties are already apart ({@link ReliableTimers}, {@link
 * ReliableControlHandler}).
 */
final class ReliableEngine {
    /**
     * Streams a node keeps at once (as source, relay or member): each holds a cache of {@code
     * cachePackets} references, so the bound keeps a node's memory fixed whatever flows through it.
     */
    static final int MAX_STREAMS = 256;
    /** A relay forgets a stream nothing of which arrived for a minute: it holds only repair copies. */
    static final long RELAY_IDLE_NANOS = 60_000_000_000L;
    /**
     * A stream's cache keeps received packets as views of the buffers they were read into while it
     * pins at most this many times the bytes of a full cache of copies: a run read at once (UDP GRO)
     * costs about what its datagrams take and is kept without a copy, and packets that each came in a
     * read buffer of their own are copied once the views would hold more.
     */
    static final int PIN_BUDGET_FACTOR = 2;

    private final ModuleContext context;
    private final MulticastStage stage;
    private final ReliableConfig config;
    private final NodeId self;
    private final SplittableRandom random;
    private final int chunk;
    private final int nackCapacity;
    /**
     * Bytes of read buffers a stream's cache may hold views of before it copies what it keeps: twice
     * what copies of a full cache of the largest packets would take (see {@link ReadPins}).
     */
    private final long pinBudget;
    private final ReliableLinks links;
    private final Map<StreamKey, ReliableStream> streams = new ConcurrentHashMap<>();
    private final Map<StreamKey, ReliableSender> senders = new ConcurrentHashMap<>();
    private final DropCounter malformed;
    private final DropCounter offTree;
    private final DropCounter tooMany;

    ReliableEngine(ModuleContext context, MulticastStage stage, ReliableConfig config, DropCounter malformed,
            DropCounter offTree) {
        this.context = context;
        this.stage = stage;
        this.config = config;
        this.self = context.self();
        this.random = new SplittableRandom(self.value() ^ 0x52656c6961626cL);
        this.chunk = context.maxBody() - ChannelAck.DATA_HEADER - ReliablePacket.HEADER;
        this.nackCapacity = ReliableControl.nackCapacity(context.maxBody());
        this.pinBudget = PIN_BUDGET_FACTOR * config.cachePackets() * (long) context.maxBody();
        this.malformed = malformed;
        this.offTree = offTree;
        this.tooMany = context.dropReason("multicast_reliable_streams");
        this.links = new ReliableLinks(context, config.linkBufferPackets(), random, malformed);
    }

    void execute(Runnable task) {
        context.execute(task);
    }

    int fragmentsOf(int length) {
        return Math.max(1, (length + chunk - 1) / chunk);
    }

    SendResult checkSize(byte[] payload, SlowMemberPolicy policy) {
        SendResult refused = stage.checkSize(payload);
        if (refused != null) {
            return refused;
        }
        int fragments = fragmentsOf(payload.length);
        if (fragments > 0xFFFF || policy == SlowMemberPolicy.SLOW_GROUP && fragments > config.windowPackets()) {
            return SendResult.refused(SendResult.Status.TOO_LARGE, payload.length + " bytes need " + fragments
                    + " packets, more than the window of " + config.windowPackets());
        }
        return null;
    }

    // ---------------------------------------------------------------- sources

    GroupSender sender(GroupId group, int port, RoutingMetric metric, SlowMemberPolicy policy) {
        StreamKey key = new StreamKey(self, group, port, metric);
        return senders.computeIfAbsent(key, k -> new ReliableSender(this, k, policy, config.windowPackets()));
    }

    void remove(ReliableSender sender) {
        senders.remove(sender.key, sender);
        sender.clear();
    }

    private ReliableStream sourceStream(StreamKey key, long nowNanos) {
        ReliableStream s = streams.get(key);
        if (s == null) {
            s = new ReliableStream(key, true, config.cachePackets(), config.nackRetryNanos(), random.nextInt(),
                    nowNanos);
            streams.put(key, s);
        }
        return s;
    }

    /** Sends what the sender's queue holds, as far as the window lets it; on the node's thread. */
    void drain(ReliableSender sender) {
        sender.draining();
        if (sender.closed()) {
            sender.clear();
            return;
        }
        long nowNanos = context.nowNanos();
        ReliableStream s = sourceStream(sender.key, nowNanos);
        StreamKey key = sender.key;
        List<LinkView> out = null;
        List<NodeId> children = List.of();
        boolean member = false;
        for (ReliableSender.Queued q = sender.peek(); q != null; q = sender.peek()) {
            if (sender.policy == SlowMemberPolicy.SLOW_GROUP && s.high + q.fragments() - s.ackFloor > config.windowPackets()) {
                break; // the slowest member's acknowledgement moves the window and drains again
            }
            if (out == null) {
                // Once per batch: the tree and the membership do not change within one task.
                refreshHorizon(s);
                children = stage.treeAt(self, key.group(), key.metric()).children();
                out = links.links(children);
                member = stage.isMember(key.group());
            }
            s.feeds.fed(children, s.high);
            emit(sender, s, q, out, member, nowNanos);
            sender.sent(q);
        }
        links.pump(nowNanos);
        if (out != null) {
            if (nowNanos - s.lastSendNanos > config.heartbeatIntervalNanos()) {
                s.nextHeartbeatNanos = nowNanos + config.heartbeatIntervalNanos();
            }
            s.lastSendNanos = nowNanos;
        }
        sender.wake();
    }

    private void emit(ReliableSender sender, ReliableStream s, ReliableSender.Queued q, List<LinkView> out,
            boolean member, long nowNanos) {
        StreamKey key = sender.key;
        byte[] payload = q.payload();
        int n = q.fragments();
        long start = s.high;
        for (int f = 0; f < n; f++) {
            int from = f * chunk;
            int length = Math.min(chunk, payload.length - from);
            ByteBuf packet = new ReliablePacket(key, s.epoch, s.high, s.horizon, f, n)
                    .encodeHeader(context.allocator(), length);
            packet.writeBytes(payload, from, length);
            links.send(out, packet.retain(), nowNanos);
            s.append(packet, nowNanos);
            sender.bytes.addAndGet(packet.readableBytes());
        }
        if (member) {
            stage.deliver(self, key.group(), key.port(), start, payload);
            s.deliveredMessages++;
        }
        stage.countSent(key.group());
    }

    /** A member node new to the stream starts at the horizon: after its join reached the source. */
    void refreshHorizon(ReliableStream s) {
        Set<NodeId> members = stage.memberNodes(s.key.group());
        if (!members.equals(s.horizonMembers)) {
            s.horizon = s.high;
            s.horizonMembers = Set.copyOf(members);
        }
    }

    // ---------------------------------------------------------------- data

    void onData(LinkView from, ByteBuf channelBody, long nowNanos) {
        ByteBuf body = links.accept(from, channelBody);
        if (body == null) {
            return;
        }
        ReliablePacket p = ReliablePacket.decode(body);
        if (p == null) {
            malformed.increment();
            return;
        }
        StreamKey key = p.key();
        GroupTrees.Entry entry = key.source().equals(self) ? null : stage.treeAt(key.source(), key.group(), key.metric());
        if (entry == null || !entry.onTree() || !from.id().equals(entry.parent())) {
            offTree.increment();
            return;
        }
        boolean member = stage.isMember(key.group());
        ReliableStream s = streams.get(key);
        if (s == null) {
            if (streams.size() >= MAX_STREAMS && !evictIdleRelay()) {
                tooMany.increment();
                return;
            }
            s = new ReliableStream(key, false, config.cachePackets(), config.nackRetryNanos(), p.epoch(), nowNanos);
            streams.put(key, s);
        }
        if (!s.started || s.epoch != p.epoch()) {
            // A member node new to the stream starts at the source's horizon (its join); a relay at
            // what passes now, leaving older gaps to the children that need them.
            long start = member && p.horizon() <= p.sequence() ? Math.max(p.horizon(), p.sequence()
                    - config.cachePackets() + 1) : p.messageStart();
            s.restart(p.epoch(), start);
            s.delivering = member;
            s.depth = depth(key);
        } else if (member && !s.delivering) {
            s.delivering = true;
            s.next = p.sequence() == s.high ? p.messageStart() : s.high;
        } else if (!member && s.delivering) {
            s.delivering = false;
        }
        s.lastHeardNanos = nowNanos;
        long seq = p.sequence();
        Set<NodeId> waiting = s.takePending(seq);
        ReliableStream.Insert result = s.receive(seq, body, context.allocator(), pinBudget, nowNanos,
                config.nackBackoffNanos(), random);
        if (result == ReliableStream.Insert.NEW) {
            ByteBuf held = s.get(seq);
            s.received++;
            s.lastDataNanos = nowNanos;
            List<LinkView> out;
            if (waiting.isEmpty()) {
                out = links.links(entry.children());
            } else {
                Set<NodeId> to = new HashSet<>(entry.children());
                to.addAll(waiting);
                to.remove(from.id());
                out = links.links(new ArrayList<>(to));
            }
            s.feeds.fed(entry.children(), seq);
            links.send(out, held.retain(), nowNanos);
            s.markSent(seq, nowNanos);
            if (s.takeOverrun()) {
                drop(s, "packets it lacked were pushed out of its " + config.cachePackets() + "-packet cache");
            }
        } else {
            s.duplicates++;
            // Children that asked for it through this node get it even when this node had it already.
            List<NodeId> to = new ArrayList<>(waiting);
            to.remove(from.id());
            if (!to.isEmpty()) {
                ByteBuf held = s.get(seq);
                // One too old for the cache goes as a copy: the channels may hold it a while.
                links.send(links.links(to), held != null ? held.retain() : context.allocator()
                        .buffer(body.readableBytes()).writeBytes(body, body.readerIndex(), body.readableBytes()));
            }
        }
        deliverReady(s);
        if (s.delivering) {
            ReliableTimers.ackEarly(this, s, nowNanos, false);
        }
    }

    private void deliverReady(ReliableStream s) {
        for (int n = s.nextMessage(); n > 0; n = s.nextMessage()) {
            long start = s.next;
            ByteBuf message;
            if (n == 1) {
                ByteBuf b = s.get(start);
                message = b.retainedSlice(b.readerIndex() + ReliablePacket.HEADER, b.readableBytes() - ReliablePacket.HEADER);
            } else {
                CompositeByteBuf parts = context.allocator().compositeBuffer(n);
                for (int i = 0; i < n; i++) {
                    ByteBuf b = s.get(start + i);
                    parts.addComponent(true, b.retainedSlice(b.readerIndex() + ReliablePacket.HEADER,
                            b.readableBytes() - ReliablePacket.HEADER));
                }
                message = parts;
            }
            s.next = start + n;
            // Its own reference: a handler that leaves the group clears the stream's cache meanwhile.
            try {
                stage.deliver(s.key.source(), s.key.group(), s.key.port(), start, message);
            } finally {
                message.release();
            }
            s.deliveredMessages++;
        }
    }

    /** The node cannot follow the stream any more: its local members of the group's port are told and leave. */
    private void drop(ReliableStream s, String reason) {
        s.delivering = false;
        s.membersDropped++;
        stage.dropMembers(new MemberDropped(s.key.group(), s.key.port(), s.key.source(), reason));
    }

    // ---------------------------------------------------------------- control

    void onControl(Frame frame) {
        ReliableControl c = ReliableControl.decode(frame.body());
        if (c == null) {
            malformed.increment();
            return;
        }
        ReliableControlHandler.handle(this, frame.link(), c, frame.body(), frame.nowNanos());
    }

    ReliableStream stream(StreamKey key) {
        return streams.get(key);
    }

    ReliableConfig config() {
        return config;
    }

    SplittableRandom random() {
        return random;
    }

    MulticastStage stage() {
        return stage;
    }

    NodeId self() {
        return self;
    }

    /**
     * Whether the packet {@code sequence} of the stream, which this node sent its children, is still on
     * its way to {@code child} in their link channel: a request for it then needs no repair.
     */
    boolean carrying(ReliableStream s, long sequence, NodeId child) {
        long sent = s.sentAt(sequence);
        return sent != Long.MIN_VALUE && s.feeds.fed(child, sequence) && links.carrying(child, sent);
    }

    /** A packet from this node's cache to one child, on its channel: a repair. */
    void repair(LinkView child, ByteBuf packet) {
        links.send(List.of(child), packet.retainedDuplicate());
    }

    /** @return whether the node took it (false without a link, or with the node's socket back-pressured) */
    boolean sendControl(LinkView link, ReliableControl c) {
        return link != null && context.send(link, ReliableControl.TYPE, c.encode(context.allocator()));
    }

    /** Sends a control packet's body on to this node's children on the stream's tree. */
    void toChildren(StreamKey key, ByteBuf body) {
        List<LinkView> to = links.links(stage.treeAt(key.source(), key.group(), key.metric()).children());
        if (!to.isEmpty()) {
            context.fanOut(to, ReliableControl.TYPE, body.retainedSlice());
        }
    }

    /** Sends a control packet of this node's own to its children on the stream's tree. */
    void toChildrenOwned(StreamKey key, ReliableControl c) {
        ByteBuf body = c.encode(context.allocator());
        try {
            toChildren(key, body);
        } finally {
            body.release();
        }
    }

    /** Reliable multicast packets queued at this node for {@code neighbour}: part of that link's queue. */
    int queued(NodeId neighbour) {
        return links.queued(neighbour);
    }

    int maxBody() {
        return context.maxBody();
    }

    LinkView parentLink(StreamKey key) {
        GroupTrees.Entry e = stage.treeAt(key.source(), key.group(), key.metric());
        return e.onTree() && e.parent() != null ? context.link(e.parent()) : null;
    }

    /** A heartbeat found this member node new to the stream: it starts at the source's horizon. */
    ReliableStream startMember(StreamKey key, int epoch, long horizon, long nowNanos) {
        ReliableStream s = relayStream(key, epoch, horizon, nowNanos);
        if (s != null) {
            s.delivering = true;
        }
        return s;
    }

    /** The stream at this node started anew at {@code start}, made when it has none. */
    ReliableStream relayStream(StreamKey key, int epoch, long start, long nowNanos) {
        ReliableStream s = streams.get(key);
        if (s == null) {
            if (streams.size() >= MAX_STREAMS && !evictIdleRelay()) {
                tooMany.increment();
                return null;
            }
            s = new ReliableStream(key, false, config.cachePackets(), config.nackRetryNanos(), epoch, nowNanos);
            streams.put(key, s);
        }
        s.restart(epoch, start);
        s.depth = depth(key);
        s.lastHeardNanos = nowNanos;
        return s;
    }

    void dropMember(ReliableStream s, String reason) {
        drop(s, reason);
    }

    /** An acknowledgement moved a source's window by {@code delta} packets: queued messages may go now. */
    void windowMoved(StreamKey key, long delta) {
        ReliableSender sender = senders.get(key);
        if (sender != null) {
            sender.acknowledged(delta);
            drain(sender);
        }
    }

    private int depth(StreamKey key) {
        return Math.max(1, context.routes().path(key.source(), key.metric()).size() - 1);
    }

    private boolean evictIdleRelay() {
        ReliableStream idlest = null;
        for (ReliableStream s : streams.values()) {
            if (!s.source && !s.delivering && (idlest == null || s.lastHeardNanos < idlest.lastHeardNanos)) {
                idlest = s;
            }
        }
        if (idlest == null) {
            return false;
        }
        streams.remove(idlest.key);
        idlest.clear();
        return true;
    }

    // ---------------------------------------------------------------- time

    long nextDeadlineNanos() {
        long now = context.nowNanos();
        long next = links.nextDeadlineNanos();
        for (ReliableStream s : streams.values()) {
            next = Math.min(next, ReliableTimers.deadline(this, s, now));
        }
        return next;
    }

    void onTimer(long nowNanos) {
        links.onTimer(nowNanos);
        for (Iterator<ReliableStream> it = streams.values().iterator(); it.hasNext(); ) {
            ReliableStream s = it.next();
            if (!s.source && !s.delivering && nowNanos - s.lastHeardNanos > RELAY_IDLE_NANOS) {
                s.clear();
                it.remove();
                continue;
            }
            ReliableTimers.run(this, s, nowNanos, nackCapacity);
        }
    }

    /** The link channels' state, for diagnostics. */
    String describeLinks() {
        return links.describe();
    }

    void flush() {
        links.flush();
    }

    void onChannelAck(LinkView from, ByteBuf body, long nowNanos) {
        links.onAck(from, body, nowNanos);
    }

    List<ReliableStatistics> statistics(GroupId group) {
        List<ReliableStatistics> out = new ArrayList<>();
        for (ReliableStream s : streams.values()) {
            if (s.key.group().equals(group)) {
                String role = s.source ? "source" : s.delivering ? "member" : "relay";
                long next = s.source ? s.high : s.delivering ? s.next : s.contiguous();
                out.add(new ReliableStatistics(s.key.source(), s.key.port(), role, next,
                        s.source ? s.ackFloor : s.lastAckSent, (int) (s.high - s.low), s.received, s.duplicates,
                        s.deliveredMessages, s.gapsSeen, s.nacksSent, s.sequencesAsked, s.nacksReceived, s.sequencesAskedOfIt, s.nacksSuppressed,
                        s.repairsSent, s.squelches, s.membersDropped));
            }
        }
        return out;
    }

    void close() {
        links.close();
        streams.values().forEach(ReliableStream::clear);
        streams.clear();
        senders.clear();
    }
}
