package net.hopwise.multicast;

import java.time.Duration;
import java.util.Objects;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.StagePosition;

/**
 * Overlay multicast: named groups, node-level membership flooded in link state, and best-effort
 * group datagrams along source-specific shortest-path trees. Install it with {@code
 * NodeConfig.Builder.module(new MulticastModule())} on every node of the overlay and fetch its
 * {@link Multicast} with {@code OverlayNode.module(Multicast.class)}. See {@code docs/multicast.md}.
 */
public final class MulticastModule implements OverlayModule {
    /**
     * 65536 bytes: what a UDP datagram carries, which a user of datagrams expects to send whole; at
     * the default module body it is under 60 fragments, and one lost fragment loses the message, so
     * larger messages belong to a reliable service.
     */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 65536;

    /**
     * 2 s: fragments of one message leave the source together and cross the same tree, so they
     * arrive within a few tens of milliseconds of each other; a message still incomplete after 2 s
     * has lost a fragment, and best effort does not wait for it.
     */
    public static final Duration DEFAULT_REASSEMBLY_TIMEOUT = Duration.ofSeconds(2);

    /**
     * 64 messages in reassembly at once per node: at most 64 x 64 KiB (4 MiB) of held fragments, and
     * room for 64 sources' large messages arriving interleaved.
     */
    public static final int DEFAULT_MAX_REASSEMBLIES = 64;

    /**
     * Off: Cost-Benefit prices a node's unicast reliable sessions only when asked, since it then paces
     * them by a budget instead of their windows alone, which an overlay without multicast senders to
     * share with gains nothing from (see {@link #withUnicastCostBenefit}).
     */
    public static final boolean DEFAULT_UNICAST_COST_BENEFIT = false;

    private final int maxMessageBytes;
    private final Duration reassemblyTimeout;
    private final int maxReassemblies;
    private final CostBenefitConfig costBenefit;
    private final ReliableConfig reliable;
    private final boolean unicastCostBenefit;

    public MulticastModule() {
        this(DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_REASSEMBLY_TIMEOUT, DEFAULT_MAX_REASSEMBLIES);
    }

    public MulticastModule(int maxMessageBytes, Duration reassemblyTimeout, int maxReassemblies) {
        this(maxMessageBytes, reassemblyTimeout, maxReassemblies, null, ReliableConfig.defaults(),
                DEFAULT_UNICAST_COST_BENEFIT);
    }

    /**
     * @param maxMessageBytes largest message a send takes, 0-16,777,215 bytes
     * @param reassemblyTimeout how long a member node holds an incomplete message; positive
     * @param maxReassemblies incomplete messages a member node holds at once; positive
     */
    private MulticastModule(int maxMessageBytes, Duration reassemblyTimeout, int maxReassemblies,
            CostBenefitConfig costBenefit, ReliableConfig reliable, boolean unicastCostBenefit) {
        this.unicastCostBenefit = unicastCostBenefit;
        Objects.requireNonNull(reassemblyTimeout, "reassemblyTimeout");
        this.reliable = Objects.requireNonNull(reliable, "reliable");
        if (maxMessageBytes < 0 || maxMessageBytes > 0xFF_FFFF) {
            throw new IllegalArgumentException("maxMessageBytes must be 0-16777215, got " + maxMessageBytes);
        }
        if (reassemblyTimeout.isZero() || reassemblyTimeout.isNegative()) {
            throw new IllegalArgumentException("reassemblyTimeout must be positive, got " + reassemblyTimeout);
        }
        if (maxReassemblies <= 0) {
            throw new IllegalArgumentException("maxReassemblies must be positive, got " + maxReassemblies);
        }
        this.maxMessageBytes = maxMessageBytes;
        this.reassemblyTimeout = reassemblyTimeout;
        this.maxReassemblies = maxReassemblies;
        this.costBenefit = costBenefit;
    }

    /**
     * This module with Cost-Benefit global flow control (null: without). Every node of the overlay
     * should run it alike: a node without it still receives and acknowledges flow-controlled traffic,
     * but neither prices its links nor holds its senders back.
     */
    public MulticastModule withCostBenefit(CostBenefitConfig config) {
        return new MulticastModule(maxMessageBytes, reassemblyTimeout, maxReassemblies, config, reliable,
                unicastCostBenefit);
    }

    /** This module with other parameters of reliable multicast (the same on every node). */
    public MulticastModule withReliable(ReliableConfig config) {
        return new MulticastModule(maxMessageBytes, reassemblyTimeout, maxReassemblies, costBenefit, config,
                unicastCostBenefit);
    }

    /**
     * This module with Cost-Benefit flow control also over the node's unicast reliable sessions (off by
     * default): each session end is a client with a budget of its own, and each new packet costs the
     * fee plus the advertised costs of the links of its route, so that sessions and multicast senders
     * share congested links by the same rules. Needs {@link #withCostBenefit}; run it alike on every
     * node. See {@code docs/multicast.md}.
     */
    public MulticastModule withUnicastCostBenefit(boolean on) {
        return new MulticastModule(maxMessageBytes, reassemblyTimeout, maxReassemblies, costBenefit, reliable, on);
    }

    /** Whether the node's unicast reliable sessions are under Cost-Benefit flow control. */
    public boolean unicastCostBenefit() {
        return unicastCostBenefit;
    }

    public ReliableConfig reliable() {
        return reliable;
    }

    /** The flow control's parameters, or null without it. */
    public CostBenefitConfig costBenefit() {
        return costBenefit;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public Duration reassemblyTimeout() {
        return reassemblyTimeout;
    }

    public int maxReassemblies() {
        return maxReassemblies;
    }

    @Override
    public String name() {
        return "multicast";
    }

    @Override
    public void install(ModuleContext context) {
        if (unicastCostBenefit && costBenefit == null) {
            throw new IllegalArgumentException("unicast Cost-Benefit needs Cost-Benefit flow control: withCostBenefit");
        }
        context.registerPacketType(MulticastPacket.DATA, "multicast-data");
        context.registerPacketType(CostUpdate.TYPE, "multicast-cost");
        context.registerPacketType(ChannelAck.DATA, "multicast-channel-data");
        context.registerPacketType(ChannelAck.TYPE, "multicast-channel-ack");
        context.registerPacketType(ReliablePacket.DATA, "multicast-reliable-data");
        context.registerPacketType(ReliablePacket.ACK, "multicast-reliable-channel-ack");
        context.registerPacketType(ReliableControl.TYPE, "multicast-reliable-control");
        MulticastStage stage = new MulticastStage(context, this);
        // It takes only its own packet type, so it goes after every core stage.
        context.addStage(name(), StagePosition.last(), stage);
        context.registerPacketType(RealTimePacket.TYPE, "multicast-realtime-data");
        context.addStage(name() + "-realtime", StagePosition.last(), new RealTimeMulticast(context, stage));
        context.provide(Multicast.class, stage);
        stage.layered(net.hopwise.multicast.layered.LayeredMulticast.install(context, stage, name()));
    }
}
