package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;

/**
 * Cost-Benefit global flow control on one node (Danilov 2004, section 4.4): the output buffer and
 * channel of each outgoing link, their costs advertised every T_min while a link had a queue and every
 * T_max for all (unless all cost 0 and did since the last: {@link CostBenefitConfig#quietWhenIdle()}),
 * the costs every node advertised, and the local clients, whose packets it buys when
 * their budget affords the packet's tree and the 1/C_p draw lets it go. Only on the node's thread.
 * Just over 400 lines: the buffers, the advertisements and the clients share the link table and one
 * pump, and splitting them would hand that table across classes on every packet.
 */
final class FlowControl {
    private final ModuleContext context;
    private final MulticastStage stage;
    private final CostBenefitConfig config;
    private final NodeId self;
    private final SplittableRandom random;
    private final CostTable table;
    private final Map<NodeId, PricedLink> channels = new HashMap<>();
    private final Map<NodeId, Double> advertised = new HashMap<>();
    private final LinkMeters meters;
    private final List<FlowSender> senders = new CopyOnWriteArrayList<>();
    private final DropCounter bufferDrops;
    private final DropCounter linkGone;
    private final int updateCapacity;
    private final CostOutbox outbox;
    private volatile List<LinkBuffer> buffers = List.of();
    private int sequence;
    private long nextFastNanos;
    private long nextSlowNanos;
    /** Whether an update since the last T_max update advertised a cost above 0: the next T_max update then goes. */
    private boolean costSinceSlow;
    private boolean pumping;
    private boolean pumpAgain;
    private int rotation;
    /** Told of every cost update taken, however it arrived (alone, or riding on data or acks). */
    private Runnable costsChanged = () -> { };

    FlowControl(ModuleContext context, MulticastStage stage, ChannelReceivers receivers, CostBenefitConfig config) {
        this.context = context;
        this.stage = stage;
        this.config = config;
        this.self = context.self();
        // Seeded by the node, so a simulated run is the same each time.
        this.random = new SplittableRandom(self.value() ^ 0x436f737442656e65L);
        // Three slow intervals: an origin that missed three full updates is gone (crashed or cut off).
        this.table = new CostTable(3 * config.slowUpdateNanos());
        this.bufferDrops = context.dropReason("multicast_buffer_full");
        this.linkGone = context.dropReason("multicast_link_gone");
        this.meters = new LinkMeters(context);
        this.updateCapacity = CostUpdate.capacity(context.maxBody());
        this.outbox = new CostOutbox(config.fastUpdateNanos(), context.allocator(), this::sendAlone);
        receivers.riders(new ChannelReceivers.Riders() {
            @Override
            public boolean arrived(LinkView from, ByteBuf updates, long nowNanos) {
                return onCarried(from, updates, nowNanos);
            }

            @Override
            public ByteBuf take(NodeId to, int bodyBytes) {
                return outbox.take(to, context.maxBody() - bodyBytes - ChannelAck.CARRIED_HEADER, context.nowNanos());
            }
        });
        long now = context.nowNanos();
        this.sequence = (int) (now / 1_000_000L); // a restart usually counts on from above its last run
        this.nextFastNanos = now + config.fastUpdateNanos();
        this.nextSlowNanos = now;
    }

    CostBenefitConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- senders

    void add(FlowSender sender) {
        sender.budget = new ClientBudget(config, context.nowNanos(), new SplittableRandom(random.nextLong())::nextDouble);
        sender.publish();
        senders.add(sender);
    }

    void remove(FlowSender sender) {
        senders.remove(sender);
        if (sender.hasMessage()) {
            sender.release();
        }
    }

    /**
     * A client handed a message: it is the client's held message. The thesis also ends a hold when
     * "another packet arrives in the sending queue"; the queue is the client's own, which takes no
     * packet while one is held, so a hold ends on a cost update or its timeout.
     */
    void offer(FlowSender sender, byte[] payload, int fragments) {
        if (sender.closed() || !senders.contains(sender)) {
            sender.release();
            return;
        }
        sender.take(payload, fragments);
        pump(context.nowNanos());
    }

    private void releaseHolds() {
        for (FlowSender s : senders) {
            s.holdUntilNanos = 0;
        }
    }

    /** Buys what each client can afford now; re-entrant calls (a listener sending) run after this pass. */
    void pump(long nowNanos) {
        if (pumping) {
            pumpAgain = true;
            return;
        }
        List<Runnable> writable = new ArrayList<>();
        pumping = true;
        try {
            do {
                pumpAgain = false;
                int n = senders.size();
                // A different first client each pass, so that none is always first to the links.
                rotation = n == 0 ? 0 : (rotation + 1) % n;
                for (int i = 0; i < n; i++) {
                    serve(senders.get((rotation + i) % n), nowNanos, writable);
                }
            } while (pumpAgain);
        } finally {
            pumping = false;
        }
        for (Runnable r : writable) {
            r.run();
        }
    }

    private void serve(FlowSender s, long nowNanos, List<Runnable> writable) {
        s.budget.paySalaries(nowNanos);
        while (s.hasMessage() && nowNanos >= s.holdUntilNanos) {
            double cost = config.fee() + treeCost(s);
            // A draw at each attempt: a held packet draws again when its hold ends (see ClientBudget.offer).
            ClientBudget.Decision d = s.budget.offer(cost, random.nextDouble());
            if (d == ClientBudget.Decision.HOLD) {
                s.holdUntilNanos = nowNanos + config.holdTimeoutNanos();
                break;
            }
            if (d == ClientBudget.Decision.BLOCKED) {
                break;
            }
            int bytes = stage.emitFragment(s);
            if (s.bought(cost, bytes)) {
                Runnable listener = s.release();
                if (listener != null) {
                    writable.add(listener);
                }
            }
        }
        s.publish();
    }

    /** The sum of the advertised costs of the links of the client's tree: C_p without the fee (Eq 4.8). */
    private double treeCost(FlowSender s) {
        double sum = 0;
        for (NodeId[] link : stage.treeLinks(s.group(), s.metric())) {
            sum += table.cost(link[0], link[1]);
        }
        return sum;
    }

    // ---------------------------------------------------------------- links

    /** Queues a group datagram on each link's channel; takes ownership of {@code body}. */
    int send(List<LinkView> links, ByteBuf body) {
        int queued = 0;
        long now = context.nowNanos();
        try {
            for (LinkView link : links) {
                if (channel(link.id(), now).offer(body.retainedDuplicate(), now)) {
                    queued++;
                } else {
                    bufferDrops.increment();
                }
            }
        } finally {
            body.release();
        }
        return queued;
    }

    private PricedLink channel(NodeId neighbour, long nowNanos) {
        PricedLink c = channels.get(neighbour);
        if (c == null) {
            LinkChannel lc = LinkChannel.lossDriven(random.nextInt(), config.hardBufferPackets(), context.allocator(),
                    body -> transmit(neighbour, body), nowNanos);
            lc.carry(bodyBytes -> outbox.take(neighbour,
                    context.maxBody() - ChannelAck.DATA_HEADER - ChannelAck.CARRIED_HEADER - bodyBytes, context.nowNanos()));
            c = new PricedLink(lc, config.hardBufferPackets(), config.linkWindowPackets(), () -> reliableQueued(neighbour),
                    nowNanos);
            channels.put(neighbour, c);
            meters.register(neighbour);
        }
        return c;
    }

    /**
     * Packets held unsent for {@code neighbour} outside the priced buffer: the node's reliable link
     * channel (unicast sessions) and reliable multicast's channel. A link congested by them is priced.
     */
    private int reliableQueued(NodeId neighbour) {
        LinkView link = context.link(neighbour);
        return (link == null ? 0 : link.flow().queued()) + stage.reliableQueued(neighbour);
    }

    private boolean transmit(NodeId neighbour, ByteBuf body) {
        LinkView link = context.link(neighbour);
        if (link == null) {
            body.release();
            return false;
        }
        return context.send(link, ChannelAck.DATA, body);
    }

    /** An acknowledgement or a cost update; false when it is malformed. */
    boolean onControl(Frame frame, int type) {
        if (type == ChannelAck.TYPE) {
            ChannelAck ack = ChannelAck.decode(frame.body());
            if (ack == null) {
                return false;
            }
            onAck(frame.link(), ack, frame.nowNanos());
            return onCarried(frame.link(), ChannelAck.carried(frame.body()), frame.nowNanos());
        }
        CostUpdate update = CostUpdate.decode(frame.body());
        if (update != null) {
            onCostUpdate(frame.link(), update, frame.nowNanos());
        }
        return update != null;
    }

    /** Cost updates that rode on a channel packet; false (a malformed lot, dropped whole) for the caller to count. */
    private boolean onCarried(LinkView from, ByteBuf updates, long nowNanos) {
        if (!updates.isReadable()) {
            return true;
        }
        List<CostUpdate> all = CostUpdate.decodeAll(updates);
        if (all == null) {
            return false;
        }
        for (CostUpdate u : all) {
            onCostUpdate(from, u, nowNanos);
        }
        return true;
    }

    private void sendAlone(NodeId neighbour, CostUpdate update) {
        LinkView link = context.link(neighbour);
        if (link != null && link.status() == LinkStatus.UP) {
            context.send(link, CostUpdate.TYPE, update.encode(context.allocator()));
        }
    }

    void onAck(LinkView from, ChannelAck ack, long nowNanos) {
        PricedLink c = channels.get(from.id());
        if (c != null) {
            c.onAck(ack, nowNanos);
        }
    }

    // ---------------------------------------------------------------- costs

    void onCostUpdate(LinkView from, CostUpdate update, long nowNanos) {
        if (update.origin().equals(self) || !table.accept(update, nowNanos)) {
            return;
        }
        for (LinkView l : context.links()) {
            if (!l.id().equals(from.id()) && !l.id().equals(update.origin()) && l.status() == LinkStatus.UP) {
                outbox.queue(l.id(), update, nowNanos);
            }
        }
        releaseHolds();
        costsChanged.run();
        pump(nowNanos);
    }

    /** Runs {@code listener} whenever a cost update is taken, as it ends the holds of this node's clients. */
    void onCostsChanged(Runnable listener) {
        this.costsChanged = listener;
    }

    private void advertise(long nowNanos) {
        boolean slow = nowNanos >= nextSlowNanos;
        if (slow) {
            nextSlowNanos = nowNanos + config.slowUpdateNanos();
        }
        List<CostUpdate.Link> links = new ArrayList<>();
        List<LinkBuffer> snapshot = new ArrayList<>();
        // A link that carries only reliable traffic (sessions, reliable multicast) is priced by its queue all the same.
        for (LinkView l : context.links()) {
            if (l.status() == LinkStatus.UP && !channels.containsKey(l.id()) && reliableQueued(l.id()) > 0) {
                channel(l.id(), nowNanos);
            }
        }
        for (Iterator<Map.Entry<NodeId, PricedLink>> it = channels.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<NodeId, PricedLink> e = it.next();
            LinkView link = context.link(e.getKey());
            PricedLink c = e.getValue();
            if (link == null || link.status() != LinkStatus.UP || c.failed()) {
                for (int i = c.holding(); i > 0; i--) {
                    linkGone.increment();
                }
                c.close();
                it.remove();
                outbox.forget(e.getKey());
                meters.unregister(e.getKey());
                continue;
            }
            boolean hadQueue = c.hadQueue();
            double average = c.takeAverage(nowNanos);
            double cost = config.linkCost(average);
            double before = advertised.getOrDefault(e.getKey(), 0.0);
            // A link that had a queue, or whose last advertised cost is still above zero, goes fast.
            if (hadQueue || before > 0 || slow) {
                links.add(new CostUpdate.Link(e.getKey(), (float) cost));
                advertised.put(e.getKey(), cost);
            }
            meters.set(e.getKey(), cost, average);
            snapshot.add(new LinkBuffer(e.getKey(), average, c.takePeak(), cost, c.inFlight(), c.window(),
                    c.dropped(), c.resent(), outbox.carriedBytes(e.getKey()), outbox.standalone(e.getKey())));
        }
        if (slow) {
            for (LinkView l : context.links()) {
                if (!channels.containsKey(l.id()) && l.status() == LinkStatus.UP) {
                    links.add(new CostUpdate.Link(l.id(), 0f));
                    advertised.remove(l.id());
                }
            }
        }
        buffers = List.copyOf(snapshot);
        table.expire(nowNanos);
        boolean costly = false;
        for (CostUpdate.Link l : links) {
            costly |= l.cost() > 0;
        }
        if (slow) {
            // Every receiver holds 0 for each of these links already (see CostBenefitConfig.DEFAULT_QUIET_WHEN_IDLE).
            boolean quiet = config.quietWhenIdle() && !costly && !costSinceSlow;
            costSinceSlow = costly;
            if (quiet) {
                return;
            }
        } else {
            costSinceSlow |= costly;
        }
        for (int from = 0; from < links.size(); from += Math.max(1, updateCapacity)) {
            List<CostUpdate.Link> part = links.subList(from, Math.min(links.size(), from + updateCapacity));
            CostUpdate update = new CostUpdate(self, ++sequence, List.copyOf(part));
            table.accept(update, nowNanos);
            for (LinkView l : context.links()) {
                if (l.status() == LinkStatus.UP) {
                    outbox.queue(l.id(), update, nowNanos);
                }
            }
        }
    }

    // ---------------------------------------------------------------- time

    long nextDeadlineNanos() {
        long next = Math.min(nextFastNanos, outbox.nextDeadlineNanos());
        for (PricedLink c : channels.values()) {
            next = Math.min(next, c.nextDeadlineNanos());
        }
        for (FlowSender s : senders) {
            if (s.hasMessage()) {
                next = Math.min(next, s.budget.blocked() ? s.budget.nextSalaryNanos()
                        : Math.min(s.holdUntilNanos, s.budget.nextSalaryNanos()));
            }
        }
        return next;
    }

    void onTimer(long nowNanos) {
        for (PricedLink c : channels.values()) {
            c.onTimer(nowNanos);
        }
        if (nowNanos >= nextFastNanos) {
            // On the fixed grid, so that a late timer does not stretch the periods.
            while (nextFastNanos <= nowNanos) {
                nextFastNanos += config.fastUpdateNanos();
            }
            advertise(nowNanos);
            releaseHolds();
        }
        pump(nowNanos);
        // After the pass: what it sent carried what it could.
        outbox.onTimer(nowNanos);
    }

    /** Link costs this node knows, by origin then neighbour: for operators and tests. */
    Map<NodeId, Map<NodeId, Double>> costs() {
        return table.snapshot();
    }

    List<LinkBuffer> buffers() {
        return buffers;
    }

    void close() {
        channels.values().forEach(PricedLink::close);
        new ArrayList<>(channels.keySet()).forEach(meters::unregister);
        channels.clear();
        for (FlowSender s : senders) {
            if (s.hasMessage()) {
                s.release();
            }
        }
    }
}
