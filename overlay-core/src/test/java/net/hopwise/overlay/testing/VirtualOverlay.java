package net.hopwise.overlay.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.node.NodeOutput;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Many {@link NodeStack}s joined by virtual links on a virtual clock: the production node machine
 * with no sockets, threads or sleeping. Links have a one-way delay and optional seeded loss,
 * duplication and reordering (a packet held back by an extra random delay); a node can be crashed
 * (its packets vanish) and revived (a fresh engine, as after a restart).
 *
 * <p>A member can also be external: no engine, its datagrams made by the test ({@link #inject}) and
 * those sent to it handed to the test, as a neighbour running other code (or none) would be.
 */
public final class VirtualOverlay implements AutoCloseable {
    private final PriorityQueue<Delivery> queue = new PriorityQueue<>();
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<InetSocketAddress, String> byAddress = new HashMap<>();
    private final Map<String, LinkSpec> links = new HashMap<>();
    private final List<NodeEvent> events = new ArrayList<>();
    /** Datagrams put on each directed link, by "from|to|packet type". */
    private final Map<String, Long> sentByType = new HashMap<>();
    private final SplittableRandom random;
    private final Consumer<NodeConfig.Builder> customise;
    private DatagramFailure datagramFailures;
    private long now = 1_000_000_000L;
    private boolean writable = true;
    private long order;
    private int nextPort = 10_000;

    public VirtualOverlay(long seed, Consumer<NodeConfig.Builder> customise) {
        this.random = new SplittableRandom(seed);
        this.customise = customise;
    }

    public VirtualOverlay(long seed) {
        this(seed, b -> {});
    }

    /** Makes every node's socket report itself full (or not), as a saturated kernel buffer would. */
    public void writable(boolean writable) {
        this.writable = writable;
    }

    public long now() {
        return now;
    }

    public List<NodeEvent> events() {
        return events;
    }

    /** Datagrams of {@code type} that {@code from} has put on its link to {@code to} (lost ones too). */
    public long datagrams(String from, String to, PacketType type) {
        return sentByType.getOrDefault(from + "|" + to + "|" + type.code(), 0L);
    }

    /** What an external member gets: a datagram it must not keep (the overlay releases it afterwards). */
    @FunctionalInterface
    public interface ExternalReceiver {
        void onDatagram(String from, ByteBuf datagram, long nowNanos);
    }

    /**
     * Declares a member without an engine: its links are configured on its neighbours like any
     * other, what they send it goes to {@code receiver}, and what it sends the test puts in with
     * {@link #inject}.
     */
    public void external(String name, ExternalReceiver receiver) {
        node(name);
        Member m = members.get(name);
        m.external = receiver;
        m.alive = true;
    }

    /**
     * Puts a datagram on the link from {@code from} to {@code to} as if {@code from} had sent it: it
     * arrives after the link's delay (loss, duplication and reordering are not applied). Takes
     * ownership of {@code datagram}.
     */
    public void inject(String from, String to, ByteBuf datagram) {
        LinkSpec link = links.get(from + "|" + to);
        if (link == null) {
            datagram.release();
            throw new IllegalArgumentException("no link " + from + " -> " + to);
        }
        int type = datagram.readableBytes() > WireHeader.OFFSET_TYPE
                ? datagram.getUnsignedByte(datagram.readerIndex() + WireHeader.OFFSET_TYPE) : -1;
        sentByType.merge(from + "|" + to + "|" + type, 1L, Long::sum);
        queue.add(new Delivery(now + link.delay, order++, to, members.get(from).address, datagram));
    }

    /**
     * Catches what an engine throws while it takes a datagram and hands it here instead of out of
     * {@link #runUntil}, so a run can count and report faults and carry on. Unset, they propagate.
     */
    public void onDatagramFailure(DatagramFailure handler) {
        this.datagramFailures = handler;
    }

    /** What an engine threw while it took a datagram (whose bytes it may have rewritten in part). */
    @FunctionalInterface
    public interface DatagramFailure {
        void failed(String node, String from, ByteBuf datagram, RuntimeException e);
    }

    /** The address a member's datagrams come from. */
    public InetSocketAddress address(String name) {
        return members.get(name).address;
    }

    /** Declares a node; call {@link #link} for its links, then {@link #startAll}. */
    public void node(String name) {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), nextPort++);
        members.put(name, new Member(name, address));
        byAddress.put(address, name);
    }

    /** A bidirectional link with the given one-way delay. */
    public void link(String a, String b, long oneWayDelayNanos) {
        links.put(a + "|" + b, new LinkSpec(oneWayDelayNanos));
        links.put(b + "|" + a, new LinkSpec(oneWayDelayNanos));
    }

    /** Sets the loss rate of the direction a to b. */
    public void loss(String a, String b, double rate) {
        links.get(a + "|" + b).loss = rate;
    }

    /** Sets the probability that a packet from a to b arrives twice. */
    public void duplicate(String a, String b, double probability) {
        links.get(a + "|" + b).duplicate = probability;
    }

    /**
     * Sets the probability that a packet from a to b is held back by an extra delay drawn uniformly
     * from (0, maxExtraNanos], so that later packets overtake it.
     */
    public void reorder(String a, String b, double probability, long maxExtraNanos) {
        LinkSpec link = links.get(a + "|" + b);
        link.reorder = probability;
        link.reorderDelay = maxExtraNanos;
    }

    /** Whether a node is running (not crashed). */
    public boolean alive(String name) {
        return members.get(name).alive;
    }

    public void startAll() {
        for (Member m : members.values()) {
            if (m.external == null) {
                start(m.name);
            }
        }
    }

    /** (Re)starts a node with a fresh engine, as a process restart would. */
    public void start(String name) {
        Member m = members.get(name);
        NodeConfig.Builder b = NodeConfig.builder(name).bindAddress(m.address);
        for (Map.Entry<String, LinkSpec> e : links.entrySet()) {
            String[] ends = e.getKey().split("\\|");
            if (ends[0].equals(name)) {
                b.neighbour(new NeighbourConfig(ends[1], members.get(ends[1]).address));
            }
        }
        customise.accept(b);
        if (m.engine != null) {
            m.engine.close();
        }
        m.engine = new NodeStack(b.build(), PooledByteBufAllocator.DEFAULT, new Output(m), now / 1_000_000, now);
        m.alive = true;
    }

    /** Crashes a node: it stops sending and everything sent to it is lost. */
    public void crash(String name) {
        Member m = members.get(name);
        m.alive = false;
        m.engine.close();
    }

    public NodeStack engine(String name) {
        return members.get(name).engine;
    }

    /** Runs the overlay until virtual time reaches {@code deadline}. */
    public void runUntil(long deadline) {
        while (true) {
            long nextTimer = Long.MAX_VALUE;
            Member timerOwner = null;
            for (Member m : members.values()) {
                if (m.alive && m.engine != null) {
                    long d = m.engine.nextDeadlineNanos();
                    if (d < nextTimer) {
                        nextTimer = d;
                        timerOwner = m;
                    }
                }
            }
            Delivery head = queue.peek();
            long nextDelivery = head == null ? Long.MAX_VALUE : head.at;
            long next = Math.min(nextTimer, nextDelivery);
            if (next > deadline) {
                now = deadline;
                return;
            }
            now = Math.max(now, next);
            if (nextDelivery <= nextTimer) {
                queue.poll();
                Member to = members.get(head.to);
                try {
                    if (to.external != null) {
                        to.external.onDatagram(byAddress.get(head.from), head.datagram, now);
                    } else if (to.alive) {
                        deliver(to, head);
                    }
                } finally {
                    head.datagram.release();
                }
            } else {
                timerOwner.engine.onTimer(now);
                if (timerOwner.engine.nextDeadlineNanos() <= now) {
                    if (++spinsAtNow > MAX_TIMER_SPINS) {
                        throw new TimerLivelock(timerOwner.name, now);
                    }
                } else {
                    spinsAtNow = 0;
                }
            }
        }
    }

    /**
     * Timer calls in a row that leave an engine due again at the same instant before it counts as
     * stuck: a live node would spin its event loop there, and a virtual run would never return.
     */
    private static final int MAX_TIMER_SPINS = 100_000;
    private int spinsAtNow;

    /** An engine asked for its timer again at once, over and over, without time passing. */
    public static final class TimerLivelock extends IllegalStateException {
        private final String node;

        TimerLivelock(String node, long nowNanos) {
            super("the timer of " + node + " is due again at once, " + MAX_TIMER_SPINS + " times at " + nowNanos
                    + " ns of virtual time");
            this.node = node;
        }

        public String node() {
            return node;
        }
    }

    private void deliver(Member to, Delivery d) {
        if (datagramFailures == null) {
            to.engine.onDatagram(d.from, d.datagram, now);
            return;
        }
        try {
            to.engine.onDatagram(d.from, d.datagram, now);
        } catch (RuntimeException e) {
            datagramFailures.failed(to.name, byAddress.get(d.from), d.datagram, e);
        }
    }

    /** Runs for {@code nanos} of virtual time. */
    public void runFor(long nanos) {
        runUntil(now + nanos);
    }

    @Override
    public void close() {
        for (Delivery d : queue) {
            d.datagram.release();
        }
        queue.clear();
        for (Member m : members.values()) {
            if (m.engine != null) {
                m.engine.close();
            }
        }
    }

    private static final class Member {
        final String name;
        final InetSocketAddress address;
        NodeStack engine;
        ExternalReceiver external;
        boolean alive;

        Member(String name, InetSocketAddress address) {
            this.name = name;
            this.address = address;
        }
    }

    private static final class LinkSpec {
        final long delay;
        double loss;
        double duplicate;
        double reorder;
        long reorderDelay;

        LinkSpec(long delay) {
            this.delay = delay;
        }
    }

    private record Delivery(long at, long order, String to, InetSocketAddress from, ByteBuf datagram)
            implements Comparable<Delivery> {
        @Override
        public int compareTo(Delivery o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(order, o.order);
        }
    }

    private final class Output implements NodeOutput {
        private final Member member;

        Output(Member member) {
            this.member = member;
        }

        @Override
        public void transmit(InetSocketAddress to, ByteBuf datagram) {
            String target = byAddress.get(to);
            int type = datagram.getUnsignedByte(datagram.readerIndex() + WireHeader.OFFSET_TYPE);
            sentByType.merge(member.name + "|" + target + "|" + type, 1L, Long::sum);
            LinkSpec link = target == null ? null : links.get(member.name + "|" + target);
            if (!member.alive || link == null || (link.loss > 0 && random.nextDouble() < link.loss)) {
                datagram.release();
                return;
            }
            if (link.duplicate > 0 && random.nextDouble() < link.duplicate) {
                queue.add(new Delivery(now + delay(link), order++, target, member.address, datagram.copy()));
            }
            // A wire gives the receiver bytes of its own: the engine may send a view of a packet it
            // keeps for resending, and the receiver rewrites headers in place when it forwards.
            ByteBuf wire = datagram.copy();
            datagram.release();
            queue.add(new Delivery(now + delay(link), order++, target, member.address, wire));
        }

        private long delay(LinkSpec link) {
            if (link.reorder > 0 && random.nextDouble() < link.reorder) {
                return link.delay + 1 + random.nextLong(link.reorderDelay);
            }
            return link.delay;
        }

        @Override
        public boolean writable() {
            return writable;
        }

        @Override
        public void event(NodeEvent event) {
            events.add(event);
        }
    }
}
