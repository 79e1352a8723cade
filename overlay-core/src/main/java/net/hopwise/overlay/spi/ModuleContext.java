package net.hopwise.overlay.spi;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.function.Function;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.NodeListener;

/**
 * What a module gets from the node it is installed on. Registration methods ({@code register*},
 * {@code addStage}, {@code receiveRealTime}, {@code linkStateExtension}, {@code dropReason}, {@code
 * provide}) are for
 * {@link OverlayModule#install}; everything else runs on the node's thread (see {@link #execute}).
 */
public interface ModuleContext {
    /** First packet type code reserved for modules. */
    int FIRST_MODULE_TYPE = 64;
    /** Last packet type code reserved for modules. */
    int LAST_MODULE_TYPE = 127;

    NodeConfig config();

    NodeId self();

    /** The node's clock: the latest instant it was handed (virtual in the simulator). */
    long nowNanos();

    ByteBufAllocator allocator();

    /**
     * Claims a packet type code for the module's packets: the frame stage then passes frames of it
     * down the chain to the module's stage instead of dropping them as unknown.
     *
     * @throws IllegalArgumentException outside {@link #FIRST_MODULE_TYPE}-{@link #LAST_MODULE_TYPE} or
     *     when another module holds the code
     */
    void registerPacketType(int code, String name);

    /**
     * Adds a stage to the node's chain; in a running node it becomes a pipeline handler named {@code
     * name}.
     *
     * @throws IllegalArgumentException when the name is taken or the anchor is not in the chain
     */
    void addStage(String name, StagePosition position, Stage stage);

    /**
     * Adds a stage that sees every datagram whole, between the socket and the frame stage (see
     * {@link DatagramStage}); several go in the order added, the first next to the socket.
     */
    void addDatagramStage(String name, DatagramStage stage);

    /**
     * Sends a datagram of a datagram stage's own, such as a handshake or a cookie reply, to any
     * address: it passes only the datagram stages nearer the socket than {@code from} (which see it
     * on no link when {@code to} is no neighbour's address), counts as sent by the node and leaves at
     * once. Takes ownership of {@code datagram}; on the node's thread.
     *
     * @throws IllegalArgumentException when {@code from} is not a datagram stage this module added
     */
    void sendDatagram(DatagramStage from, java.net.InetSocketAddress to, ByteBuf datagram);

    /**
     * Tells the node that a neighbour now sends from {@code address}, on proof the module holds (a
     * datagram its datagram stage authenticated as that neighbour's): the node sends there from now on
     * and takes the neighbour's datagrams from there, without its own proof of a fresh hello. Call it
     * from {@link DatagramStage#inbound} before passing on the datagram that proved it. A neighbour that
     * then stays silent for the dead interval is looked for at its configured address again.
     */
    void moveNeighbour(LinkView link, java.net.InetSocketAddress address);

    /** The node's routes. */
    RouteView routes();

    /** The node's links, sorted by neighbour name; a fresh list after each change. */
    List<? extends LinkView> links();

    /** The link to a neighbour, or null when none is configured. */
    LinkView link(NodeId neighbour);

    /**
     * Sends one packet of a module type to a neighbour: the node writes the wire header in front of
     * {@code body} and takes ownership of it whatever the result.
     *
     * @return false when it could not go (link unknown, socket back-pressured): counted by the caller
     */
    boolean send(LinkView link, int type, ByteBuf body);

    /**
     * As {@link #send}, but the datagram leaves at once, after what is already waiting and before what
     * follows, instead of with the end of the batch (where datagrams to one neighbour may leave
     * together in one segmented send): for traffic whose spacing matters, such as the packet pairs by
     * which a layered multicast receiver measures its bottleneck. It costs a system call of its own.
     */
    boolean sendImmediately(LinkView link, int type, ByteBuf body);

    /**
     * Sends one body to several neighbours, each copy behind its own wire header, without copying the
     * body: each datagram is the header and a retained view of the same bytes. Takes ownership of
     * {@code body}.
     *
     * @return how many neighbours it went to
     */
    int fanOut(List<? extends LinkView> links, int type, ByteBuf body);

    /** Bytes a real-time send puts in front of a module's body: its room is {@code maxBody() - REAL_TIME_HEADER}. */
    int REAL_TIME_HEADER = 8;

    /**
     * Sends one packet of a module type on the link's real-time channel, the one unicast real-time
     * flows ride: numbered per link, it leaves at once and nothing ever waits for it. When the
     * neighbour sees a gap it asks once, and the node resends the packet once, within the channel's
     * token budget, but only while a copy can still arrive before {@code deadlineNanos} (by half the
     * link's smoothed round trip) and never later than the real-time history ({@code
     * RealTimeConfig.history()}) after this send. With independent loss {@code p} each way the
     * link's residual loss is thus about {@code 2p^2 - 3p^3} when the deadline leaves room for a
     * round trip and the packets after this one follow soon enough to reveal its loss. The
     * neighbour's module gets it through the {@link RealTimeReceiver} it registered for the type (or
     * drops it, unknown), once, with the deadline on its own clock: the deadline travels as the time
     * left, so the nodes' clocks need not agree. Takes ownership of {@code body}.
     *
     * @param deadlineNanos on this node's clock ({@link #nowNanos}); a packet sent past it still goes,
     *     but is never resent
     * @return false when it could not go (link unknown, socket back-pressured): counted by the caller
     * @throws IllegalArgumentException for a type the module did not register, or a body longer than
     *     {@code maxBody() - REAL_TIME_HEADER}
     */
    boolean sendRealTime(LinkView link, int type, ByteBuf body, long deadlineNanos);

    /**
     * Takes the module's packets of a type that arrive on real-time channels ({@link #sendRealTime}):
     * they go to {@code receiver} and not down the chain of stages. Only while the node is built
     * ({@link OverlayModule#install}), for a type the module registered, once per type.
     *
     * @throws IllegalArgumentException for a type the module did not register, or one already taken
     * @throws IllegalStateException when the node is built
     */
    void receiveRealTime(int type, RealTimeReceiver receiver);

    /**
     * Carries a link's datagrams over a transport of the module's own instead of the node's UDP socket
     * (null goes back to the socket). What arrives over it is handed in with {@link #receive}.
     */
    void setTransport(LinkView link, LinkTransport transport);

    /**
     * A datagram that arrived over a link's own transport: it goes up the node's chain as one from the
     * socket would, from the frame stage on. The caller keeps ownership of {@code datagram}.
     */
    void receive(LinkView link, ByteBuf datagram);

    /** Bytes of headers the node puts in front of a module's body: its payload room is the rest. */
    int headroom();

    /** Largest body a module packet may carry. */
    int maxBody();

    /** Subscribes to the node's events (links up and down, routes changed, ...), on its thread. */
    void addListener(NodeListener listener);

    /** State per link, made by {@code initial} on first use and forgotten with the link. */
    <T> PerLink<T> perLink(Function<LinkView, T> initial);

    /**
     * Registers this module's link-state records of one kind; {@code listener} hears changes of any
     * origin's record.
     *
     * @throws IllegalArgumentException when another module holds the kind
     */
    LinkStateExtension linkStateExtension(int kind, LinkStateExtension.Listener listener);

    /**
     * Signs this node's link state and verifies everyone else's with {@code signer}: from then on a
     * newer advertisement or extension record is installed only once its origin's signature verifies
     * (counted as {@code forged_link_state} otherwise). At most one module of a node signs; only while
     * the node is built ({@link OverlayModule#install}).
     *
     * @throws IllegalStateException when another module already signs, or the node is built
     */
    void signLinkState(LinkStateSigner signer);

    /**
     * The longest record a {@link LinkStateExtension} of this node publishes, in bytes: the routing
     * configuration's {@code maxExtensionBytes}, less a signature's room where link state is signed.
     */
    int maxExtensionBytes();

    /** A drop reason of the module's own, counted and metered with the node's. */
    DropCounter dropReason(String reason);

    /** Where the module registers meters of its own; tag them with {@code node}. */
    MeterRegistry meterRegistry();

    /** Offers an API object to applications: {@code OverlayNode.module(type)} returns it. */
    <T> void provide(Class<T> type, T api);

    /**
     * Meters the node's reliable sessions with {@code admission} (null: takes it away): every session
     * end opened afterwards asks it before each new packet (see {@link SessionAdmission}). One
     * admission per node: a later call replaces it. Without one, sessions run exactly as they always
     * did. Call it from {@link OverlayModule#install}, so that no session opens unmetered.
     */
    default void admitSessions(SessionAdmission admission) {
        throw new UnsupportedOperationException("this context does not meter sessions");
    }

    /**
     * Runs a task on the node's thread at its current time, then lets the node send what it produced
     * and re-arm its timer: how a module's API, called from any thread, reaches its stage.
     *
     * @throws java.util.concurrent.RejectedExecutionException when the node is stopped (or stopping)
     *     and the task will not run; a task accepted just before the node stops may still not run, and
     *     the module's stage hears {@link Stage#close()} then
     */
    void execute(Runnable task);
}
