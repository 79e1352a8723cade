package net.hopwise.overlay.trace;

import java.time.Duration;
import java.util.Objects;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.StagePosition;

/**
 * {@code overlay trace}: the path to another node under any metric, each hop with its link cost and
 * the round trips measured by probes of the module's own packet types, forwarded along the overlay's
 * routes the way traceroute follows IP's. Install it with {@code NodeConfig.Builder.module(new
 * TraceModule())} and fetch its {@link TraceService} with {@code OverlayNode.module}.
 */
public final class TraceModule implements OverlayModule {
    /**
     * How long the source waits for a probe's answer: 2 s is far above any overlay round trip worth
     * tracing (a 32-hop path of 30 ms links is under 2 s), and an operator waiting for a tool
     * expects an answer within a few seconds; an answer later than this is reported as lost.
     */
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(2);

    /**
     * Traces one node runs at once: an operator traces a handful of paths at a time, and the bound
     * keeps callers of an open admin endpoint from making a node send an unbounded burst of probes
     * (each trace sends up to a probe per hop); one more is answered with an error at once.
     */
    public static final int MAX_TRACES_IN_PROGRESS = 16;

    private final Duration probeTimeout;

    public TraceModule() {
        this(DEFAULT_PROBE_TIMEOUT);
    }

    /** @param probeTimeout how long the source waits for each probe's answer; positive */
    public TraceModule(Duration probeTimeout) {
        Objects.requireNonNull(probeTimeout, "probeTimeout");
        if (probeTimeout.isZero() || probeTimeout.isNegative()) {
            throw new IllegalArgumentException("probeTimeout must be positive, got " + probeTimeout);
        }
        this.probeTimeout = probeTimeout;
    }

    public Duration probeTimeout() {
        return probeTimeout;
    }

    @Override
    public String name() {
        return "trace";
    }

    @Override
    public void install(ModuleContext context) {
        context.registerPacketType(TracePacket.PROBE, "trace-probe");
        context.registerPacketType(TracePacket.ANSWER, "trace-answer");
        TraceStage stage = new TraceStage(context, probeTimeout.toNanos());
        // It takes only its own packet types, so it goes after every core stage.
        context.addStage(name(), StagePosition.last(), stage);
        context.provide(TraceService.class, stage::trace);
    }
}
