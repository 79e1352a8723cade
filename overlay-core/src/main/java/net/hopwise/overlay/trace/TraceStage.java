package net.hopwise.overlay.trace;

import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.RouteView;
import net.hopwise.overlay.spi.Stage;

/**
 * The trace module's stage on every node: it relays probes along the routes of their metric, answers
 * those whose hop limit runs out here (or that reach their destination), relays answers back to their
 * source, and at the source matches answers to pending traces and times them. See {@link TracePacket}
 * for the wire format.
 */
final class TraceStage implements Stage {
    private final ModuleContext context;
    private final RouteView routes;
    private final long timeoutNanos;
    /** Probes a trace sends at most: the node's hop limit, and what one datagram's records hold. */
    private final int maxHops;
    private final DropCounter malformed;
    private final DropCounter unmatched;
    /** Answers whose way back lost a link. */
    private final DropCounter linkGone;
    private final DropCounter hopLimit;
    private final DropCounter unsent;
    private final Counter reached;
    private final Counter unreached;
    private final Counter failed;
    /** In start order, so the first is the next to time out (every trace has the same timeout). */
    private final Map<Long, PendingTrace> pending = new LinkedHashMap<>();
    private long nextId = 1;
    private volatile boolean closed;

    TraceStage(ModuleContext context, long timeoutNanos) {
        this.context = context;
        this.routes = context.routes();
        this.timeoutNanos = timeoutNanos;
        this.maxHops = Math.min(context.config().hopLimit(), TracePacket.maxRecords(context.maxBody()));
        malformed = context.dropReason("trace_malformed");
        unmatched = context.dropReason("trace_unmatched");
        linkGone = context.dropReason("trace_link_gone");
        hopLimit = context.dropReason("trace_hop_limit");
        unsent = context.dropReason("trace_unsent");
        reached = outcome("reached");
        unreached = outcome("unreached");
        failed = outcome("error");
    }

    private Counter outcome(String outcome) {
        return Counter.builder("hopwise.trace.traces").description("traces this node started, by outcome")
                .tag("node", context.config().name()).tag("outcome", outcome).register(context.meterRegistry());
    }

    // ---------------------------------------------------------------- the API, from any thread

    CompletableFuture<TraceResult> trace(String destination, RoutingMetric metric) {
        CompletableFuture<TraceResult> future = new CompletableFuture<>();
        RoutingMetric m = metric != null ? metric : context.config().defaultMetric();
        if (closed) {
            future.complete(TraceResult.failed(context.config().name(), destination, m, "the node is stopped"));
            return future;
        }
        try {
            context.execute(() -> start(destination, m, future));
        } catch (RuntimeException e) {
            // A node stopping under the call may refuse the task (its loop shut down).
            future.complete(TraceResult.failed(context.config().name(), destination, m, "the node is stopped"));
        }
        return future;
    }

    private void start(String destinationName, RoutingMetric metric, CompletableFuture<TraceResult> future) {
        String self = context.config().name();
        if (closed) {
            finish(future, TraceResult.failed(self, destinationName, metric, "the node is stopped"));
            return;
        }
        try {
            NodeId.requireValidName(destinationName);
        } catch (RuntimeException e) {
            finish(future, TraceResult.failed(self, destinationName, metric, "not a node name: " + destinationName));
            return;
        }
        // Until a node's advertisement arrives its name is unknown here.
        NodeId destination = routes.find(destinationName).orElse(null);
        if (destination == null) {
            finish(future, TraceResult.failed(self, destinationName, metric, "unknown node " + destinationName));
            return;
        }
        if (destination.equals(context.self())) {
            finish(future, new TraceResult(self, destinationName, metric, true, List.of(), null));
            return;
        }
        List<NodeId> path = routes.path(destination, metric);
        LinkView first = path.size() < 2 ? null : context.link(path.get(1));
        if (first == null) {
            finish(future, TraceResult.failed(self, destinationName, metric,
                    "no route to " + destinationName + " under " + metric));
            return;
        }
        if (pending.size() >= TraceModule.MAX_TRACES_IN_PROGRESS) {
            finish(future, TraceResult.failed(self, destinationName, metric, "node " + self + " runs "
                    + TraceModule.MAX_TRACES_IN_PROGRESS + " traces already; try again when one is done"));
            return;
        }
        List<NodeId> planned = path.size() - 1 > maxHops ? path.subList(0, maxHops + 1) : path;
        long id = nextId;
        nextId = (nextId + 1) & 0xFFFF_FFFFL; // the wire carries 32 bits
        PendingTrace trace = new PendingTrace(id, destinationName, destination, metric, new ArrayList<>(planned),
                context.nowNanos(), timeoutNanos, future);
        pending.put(id, trace);
        TracePacket.Hop hop1 = record(first, metric);
        for (int probe = 1; probe <= trace.probes(); probe++) {
            send(first, TracePacket.PROBE, new TracePacket(id, probe, metric, TracePacket.PROBING, 0,
                    context.self(), destination, List.of(hop1)));
        }
    }

    // ---------------------------------------------------------------- the chain

    /** Only its own packet types: every other frame skips this stage. */
    @Override
    public boolean takes(int type) {
        return type == TracePacket.PROBE || type == TracePacket.ANSWER;
    }

    @Override
    public void onFrame(Frame frame, FrameSink next) {
        int type = frame.type();
        if (type != TracePacket.PROBE && type != TracePacket.ANSWER) {
            next.accept(frame);
            return;
        }
        TracePacket p = TracePacket.decode(type, frame.body());
        if (p == null) {
            malformed.increment();
        } else if (type == TracePacket.PROBE) {
            onProbe(p, frame.link());
        } else {
            onAnswer(p, frame.link(), frame.nowNanos());
        }
    }

    private void onProbe(TracePacket p, LinkView from) {
        int hop = p.records().size();
        // The sender appended the record of the link to us: anything else was not forwarded by the protocol.
        if (!p.node(hop).equals(context.self()) || !p.node(hop - 1).equals(from.id())) {
            malformed.increment();
            return;
        }
        if (p.probe() > maxHops) {
            hopLimit.increment();
            return;
        }
        if (p.destination().equals(context.self())) {
            answer(p, TracePacket.DESTINATION_REACHED);
        } else if (hop == p.probe()) {
            answer(p, TracePacket.HOP_REACHED);
        } else {
            NodeId nextHop = routes.nextHop(p.destination(), p.metric());
            LinkView link = nextHop == null ? null : context.link(nextHop);
            if (link == null) {
                answer(p, TracePacket.NO_ROUTE);
            } else {
                send(link, TracePacket.PROBE, p.withRecord(record(link, p.metric())));
            }
        }
    }

    /** What the next hop's record says of the link this node forwards a probe on. */
    private TracePacket.Hop record(LinkView link, RoutingMetric metric) {
        LinkStatistics s = link.statistics();
        long rtt = s == null || s.srttNanos() <= 0 ? -1 : s.srttNanos();
        return new TracePacket.Hop(link.id(), routes.linkCost(context.self(), link.id(), metric), rtt);
    }

    private void answer(TracePacket probe, int status) {
        sendBack(probe.answer(status));
    }

    /** Sends an answer to the node its {@code at} names: back the way the probe came, no route needed. */
    private void sendBack(TracePacket answer) {
        LinkView link = context.link(answer.node(answer.at()));
        if (link == null) {
            linkGone.increment(); // the link the probe came by is gone
            return;
        }
        send(link, TracePacket.ANSWER, answer);
    }

    private void onAnswer(TracePacket answer, LinkView from, long nowNanos) {
        int at = answer.at();
        // Sent by the node one hop further along the records, to the node they name at this hop.
        if (!answer.node(at).equals(context.self()) || !answer.node(at + 1).equals(from.id())) {
            malformed.increment();
        } else if (at > 0) {
            sendBack(answer.relayed());
        } else {
            PendingTrace trace = pending.get(answer.traceId());
            if (trace == null || !trace.matches(answer)) {
                unmatched.increment(); // late (after its timeout), duplicated past completion, or forged
                return;
            }
            trace.answered(answer, nowNanos);
            if (trace.complete()) {
                pending.remove(trace.id);
                complete(trace);
            }
        }
    }

    private void send(LinkView link, int type, TracePacket packet) {
        ByteBuf body = packet.encode(context.allocator());
        if (!context.send(link, type, body)) {
            unsent.increment();
        }
    }

    private void complete(PendingTrace trace) {
        finish(trace.future, trace.result(context.config().name(), routes));
    }

    private void finish(CompletableFuture<TraceResult> future, TraceResult result) {
        (result.error() != null ? failed : result.reached() ? reached : unreached).increment();
        future.complete(result);
    }

    @Override
    public long nextDeadlineNanos() {
        return pending.isEmpty() ? Long.MAX_VALUE : pending.values().iterator().next().deadlineNanos;
    }

    @Override
    public void onTimer(long nowNanos) {
        List<PendingTrace> due = new ArrayList<>();
        for (Iterator<PendingTrace> i = pending.values().iterator(); i.hasNext(); ) {
            PendingTrace trace = i.next();
            if (trace.deadlineNanos - nowNanos > 0) {
                break;
            }
            i.remove();
            due.add(trace);
        }
        // Completed outside the loop: a caller's callback runs here and may start another trace.
        due.forEach(this::complete);
    }

    @Override
    public void close() {
        closed = true;
        List<PendingTrace> stopped = new ArrayList<>(pending.values());
        pending.clear();
        for (PendingTrace trace : stopped) {
            finish(trace.future, TraceResult.failed(context.config().name(), trace.destinationName, trace.metric,
                    "the node stopped before the trace ended"));
        }
    }
}
