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
import net.hopwise.overlay.link.LinkStatus;
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
 * on the node's thread, except the API's entry points.
 */
final class ReliableEngine {
    /**
     * Streams a node keeps at once (as source, relay or member): each holds a cache of {@code
     * cachePackets} references, so the bound keeps a node's memory fixed whatever flows through it.
     */
    static final int MAX_STREAMS = 256;
    /** A relay forgets a stream nothing of which arrived for a minute: it holds only repair copies. */
    static final long RELAY_IDLE_NANOS = 60_000_000_000L;

    private final ModuleContext context;
    private final MulticastStage stage;
    private final ReliableConfig config;
    private final NodeId self;
    private final SplittableRandom random;
    private final int chunk;
    private final int nackCapacity;
    private final ChannelReceivers receivers;
    private final Map<NodeId, LinkChannel> channels = new java.util.HashMap<>();
    private final Map<StreamKey, ReliableStream> streams = new ConcurrentHashMap<>();
    private final Map<StreamKey, ReliableSender> senders = new ConcurrentHashMap<>();
    private final DropCounter malformed;
    private final DropCounter offTree;
    private final DropCounter bufferFull;
    private final DropCounter linkGone;
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
        this.malformed = malformed;
        this.offTree = offTree;
        this.bufferFull = context.dropReason("multicast_reliable_buffer_full");
        this.linkGone = context.dropReason("multicast_reliable_link_gone");
        this.tooMany = context.dropReason("multicast_reliable_streams");
        this.receivers = new ChannelReceivers(context, malformed, ReliablePacket.HEADER, ReliablePacket.ACK,
                context.dropReason("multicast_reliable_duplicate"), context.dropReason("multicast_reliable_window"));
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
        return senders.computeIfAbsent(key, k -> new ReliableSender(this, k, policy));
    }

    void remove(ReliableSender sender) {
        senders.remove(sender.key, sender);
        sender.held = null;
    }

    void offer(ReliableSender sender, byte[] payload, int fragments) {
        if (sender.closed()) {
            return;
        }
        sender.held = payload;
        sender.heldFragments = fragments;
        tryEmit(sender, context.nowNanos());
    }

    private ReliableStream sourceStream(StreamKey key, long nowNanos) {
        ReliableStream s = streams.get(key);
        if (s == null) {
            s = new ReliableStream(key, true, config.cachePackets(), random.nextInt(), nowNanos);
            streams.put(key, s);
        }
        return s;
    }

    private void tryEmit(ReliableSender sender, long nowNanos) {
        if (sender.held == null) {
            return;
        }
        ReliableStream s = sourceStream(sender.key, nowNanos);
        int n = sender.heldFragments;
        if (sender.policy == SlowMemberPolicy.SLOW_GROUP && s.high + n - s.ackFloor > config.windowPackets()) {
            return; // the slowest member's acknowledgement moves the window and calls again
        }
        StreamKey key = sender.key;
        Set<NodeId> members = stage.memberNodes(key.group());
        if (!members.equals(s.horizonMembers)) {
            // A member node new to the stream starts here: after its join reached the source.
            s.horizon = s.high;
            s.horizonMembers = Set.copyOf(members);
        }
        List<LinkView> links = links(stage.treeAt(self, key.group(), key.metric()).children());
        byte[] payload = sender.held;
        long start = s.high;
        for (int f = 0; f < n; f++) {
            int from = f * chunk;
            int length = Math.min(chunk, payload.length - from);
            ByteBuf packet = new ReliablePacket(key, s.epoch, s.high, s.horizon, f, n)
                    .encodeHeader(context.allocator(), length);
            packet.writeBytes(payload, from, length);
            sendOn(links, packet.retain());
            s.append(packet, nowNanos);
            sender.packets.incrementAndGet();
            sender.bytes.addAndGet(packet.readableBytes());
        }
        if (stage.isMember(key.group())) {
            stage.deliver(self, key.group(), key.port(), start, payload);
            s.deliveredMessages++;
        }
        stage.countSent(key.group());
        if (nowNanos - s.lastSendNanos > config.heartbeatIntervalNanos()) {
            s.nextHeartbeatNanos = nowNanos + config.heartbeatIntervalNanos();
        }
        s.lastSendNanos = nowNanos;
        Runnable listener = sender.released();
        if (listener != null) {
            listener.run();
        }
    }

    // ---------------------------------------------------------------- data

    void onData(LinkView from, ByteBuf channelBody, long nowNanos) {
        ByteBuf body = receivers.accept(from, channelBody);
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
            s = new ReliableStream(key, false, config.cachePackets(), p.epoch(), nowNanos);
            streams.put(key, s);
        }
        if (!s.started || s.epoch != p.epoch()) {
            // A member node new to the stream starts at the source's horizon (its join); a relay at
            // what passes now, leaving older gaps to the children that need them.
            long start = member && p.horizon() <= p.sequence() ? Math.max(p.horizon(), p.sequence()
                    - config.cachePackets() + 1) : p.messageStart();
            s.restart(p.epoch(), start);
            s.delivering = member;
        } else if (member && !s.delivering) {
            s.delivering = true;
            s.next = p.sequence() == s.high ? p.messageStart() : s.high;
        } else if (!member && s.delivering) {
            s.delivering = false;
        }
        s.lastHeardNanos = nowNanos;
        long seq = p.sequence();
        Set<NodeId> waiting = s.takePending(seq);
        ByteBuf copy = context.allocator().buffer(body.readableBytes()).writeBytes(body, body.readerIndex(),
                body.readableBytes());
        ReliableStream.Insert result = s.insert(seq, copy.retain(), nowNanos, config.nackBackoffNanos(), random);
        if (result == ReliableStream.Insert.NEW) {
            s.received++;
            Set<NodeId> to = new HashSet<>(entry.children());
            to.addAll(waiting);
            to.remove(from.id());
            sendOn(links(new ArrayList<>(to)), copy);
            s.markSent(seq, nowNanos);
            if (s.takeOverrun()) {
                drop(s, "packets it lacked were pushed out of its " + config.cachePackets() + "-packet cache");
            }
        } else {
            s.duplicates++;
            // Children that asked for it through this node get it even when this node had it already.
            List<NodeId> to = new ArrayList<>(waiting);
            to.remove(from.id());
            sendOn(links(to), copy);
        }
        deliverReady(s);
    }

    private void deliverReady(ReliableStream s) {
        for (List<ByteBuf> parts : s.deliverable()) {
            int total = 0;
            for (ByteBuf b : parts) {
                total += b.readableBytes() - ReliablePacket.HEADER;
            }
            byte[] bytes = new byte[total];
            int at = 0;
            long start = -1;
            for (ByteBuf b : parts) {
                int length = b.readableBytes() - ReliablePacket.HEADER;
                b.getBytes(b.readerIndex() + ReliablePacket.HEADER, bytes, at, length);
                at += length;
                if (start < 0) {
                    start = ReliablePacket.decode(b).sequence();
                }
            }
            stage.deliver(s.key.source(), s.key.group(), s.key.port(), start, bytes);
            s.deliveredMessages++;
        }
    }

    /** The node cannot follow the stream any more: its local members of the group's port are told and leave. */
    private void drop(ReliableStream s, String reason) {
        s.delivering = false;
        s.membersDropped++;
        stage.dropMembers(new MemberDropped(s.key.group(), s.key.port(), s.key.source(), reason));
    }

    /** Sends a packet on each link's channel; takes {@code packet}. */
    private void sendOn(List<LinkView> links, ByteBuf packet) {
        long now = context.nowNanos();
        try {
            for (LinkView link : links) {
                if (!channel(link.id(), now).offer(packet.retainedDuplicate(), now)) {
                    bufferFull.increment();
                }
            }
        } finally {
            packet.release();
        }
    }

    private LinkChannel channel(NodeId neighbour, long nowNanos) {
        LinkChannel c = channels.get(neighbour);
        if (c == null) {
            c = new LinkChannel(random.nextInt(), config.linkBufferPackets(), context.allocator(),
                    body -> transmit(neighbour, body), nowNanos);
            channels.put(neighbour, c);
        }
        return c;
    }

    private boolean transmit(NodeId neighbour, ByteBuf body) {
        LinkView link = context.link(neighbour);
        if (link == null) {
            body.release();
            return false;
        }
        return context.send(link, ReliablePacket.DATA, body);
    }

    private List<LinkView> links(List<NodeId> ids) {
        List<LinkView> links = new ArrayList<>(ids.size());
        for (NodeId id : ids) {
            LinkView link = context.link(id);
            if (link != null && link.status() == LinkStatus.UP) {
                links.add(link);
            }
        }
        return links;
    }

    void onChannelAck(LinkView from, ByteBuf body, long nowNanos) {
        ChannelAck ack = ChannelAck.decode(body);
        if (ack == null) {
            malformed.increment();
            return;
        }
        LinkChannel c = channels.get(from.id());
        if (c != null) {
            c.onAck(ack, nowNanos);
        }
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

    /** A packet from this node's cache to one child, on its channel: a repair. */
    void repair(LinkView child, ByteBuf packet) {
        sendOn(List.of(child), packet.retainedDuplicate());
    }

    void sendControl(LinkView link, ReliableControl c) {
        if (link != null) {
            context.send(link, ReliableControl.TYPE, c.encode(context.allocator()));
        }
    }

    /** Sends a control packet's body on to this node's children on the stream's tree. */
    void toChildren(StreamKey key, ByteBuf body) {
        List<LinkView> links = links(stage.treeAt(key.source(), key.group(), key.metric()).children());
        if (!links.isEmpty()) {
            context.fanOut(links, ReliableControl.TYPE, body.retainedSlice());
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
            s = new ReliableStream(key, false, config.cachePackets(), epoch, nowNanos);
            streams.put(key, s);
        }
        s.restart(epoch, start);
        s.lastHeardNanos = nowNanos;
        return s;
    }

    void dropMember(ReliableStream s, String reason) {
        drop(s, reason);
    }

    /** An acknowledgement moved a source's window: its held message may go now. */
    void windowMoved(StreamKey key, long nowNanos) {
        ReliableSender sender = senders.get(key);
        if (sender != null) {
            tryEmit(sender, nowNanos);
        }
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
        long next = Long.MAX_VALUE;
        for (LinkChannel c : channels.values()) {
            next = Math.min(next, c.nextDeadlineNanos());
        }
        for (ReliableStream s : streams.values()) {
            next = Math.min(next, ReliableTimers.deadline(this, s, now));
        }
        return next;
    }

    void onTimer(long nowNanos) {
        for (Iterator<Map.Entry<NodeId, LinkChannel>> it = channels.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<NodeId, LinkChannel> e = it.next();
            LinkView link = context.link(e.getKey());
            LinkChannel c = e.getValue();
            if (link == null || link.status() != LinkStatus.UP || c.failed()) {
                // What it held is repaired end to end, from the nearest cache that has it.
                for (int i = c.buffered() + c.inFlight(); i > 0; i--) {
                    linkGone.increment();
                }
                c.close();
                it.remove();
                continue;
            }
            c.onTimer(nowNanos);
        }
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

    void flush() {
        receivers.flush();
    }

    List<ReliableStatistics> statistics(GroupId group) {
        List<ReliableStatistics> out = new ArrayList<>();
        for (ReliableStream s : streams.values()) {
            if (s.key.group().equals(group)) {
                String role = s.source ? "source" : s.delivering ? "member" : "relay";
                long next = s.source ? s.high : s.delivering ? s.next : s.contiguous();
                out.add(new ReliableStatistics(s.key.source(), s.key.port(), role, next,
                        s.source ? s.ackFloor : s.lastAckSent, (int) (s.high - s.low), s.received, s.duplicates,
                        s.deliveredMessages, s.gapsSeen, s.nacksSent, s.nacksReceived, s.nacksSuppressed,
                        s.repairsSent, s.squelches, s.membersDropped));
            }
        }
        return out;
    }

    void close() {
        channels.values().forEach(LinkChannel::close);
        channels.clear();
        streams.values().forEach(ReliableStream::clear);
        streams.clear();
        senders.clear();
    }
}
