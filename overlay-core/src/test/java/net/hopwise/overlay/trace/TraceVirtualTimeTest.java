package net.hopwise.overlay.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.Frame;
import net.hopwise.overlay.spi.FrameSink;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.RouteView;
import net.hopwise.overlay.spi.Stage;
import net.hopwise.overlay.spi.StagePosition;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The trace module on production node stacks joined by virtual links: a chain a-b-c-d whose links
 * have distinct one-way delays, so every round trip is known exactly.
 */
class TraceVirtualTimeTest {
    private static final long MS = 1_000_000L;
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    /** One-way delays of a-b, b-c and c-d. */
    private static final long[] DELAYS = {4 * MS, 7 * MS, 11 * MS};
    private static final List<String> CHAIN = List.of("a", "b", "c", "d");

    private VirtualOverlay overlay;

    private void startChain() {
        startChain(o -> {});
    }

    private void startChain(java.util.function.Consumer<VirtualOverlay> more) {
        overlay = new VirtualOverlay(42, b -> b.module(new TraceModule(PROBE_TIMEOUT)).module(new RoutesModule())
                .module(new AnswerLoss()));
        CHAIN.forEach(overlay::node);
        for (int i = 0; i < DELAYS.length; i++) {
            overlay.link(CHAIN.get(i), CHAIN.get(i + 1), DELAYS[i]);
        }
        more.accept(overlay);
        overlay.startAll();
        overlay.runFor(30_000 * MS);
    }

    @AfterEach
    void close() {
        if (overlay != null) {
            overlay.close();
        }
    }

    /** Starts a trace at the overlay's current time on {@code from}. */
    private CompletableFuture<TraceResult> trace(String from, String to, RoutingMetric metric) {
        NodeStack stack = overlay.engine(from);
        stack.advance(overlay.now());
        return stack.module(TraceService.class).trace(to, metric);
    }

    private static RouteView routes(NodeStack stack) {
        return stack.module(RoutesModule.View.class).routes();
    }

    private double traces(String node, String outcome) {
        return overlay.engine(node).module(RoutesModule.View.class).meters().get("hopwise.trace.traces")
                .tag("node", node).tag("outcome", outcome).counter().count();
    }

    @Test
    void traceFollowsTheRouteWithItsCostsAndGrowingRoundTrips() {
        startChain();
        for (RoutingMetric metric : List.of(RoutingMetric.LATENCY, RoutingMetric.HOPS)) {
            CompletableFuture<TraceResult> future = trace("a", "d", metric);
            overlay.runFor(200 * MS);
            assertThat(future).isDone();
            TraceResult result = future.join();

            assertThat(result.error()).isNull();
            assertThat(result.reached()).isTrue();
            assertThat(result.source()).isEqualTo("a");
            assertThat(result.destination()).isEqualTo("d");
            assertThat(result.metric()).isEqualTo(metric);
            assertThat(result.hops()).extracting(TraceHop::node).containsExactly("b", "c", "d");
            assertThat(result.hops()).extracting(TraceHop::hop).containsExactly(1, 2, 3);
            RouteView routes = routes(overlay.engine("a"));
            List<NodeId> path = routes.path(NodeId.ofName("d"), metric);
            assertThat(path).extracting(routes::nameOf).containsExactly("a", "b", "c", "d");
            long expected = 0;
            for (int k = 1; k <= 3; k++) {
                TraceHop hop = result.hops().get(k - 1);
                assertThat(hop.linkCost()).as("cost of hop %d", k)
                        .isEqualTo(routes.linkCost(path.get(k - 1), path.get(k), metric));
                expected += 2 * DELAYS[k - 1];
                // Virtual links add nothing to their delay: the round trip is the sum of both ways exactly.
                assertThat(hop.roundTripMillis()).as("round trip to hop %d", k).isCloseTo(expected / 1e6, within(1e-6));
                assertThat(result.hopRoundTripMillis(k - 1)).isCloseTo(2 * DELAYS[k - 1] / 1e6, within(1e-6));
                assertThat(hop.linkRttMillis()).as("measured rtt of link %d", k)
                        .isCloseTo(2 * DELAYS[k - 1] / 1e6, within(0.5));
            }
            assertThat(result.hops()).extracting(TraceHop::roundTripMillis).isSorted();
            if (metric == RoutingMetric.HOPS) {
                assertThat(result.hops()).extracting(TraceHop::linkCost).containsOnly(1.0);
            }
        }
        assertThat(traces("a", "reached")).isEqualTo(2);
        assertThat(traces("a", "error")).isZero();
        assertNoFaults();
    }

    @Test
    void tracesFromTheMiddleAndBackwardsToo() {
        startChain();
        CompletableFuture<TraceResult> back = trace("d", "a", RoutingMetric.LATENCY);
        CompletableFuture<TraceResult> middle = trace("b", "c", RoutingMetric.LATENCY);
        overlay.runFor(200 * MS);
        assertThat(back.join().hops()).extracting(TraceHop::node).containsExactly("c", "b", "a");
        assertThat(back.join().hops().get(2).roundTripMillis()).isCloseTo(44.0, within(1e-6));
        assertThat(middle.join().hops()).extracting(TraceHop::node).containsExactly("c");
        assertThat(middle.join().reached()).isTrue();
    }

    @Test
    void unreachableUnknownAndSelfAreResultsNotExceptions() {
        startChain();
        overlay.crash("d");
        overlay.runFor(60_000 * MS);
        assertThat(routes(overlay.engine("a")).nameOf(NodeId.ofName("d"))).as("d is still known").isEqualTo("d");

        TraceResult unreachable = trace("a", "d", RoutingMetric.LATENCY).join();
        assertThat(unreachable.error()).isEqualTo("no route to d under LATENCY");
        assertThat(unreachable.reached()).isFalse();
        assertThat(unreachable.hops()).isEmpty();

        assertThat(trace("a", "nobody", RoutingMetric.HOPS).join().error()).isEqualTo("unknown node nobody");
        assertThat(trace("a", "no such name!", RoutingMetric.HOPS).join().error()).startsWith("not a node name");
        TraceResult self = trace("a", "a", RoutingMetric.HOPS).join();
        assertThat(self.reached()).isTrue();
        assertThat(self.hops()).isEmpty();
        assertThat(self.error()).isNull();
        assertThat(traces("a", "error")).isEqualTo(3);
        assertThat(traces("a", "reached")).isEqualTo(1);
    }

    @Test
    void aNodeRunsABoundedNumberOfTracesAtOnce() {
        startChain();
        List<CompletableFuture<TraceResult>> running = new java.util.ArrayList<>();
        for (int i = 0; i < TraceModule.MAX_TRACES_IN_PROGRESS; i++) {
            running.add(trace("a", "d", RoutingMetric.LATENCY));
        }
        TraceResult refused = trace("a", "d", RoutingMetric.LATENCY).join();
        assertThat(refused.reached()).isFalse();
        assertThat(refused.error()).contains("runs " + TraceModule.MAX_TRACES_IN_PROGRESS + " traces already");
        overlay.runFor(100 * MS);
        assertThat(running).allSatisfy(f -> assertThat(f.join().reached()).isTrue());
        assertThat(trace("a", "d", RoutingMetric.LATENCY)).isNotDone();
    }

    @Test
    void aLostAnswerLeavesItsHopWithoutRoundTripAfterTheTimeout() {
        startChain();
        overlay.engine("a").module(AnswerLoss.class).loseProbe = 2;
        CompletableFuture<TraceResult> future = trace("a", "d", RoutingMetric.LATENCY);
        long started = overlay.now();
        overlay.runFor(200 * MS);
        assertThat(future).as("waits for the lost answer").isNotDone();
        overlay.runUntil(started + PROBE_TIMEOUT.toNanos() - 1);
        assertThat(future).isNotDone();
        overlay.runUntil(started + PROBE_TIMEOUT.toNanos());
        assertThat(future).as("done at the timeout").isDone();

        TraceResult result = future.join();
        assertThat(overlay.engine("a").module(AnswerLoss.class).lost).isEqualTo(1);
        assertThat(result.reached()).isTrue();
        assertThat(result.error()).isNull();
        assertThat(result.hops()).extracting(TraceHop::node).containsExactly("b", "c", "d");
        TraceHop lost = result.hops().get(1);
        assertThat(lost.roundTripMillis()).isNull();
        // Hop 3's answer still carried hop 2's record.
        assertThat(lost.linkRttMillis()).isCloseTo(14.0, within(0.5));
        assertThat(result.hops().get(0).roundTripMillis()).isCloseTo(8.0, within(1e-6));
        assertThat(result.hops().get(2).roundTripMillis()).isCloseTo(44.0, within(1e-6));
        assertThat(result.hopRoundTripMillis(1)).isNull();
        assertThat(result.hopRoundTripMillis(2)).isNull();
    }

    @Test
    void aCallbackOfATimedOutTraceMayStartAnother() {
        startChain();
        AnswerLoss loss = overlay.engine("a").module(AnswerLoss.class);
        loss.loseProbe = 1;
        loss.toLose = 2;
        TraceService service = overlay.engine("a").module(TraceService.class);
        // Two traces that time out at the same instant, the first's callback starting a third.
        CompletableFuture<TraceResult> third = trace("a", "d", RoutingMetric.LATENCY)
                .thenCompose(first -> service.trace("c", RoutingMetric.LATENCY));
        CompletableFuture<TraceResult> second = trace("a", "d", RoutingMetric.LATENCY);
        overlay.runFor(2 * PROBE_TIMEOUT.toNanos());
        assertThat(loss.lost).isEqualTo(2);
        assertThat(second).isDone();
        assertThat(second.join().hops().get(0).roundTripMillis()).isNull();
        assertThat(third).isDone();
        assertThat(third.join().reached()).isTrue();
        assertNoFaults();
    }

    @Test
    void malformedProbesAndStrayAnswersAreCountedDrops() {
        startChain();
        NodeId a = NodeId.ofName("a");
        NodeId b = NodeId.ofName("b");
        NodeId d = NodeId.ofName("d");
        TracePacket.Hop toA = new TracePacket.Hop(a, 4.0, 8 * MS);
        TracePacket good = new TracePacket(7, 1, RoutingMetric.LATENCY, TracePacket.PROBING, 0, b, d, List.of(toA));
        List<ByteBuf> bodies = List.of(
                Unpooled.buffer(0),
                Unpooled.wrappedBuffer(new byte[TracePacket.FIXED_LENGTH - 1]),
                withByte(good, 5, 99), // no such metric
                withByte(good, 4, 0), // probe 0
                withByte(good, 6, 1), // a probe with an answer's status
                withByte(good, 24, 2), // two records announced, one there
                truncated(good),
                // Well formed, but the last record does not name the receiver: not forwarded by the protocol.
                new TracePacket(7, 3, RoutingMetric.LATENCY, TracePacket.PROBING, 0, b, d,
                        List.of(new TracePacket.Hop(d, 1.0, -1))).encode(Unpooled.buffer().alloc()),
                // Well formed, but the record before the receiver's is not the neighbour it came from.
                new TracePacket(7, 3, RoutingMetric.LATENCY, TracePacket.PROBING, 0, d, d, List.of(toA))
                        .encode(Unpooled.buffer().alloc()));
        long before = drop("trace_malformed");
        for (ByteBuf body : bodies) {
            inject("b", "a", TracePacket.PROBE, body);
        }
        overlay.runFor(100 * MS);
        assertThat(drop("trace_malformed") - before).isEqualTo(bodies.size());

        long strays = drop("trace_unmatched");
        TracePacket answer = new TracePacket(12345, 1, RoutingMetric.LATENCY, TracePacket.HOP_REACHED, 0, a, d,
                List.of(new TracePacket.Hop(b, 4.0, 8 * MS)));
        inject("b", "a", TracePacket.ANSWER, answer.encode(Unpooled.buffer().alloc()));
        overlay.runFor(100 * MS);
        assertThat(drop("trace_unmatched") - strays).as("an answer to no trace of a's").isEqualTo(1);

        // A good probe from b still gets its answer, which b, having no such trace, counts as a stray.
        long strayAtB = drop("b", "trace_unmatched");
        inject("b", "a", TracePacket.PROBE, good.encode(Unpooled.buffer().alloc()));
        overlay.runFor(100 * MS);
        assertThat(drop("b", "trace_unmatched") - strayAtB).isEqualTo(1);
        assertThat(drop("trace_malformed") - before).isEqualTo(bodies.size());
        assertNoFaults();
    }

    @Test
    void answersRetraceTheProbeWithoutARouteToTheSource() {
        // x is a neighbour of a that runs no node: it never says hello, so no node has a route to it.
        List<TracePacket> received = new java.util.ArrayList<>();
        startChain(o -> {
            o.external("x", (from, datagram, now) -> {
                if (WireHeader.typeCode(datagram) == TracePacket.ANSWER) {
                    received.add(TracePacket.decode(TracePacket.ANSWER, WireHeader.body(datagram)));
                }
            });
            o.link("x", "a", 3 * MS);
        });
        NodeId x = NodeId.ofName("x");
        assertThat(routes(overlay.engine("b")).nextHop(x, RoutingMetric.LATENCY)).isNull();
        TracePacket probe = new TracePacket(9, 2, RoutingMetric.LATENCY, TracePacket.PROBING, 0, x, NodeId.ofName("d"),
                List.of(new TracePacket.Hop(NodeId.ofName("a"), 3.0, -1)));
        inject("x", "a", TracePacket.PROBE, probe.encode(Unpooled.buffer().alloc()));
        overlay.runFor(100 * MS);

        assertThat(received).hasSize(1);
        TracePacket answer = received.get(0);
        assertThat(answer.status()).isEqualTo(TracePacket.HOP_REACHED);
        assertThat(answer.at()).isZero();
        assertThat(answer.records()).extracting(TracePacket.Hop::node)
                .containsExactly(NodeId.ofName("a"), NodeId.ofName("b"));
        assertThat(drop("b", "trace_link_gone")).isZero();

        // A relay with no route onwards answers so, from where it is.
        TracePacket lost = new TracePacket(10, 3, RoutingMetric.LATENCY, TracePacket.PROBING, 0, x,
                NodeId.ofName("nowhere"), List.of(new TracePacket.Hop(NodeId.ofName("a"), 3.0, -1)));
        inject("x", "a", TracePacket.PROBE, lost.encode(Unpooled.buffer().alloc()));
        overlay.runFor(100 * MS);
        assertThat(received).hasSize(2);
        assertThat(received.get(1).status()).isEqualTo(TracePacket.NO_ROUTE);
        assertThat(received.get(1).records()).extracting(TracePacket.Hop::node).containsExactly(NodeId.ofName("a"));
    }

    private static ByteBuf withByte(TracePacket p, int index, int value) {
        ByteBuf body = p.encode(Unpooled.buffer().alloc());
        body.setByte(index, value);
        return body;
    }

    private static ByteBuf truncated(TracePacket p) {
        ByteBuf body = p.encode(Unpooled.buffer().alloc());
        return body.writerIndex(body.writerIndex() - 1);
    }

    private void inject(String from, String to, int type, ByteBuf body) {
        ByteBuf datagram = Unpooled.buffer(WireHeader.LENGTH + body.readableBytes());
        WireHeader.write(datagram, type, 0, body.readableBytes(), NodeId.ofName(from).value(),
                NodeId.ofName(to).value(), 1_000_000);
        datagram.writeBytes(body);
        body.release();
        overlay.inject(from, to, datagram);
    }

    private long drop(String reason) {
        return drop("a", reason);
    }

    private long drop(String node, String reason) {
        return overlay.engine(node).counters().moduleDrops().stream().filter(c -> c.reason().equals(reason))
                .mapToLong(DropCounter::count).findFirst().orElseThrow();
    }

    private void assertNoFaults() {
        for (String n : CHAIN) {
            if (overlay.alive(n)) {
                assertThat(overlay.engine(n).counters().drops(DropReason.HANDLER_ERROR)).as("faults at " + n).isZero();
                assertThat(overlay.engine(n).counters().drops(DropReason.UNKNOWN_TYPE)).as("unclaimed at " + n)
                        .isZero();
            }
        }
    }

    /** Offers the node's routes to the test, read on its thread as the module SPI has them. */
    static final class RoutesModule implements OverlayModule {
        interface View {
            RouteView routes();

            io.micrometer.core.instrument.MeterRegistry meters();
        }

        @Override
        public String name() {
            return "routes-for-test";
        }

        @Override
        public void install(ModuleContext context) {
            context.provide(View.class, new View() {
                @Override
                public RouteView routes() {
                    return context.routes();
                }

                @Override
                public io.micrometer.core.instrument.MeterRegistry meters() {
                    return context.meterRegistry();
                }
            });
        }
    }

    /** Swallows the first answers (one unless told) to one probe number that reaches its source, just before the trace stage. */
    static final class AnswerLoss implements OverlayModule {
        int loseProbe;
        int toLose = 1;
        int lost;

        @Override
        public String name() {
            return "answer-loss";
        }

        @Override
        public void install(ModuleContext context) {
            // Per node: the module instance is shared by every node's configuration.
            AnswerLoss state = new AnswerLoss();
            context.provide(AnswerLoss.class, state);
            context.addStage("answer-loss", StagePosition.before("trace"), new Stage() {
                @Override
                public void onFrame(Frame frame, FrameSink next) {
                    ByteBuf body = frame.body();
                    if (frame.type() == TracePacket.ANSWER && state.lost < state.toLose && body.readableBytes() > 16
                            && body.getUnsignedByte(body.readerIndex() + 4) == state.loseProbe
                            && body.getLong(body.readerIndex() + 8) == context.self().value()) {
                        state.lost++;
                        return;
                    }
                    next.accept(frame);
                }
            });
        }
    }
}
