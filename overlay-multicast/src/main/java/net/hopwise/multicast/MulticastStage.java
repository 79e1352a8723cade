package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.Stage;

/**
 * The multicast module on one node: its API ({@link Multicast}, from any thread) and its stage (on
 * the node's thread), which originates, relays and delivers group datagrams along the cached trees
 * (membership is {@link MembershipPlane}'s, flow control {@link FlowControl}'s, reliable streams
 * {@link ReliableEngine}'s). Over 400 lines: the API and the data path share the checks and the
 * fragmenting of a message, splitting them would put one half behind accessors of the other, and the
 * reliable service's entry points and accessors (about 50 lines) are what it hands the engine.
 */
final class MulticastStage implements Stage, Multicast {
    private final ModuleContext context;
    private final NodeId self;
    private final int maxMessageBytes;
    private final int chunk;
    private final int hopLimit;
    private final MembershipPlane membership;
    private final MembershipView view;
    /** The view's member sets, which the tree cache asks for only when it computes an entry. */
    private final java.util.function.Function<GroupId, Set<NodeId>> membersOf;
    private final LocalMembers local;
    /** Set once at install, before the node runs; read from applications' threads. */
    private volatile net.hopwise.multicast.layered.LayeredMulticast layered;
    private final GroupTrees trees;
    private final Reassembly reassembly;
    private final GroupCounters counters = new GroupCounters();
    private final DropCounter malformed;
    private final DropCounter offTree;
    private final DropCounter hopLimitDrops;
    private final DropCounter unsent;
    private final DropCounter handlerError;
    private final DropCounter flowControlOff;
    /** Null without Cost-Benefit flow control. */
    private final FlowControl flow;
    /** Null unless the node's unicast sessions are under Cost-Benefit too. */
    private final UnicastCostBenefit unicast;
    private final ChannelReceivers receivers;
    private final ReliableEngine reliable;
    private final ConcurrentHashMap<GroupTrees.Key, FlowSender> defaultSenders = new ConcurrentHashMap<>();
    /** Best-effort sends on their way to the node's thread, without flow control (with it, each sender holds one). */
    private final SendBound handOver;
    /** Senders without flow control, woken when a full hand-over has room again. */
    private final java.util.concurrent.CopyOnWriteArrayList<FlowSender> plainSenders =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Only on the node's thread; the wire carries 32 bits. */
    private long nextMessageId = 1;
    private volatile boolean closed;
    /** The real-time service installed beside this stage, which the API's real-time methods reach. */
    volatile RealTimeMulticast realTime;

    MulticastStage(ModuleContext context, MulticastModule settings) {
        this.context = context;
        this.self = context.self();
        this.maxMessageBytes = settings.maxMessageBytes();
        // Under flow control every datagram rides a link channel, whose header comes off the room.
        this.chunk = context.maxBody() - MulticastPacket.HEADER
                - (settings.costBenefit() != null ? ChannelAck.DATA_HEADER : 0);
        if (chunk <= 0) {
            throw new IllegalArgumentException("a module body of " + context.maxBody()
                    + " bytes leaves no room after the multicast header of " + MulticastPacket.HEADER);
        }
        this.hopLimit = Math.min(255, context.config().hopLimit());
        // The node's own bound on messages handed over and not yet sent, for the same reason.
        this.handOver = new SendBound(context.config().sendQueueLimit());
        this.trees = new GroupTrees(self, context.routes());
        this.membership = new MembershipPlane(context, trees, () -> closed);
        this.view = membership.view();
        this.membersOf = view::members;
        this.local = membership.local();
        malformed = context.dropReason("multicast_malformed");
        offTree = context.dropReason("multicast_off_tree");
        hopLimitDrops = context.dropReason("multicast_hop_limit");
        unsent = context.dropReason("multicast_unsent");
        handlerError = context.dropReason("multicast_handler_error");
        flowControlOff = context.dropReason("multicast_flow_control_off");
        reassembly = new Reassembly(settings.maxReassemblies(), maxMessageBytes, settings.reassemblyTimeout().toNanos(),
                context.dropReason("multicast_incomplete"), malformed);
        this.receivers = new ChannelReceivers(context, malformed);
        this.flow = settings.costBenefit() == null ? null : new FlowControl(context, this, receivers, settings.costBenefit());
        this.reliable = new ReliableEngine(context, this, settings.reliable(), malformed, offTree);
        this.unicast = flow != null && settings.unicastCostBenefit() ? new UnicastCostBenefit(context, flow) : null;
        if (unicast != null) {
            flow.onCostsChanged(unicast::costsChanged);
            context.admitSessions(unicast);
        }
        // Every event of the node's (links, neighbours, routes) may move a tree: forget them all.
        context.addListener(event -> trees.forgetAll());
    }

    // ---------------------------------------------------------------- the API, from any thread

    @Override
    public Membership join(String group, int port, MessageHandler handler) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        Objects.requireNonNull(handler, "handler");
        if (closed) {
            throw new IllegalStateException("the node is stopped");
        }
        LocalMember member = new LocalMember(id, group, port, handler, this);
        membership.join(member);
        return member;
    }

    void leave(LocalMember member) {
        membership.leave(member);
    }

    @Override
    public SendResult send(String group, int port, byte[] payload) {
        return send(group, port, null, payload);
    }

    @Override
    public SendResult send(String group, int port, RoutingMetric metric, byte[] payload) {
        Objects.requireNonNull(payload, "payload");
        GroupId id;
        try {
            id = GroupId.ofName(group);
            requirePort(port);
        } catch (IllegalArgumentException | NullPointerException e) {
            return SendResult.refused(SendResult.Status.INVALID, e.getMessage());
        }
        SendResult refused = checkSize(payload);
        if (refused != null) {
            return refused;
        }
        RoutingMetric m = metric != null ? metric : context.config().defaultMetric();
        if (flow != null) {
            // Flow control buys packets per client: plain sends share one client per group, port and metric.
            return defaultSenders.computeIfAbsent(new GroupTrees.Key(null, id, m), k -> (FlowSender) sender(group, port, m))
                    .send(payload);
        }
        int fragments = fragmentsOf(payload.length);
        if (!handOver.take()) {
            return SendResult.refused(SendResult.Status.BLOCKED, "the node has " + handOver.queued()
                    + " best-effort messages still to send: send again when the sender is writable");
        }
        byte[] bytes = payload.clone(); // the caller may reuse its array once send returns
        try {
            context.execute(() -> {
                boolean wake = handOver.sent();
                originate(id, port, m, bytes, fragments);
                if (wake) {
                    wakePlainSenders();
                }
            });
        } catch (RejectedExecutionException e) {
            handOver.giveBack();
            return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
        }
        counters.of(id).sent.incrementAndGet();
        return SendResult.accepted(fragments);
    }

    @Override
    public GroupSender sender(String group, int port) {
        return sender(group, port, null);
    }

    @Override
    public GroupSender sender(String group, int port, RoutingMetric metric) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        if (closed) {
            throw new IllegalStateException("the node is stopped");
        }
        RoutingMetric m = metric != null ? metric : context.config().defaultMetric();
        FlowSender sender = new FlowSender(this, flow, id, group, port, m);
        if (flow == null) {
            plainSenders.add(sender);
        } else {
            try {
                context.execute(() -> flow.add(sender));
            } catch (RejectedExecutionException e) {
                throw new IllegalStateException("the node is stopped", e);
            }
        }
        return sender;
    }

    @Override
    public GroupSender reliableSender(String group, int port, RoutingMetric metric, SlowMemberPolicy policy) {
        GroupId id = GroupId.ofName(group);
        requirePort(port);
        Objects.requireNonNull(policy, "policy");
        if (closed) {
            throw new IllegalStateException("the node is stopped");
        }
        return reliable.sender(id, port, metric != null ? metric : context.config().defaultMetric(), policy);
    }

    @Override
    public RealTimeGroupSender realTimeSender(String group, int port, RoutingMetric metric,
            java.time.Duration deadline) {
        RealTimeMulticast service = realTime;
        if (service == null) {
            throw new IllegalStateException("real-time multicast is not installed on this node");
        }
        return service.sender(group, port, metric, deadline);
    }

    @Override
    public List<RealTimeMemberStatistics> realTimeStatistics(String group) {
        RealTimeMulticast service = realTime;
        return service == null ? List.of() : service.statistics(GroupId.ofName(group));
    }

    @Override
    public java.util.concurrent.CompletableFuture<List<TreeLink>> tree(String group, NodeId source,
            RoutingMetric metric) {
        GroupId id = GroupId.ofName(group);
        RoutingMetric m = metric != null ? metric : context.config().defaultMetric();
        java.util.concurrent.CompletableFuture<List<TreeLink>> f = new java.util.concurrent.CompletableFuture<>();
        // The routes' trees are the node thread's state; forwarding prunes them the same way.
        context.execute(() -> f.complete(GroupTrees.pairs(context.routes().tree(source, m), source, view.members(id))
                .stream().map(l -> new TreeLink(l[0], l[1])).toList()));
        return f;
    }

    @Override
    public List<ReliableStatistics> reliableStatistics(String group) {
        return reliable.statistics(GroupId.ofName(group));
    }

    @Override
    public Map<NodeId, Map<NodeId, Double>> linkCosts() {
        return flow == null ? Map.of() : flow.costs();
    }

    @Override
    public List<UnicastClientStatistics> unicastClients() {
        return unicast == null ? List.of() : unicast.statistics();
    }

    @Override
    public List<LinkBuffer> linkBuffers() {
        return flow == null ? List.of() : flow.buffers();
    }

    /** Whether a best-effort send without flow control would be taken now. */
    boolean plainWritable() {
        return handOver.writable();
    }

    void forget(FlowSender sender) {
        plainSenders.remove(sender);
    }

    private void wakePlainSenders() {
        for (FlowSender s : plainSenders) {
            Runnable r = s.listener();
            if (r != null) {
                r.run();
            }
        }
    }

    /** The refusal a payload of this size gets, or null when it may go. */
    SendResult checkSize(byte[] payload) {
        if (payload.length > maxMessageBytes) {
            return SendResult.refused(SendResult.Status.TOO_LARGE, payload.length + " bytes exceed maxMessageBytes "
                    + maxMessageBytes);
        }
        if (fragmentsOf(payload.length) > 0xFFFF) {
            return SendResult.refused(SendResult.Status.TOO_LARGE, payload.length + " bytes need more than 65535"
                    + " fragments of " + chunk + " bytes");
        }
        if (closed) {
            return SendResult.refused(SendResult.Status.STOPPED, "the node is stopped");
        }
        return null;
    }

    /** Reliable multicast packets queued for {@code neighbour}, which Cost-Benefit prices with the link. */
    int reliableQueued(NodeId neighbour) {
        return reliable.queued(neighbour);
    }

    int fragmentsOf(int length) {
        return Math.max(1, (length + chunk - 1) / chunk);
    }

    boolean isMember(GroupId group) {
        return local.has(group);
    }

    Set<NodeId> memberNodes(GroupId group) {
        return view.members(group);
    }

    /** A reliable stream this node cannot follow: its local members of the group's port hear it and leave. */
    void dropMembers(MemberDropped event) {
        local.drop(event, handlerError);
    }

    void countSent(GroupId group) {
        counters.of(group).sent.incrementAndGet();
    }

    ModuleContext context() {
        return context;
    }

    @Override
    public GroupStatistics statistics(String group) {
        GroupId id = GroupId.ofName(group);
        GroupCounters.Counts c = counters.peek(id);
        return new GroupStatistics(id, c.sent.get(), c.sentFragments.get(), c.delivered.get(), c.forwarded.get(),
                local.of(id).size(), view.members(id).size());
    }

    @Override
    public Set<NodeId> memberNodes(String group) {
        return view.members(GroupId.ofName(group));
    }

    void layered(net.hopwise.multicast.layered.LayeredMulticast service) {
        this.layered = service;
    }

    @Override
    public net.hopwise.multicast.layered.LayeredMulticast layered() {
        return layered;
    }

    @Override
    public Map<GroupId, Set<NodeId>> view() {
        return view.snapshot();
    }

    private static void requirePort(int port) {
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("port must be 0-" + MAX_PORT + ", got " + port);
        }
    }

    // ---------------------------------------------------------------- datagrams

    private void originate(GroupId group, int port, RoutingMetric metric, byte[] payload, int fragments) {
        if (closed) {
            return;
        }
        long id = nextMessageId;
        nextMessageId = (nextMessageId + 1) & 0xFFFF_FFFFL;
        GroupTrees.Entry entry = trees.entry(self, group, metric, membersOf);
        List<LinkView> links = links(entry.children());
        for (int f = 0; f < fragments && !links.isEmpty(); f++) {
            emit(links, group, port, metric, id, payload, f, fragments);
        }
        if (local.has(group)) {
            deliver(self, group, port, id, payload);
        }
    }

    /** Sends one fragment of a message to the tree's children; returns the body's length. */
    private int emit(List<LinkView> links, GroupId group, int port, RoutingMetric metric, long id, byte[] payload,
            int f, int fragments) {
        int from = f * chunk;
        int length = Math.min(chunk, payload.length - from);
        MulticastPacket p = new MulticastPacket(metric, hopLimit, self, group, id, port, f, fragments);
        ByteBuf body = p.encodeHeader(context.allocator(), length);
        body.writeBytes(payload, from, length);
        int sent = out(links, body);
        counters.of(group).sentFragments.addAndGet(sent);
        if (sent < links.size()) {
            unsent.increment();
        }
        return MulticastPacket.HEADER + length;
    }

    /** Sends a datagram on links: straight out, or into their flow-controlled channels. Takes {@code body}. */
    private int out(List<LinkView> links, ByteBuf body) {
        return flow != null ? flow.send(links, body) : context.fanOut(links, MulticastPacket.DATA, body);
    }

    /** A client's next fragment, bought by flow control: sent now; the message is delivered here after its last. */
    int emitFragment(FlowSender s) {
        if (s.nextFragment == 0) {
            s.messageId = nextMessageId;
            nextMessageId = (nextMessageId + 1) & 0xFFFF_FFFFL;
        }
        GroupTrees.Entry entry = trees.entry(self, s.group(), s.metric(), membersOf);
        List<LinkView> links = links(entry.children());
        int bytes = links.isEmpty() ? 0 : emit(links, s.group(), s.port(), s.metric(), s.messageId, s.payload,
                s.nextFragment, s.fragments);
        if (s.nextFragment == s.fragments - 1 && local.has(s.group())) {
            deliver(self, s.group(), s.port(), s.messageId, s.payload);
        }
        return bytes;
    }

    /** The links of this node's tree for a group, pruned to its members, as (from, to) pairs. */
    List<NodeId[]> treeLinks(GroupId group, RoutingMetric metric) {
        return trees.links(self, group, metric, view.members(group));
    }

    private List<LinkView> links(List<NodeId> children) {
        List<LinkView> links = new ArrayList<>(children.size());
        for (NodeId child : children) {
            LinkView link = context.link(child);
            if (link != null) {
                links.add(link);
            }
        }
        return links;
    }

    /** Only its own packet type: every other frame skips this stage. */
    @Override
    public boolean takes(int type) {
        return type == MulticastPacket.DATA || type == ChannelAck.DATA || type == ChannelAck.TYPE
                || type == CostUpdate.TYPE || type == ReliablePacket.DATA || type == ReliablePacket.ACK
                || type == ReliableControl.TYPE;
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        int type = frame.type();
        if (type == MulticastPacket.DATA) {
            onData(frame.link(), frame.body(), frame.nowNanos());
        } else if (type == ChannelAck.DATA) {
            ByteBuf body = receivers.accept(frame.link(), frame.body());
            if (body != null) {
                onData(frame.link(), body, frame.nowNanos());
            }
        } else if (type == ChannelAck.TYPE || type == CostUpdate.TYPE) {
            onControl(frame, type);
        } else if (type == ReliablePacket.DATA) {
            reliable.onData(frame.link(), frame.body(), frame.nowNanos());
        } else if (type == ReliablePacket.ACK) {
            reliable.onChannelAck(frame.link(), frame.body(), frame.nowNanos());
        } else if (type == ReliableControl.TYPE) {
            reliable.onControl(frame);
        } else {
            next.accept(frame);
        }
    }

    private void onControl(Frame frame, int type) {
        if (flow == null) {
            flowControlOff.increment();
        } else if (!flow.onControl(frame, type)) {
            malformed.increment();
        }
    }

    private void onData(LinkView from, ByteBuf body, long nowNanos) {
        MulticastPacket p = MulticastPacket.decode(body);
        if (p == null) {
            malformed.increment();
            return;
        }
        GroupTrees.Entry entry = p.source().equals(self) ? null
                : trees.entry(p.source(), p.group(), p.metric(), membersOf);
        // Only from the parent on this node's tree: a datagram from elsewhere is a transient
        // disagreement of views, and taking it could loop or duplicate.
        if (entry == null || !entry.onTree() || !from.id().equals(entry.parent())) {
            offTree.increment();
            return;
        }
        int start = body.readerIndex() + MulticastPacket.HEADER;
        int length = body.readableBytes() - MulticastPacket.HEADER;
        if (!entry.children().isEmpty()) {
            forward(p, entry.children(), body, start, length);
        }
        if (local.has(p.group())) {
            ByteBuf fragment = body.slice(start, length);
            byte[] whole;
            if (p.fragments() == 1) {
                whole = new byte[length];
                fragment.getBytes(fragment.readerIndex(), whole);
            } else {
                whole = reassembly.add(p, fragment, nowNanos);
            }
            if (whole != null) {
                deliver(p.source(), p.group(), p.port(), p.messageId(), whole);
            }
        }
    }

    private void forward(MulticastPacket p, List<NodeId> children, ByteBuf body, int start, int length) {
        if (p.hopLimit() <= 1) {
            hopLimitDrops.increment();
            return;
        }
        List<LinkView> links = links(children);
        if (links.isEmpty()) {
            return;
        }
        // A new header before a view of the received fragment: the fragment's bytes are not copied.
        CompositeByteBuf out = context.allocator().compositeBuffer(2);
        out.addComponents(true, p.withHopLimit(p.hopLimit() - 1).encodeHeader(context.allocator(), 0),
                body.retainedSlice(start, length));
        int sent = out(links, out);
        counters.of(p.group()).forwarded.addAndGet(sent);
        if (sent < links.size()) {
            unsent.increment();
        }
    }

    void deliver(NodeId source, GroupId group, int port, long messageId, byte[] payload) {
        String sourceName = context.routes().nameOf(source);
        boolean first = true;
        for (LocalMember m : local.of(group)) {
            if (m.port() != port || m.left()) {
                continue;
            }
            // Each member owns its bytes: the first gets the array, the others copies.
            byte[] bytes = first ? payload : payload.clone();
            first = false;
            try {
                m.handler().onMessage(new MulticastMessage(source, sourceName, group, port, messageId, bytes));
                counters.of(group).delivered.incrementAndGet();
            } catch (RuntimeException e) {
                handlerError.increment();
            }
        }
    }

    /**
     * Delivers a message the node holds in buffers (the caller's, valid during the call): a {@link
     * BufferHandler} gets a read-only view of them, any other handler an array of its own, copied once.
     */
    void deliver(NodeId source, GroupId group, int port, long messageId, ByteBuf payload) {
        String sourceName = null;
        for (LocalMember m : local.of(group)) {
            if (m.port() != port || m.left()) {
                continue;
            }
            if (sourceName == null) {
                sourceName = context.routes().nameOf(source);
            }
            try {
                if (m.handler() instanceof BufferHandler b) {
                    // Read-only: the same bytes are the repair cache that children's repairs come from.
                    b.onBuffer(new MulticastBuffer(source, sourceName, group, port, messageId, payload.asReadOnly()));
                } else {
                    byte[] bytes = new byte[payload.readableBytes()];
                    payload.getBytes(payload.readerIndex(), bytes);
                    m.handler().onMessage(new MulticastMessage(source, sourceName, group, port, messageId, bytes));
                }
                counters.of(group).delivered.incrementAndGet();
            } catch (RuntimeException e) {
                handlerError.increment();
            }
        }
    }

    @Override
    public long nextDeadlineNanos() {
        long next = Math.min(reassembly.nextDeadlineNanos(), reliable.nextDeadlineNanos());
        next = unicast == null ? next : Math.min(next, unicast.nextDeadlineNanos());
        return flow == null ? next : Math.min(next, flow.nextDeadlineNanos());
    }

    @Override
    public void onTimer(long nowNanos) {
        reassembly.expire(nowNanos);
        reliable.onTimer(nowNanos);
        if (flow != null) {
            flow.onTimer(nowNanos);
        }
        if (unicast != null) {
            unicast.onTimer(nowNanos);
        }
    }

    /** The acknowledgements the batch owes go with its end. */
    @Override
    public void flush(long nowNanos) {
        receivers.flush();
        reliable.flush();
    }

    @Override
    public void close() {
        closed = true;
        reassembly.clear();
        reliable.close();
        if (unicast != null) {
            unicast.close();
        }
        if (flow != null) {
            flow.close();
        }
    }

    /** Cached tree entries, for tests and operators. */
    int cachedTrees() {
        return trees.size();
    }

    /** This node's place on a source's tree for a group, as forwarding uses it (cached as it would be). */
    GroupTrees.Entry treeAt(NodeId source, GroupId group, RoutingMetric metric) {
        return trees.entry(source, group, metric, membersOf);
    }
}
