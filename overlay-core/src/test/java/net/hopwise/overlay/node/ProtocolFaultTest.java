package net.hopwise.overlay.node;

import static net.hopwise.overlay.node.TwoNodeWire.MS;
import static org.assertj.core.api.Assertions.assertThat;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.LogCapture;
import net.hopwise.overlay.wire.DropReason;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An exception while a node handles a packet or a timer is counted, logged at WARN with a rate
 * limit, and leaves every machine whole: here a's socket throws whenever routing tries to send a
 * link-state update, which today's routing does in the middle of handling a hello (a cost change)
 * and of its timers.
 */
class ProtocolFaultTest {
    private final TwoNodeWire wire = new TwoNodeWire();
    private LogCapture log;

    @BeforeEach
    void listen() {
        log = LogCapture.of(NodeStack.class);
    }

    @AfterEach
    void close() {
        log.close();
        wire.close();
    }

    private static boolean isUpdate(io.netty.buffer.ByteBuf d) {
        return WireHeader.type(d) == PacketType.LINK_STATE_UPDATE;
    }

    @Test
    void aFaultWhileHandlingIsCountedLoggedAndLeavesTheLinkWhole() {
        wire.failA = ProtocolFaultTest::isUpdate;
        wire.runFor(3_000 * MS);

        long faults = wire.a.counters().drops(DropReason.HANDLER_ERROR);
        assertThat(faults).as("faults counted").isPositive();
        assertThat(log.warnings()).as("faults logged").isNotEmpty();
        assertThat(log.warnings().get(0).getThrown()).hasMessageContaining("injected");
        assertThat(log.warnings().get(0).getMessage()).contains("node a");
        // The link layer finished every update it began: the link is up, its published statistics
        // are the monitor's own, and it measured a round-trip time.
        Neighbour b = wire.a.neighbour(NodeId.ofName("b"));
        assertThat(b.status()).isEqualTo(LinkStatus.UP);
        assertThat(b.statistics()).isEqualTo(b.monitor.statistics());
        assertThat(b.statistics().srttNanos()).isPositive();

        // Once the socket works again, routing catches up by itself: b learns a's advertisement.
        wire.failA = d -> false;
        wire.runFor(3_000 * MS);
        assertThat(wire.b.router().nextHop(NodeId.ofName("a"), RoutingMetric.LATENCY)).isEqualTo(NodeId.ofName("a"));
        assertThat(wire.a.router().nextHop(NodeId.ofName("b"), RoutingMetric.LATENCY)).isEqualTo(NodeId.ofName("b"));
        assertThat(wire.a.counters().drops(DropReason.HANDLER_ERROR)).isEqualTo(faults + 0);
    }

    @Test
    void aTimerThatFailsBeforeMovingItsDeadlineDoesNotSpinTheLoopNorStopTheOthers() {
        wire.runFor(2_000 * MS);
        // A machine with the shape of the fault once found in routing: due, and throwing before it
        // moves its own deadline, so it stays due.
        long[] runs = {0};
        wire.a.addTimedStep(new TimedStep("broken") {
            @Override
            long deadlineNanos() {
                return wire.now() - MS;
            }

            @Override
            void run(long nowNanos) {
                runs[0]++;
                throw new IllegalStateException("always due, always failing (injected)");
            }
        });
        long now = wire.now();
        long helloesBefore = wire.a.neighbour(NodeId.ofName("b")).statistics().hellosSent();
        for (int step = 0; step < 1_000; step++) {
            now += 100_000; // 0.1 ms
            int callsAtThisInstant = 0;
            while (wire.a.nextDeadlineNanos() <= now) {
                wire.a.onTimer(now);
                assertThat(++callsAtThisInstant).as("timer calls at one instant").isLessThan(10);
            }
        }
        // 100 ms: the broken step ran once per hold, and the links' hellos went on meanwhile.
        assertThat(runs[0]).isBetween(90L, 101L);
        assertThat(wire.a.counters().drops(DropReason.HANDLER_ERROR)).isEqualTo(runs[0]);
        assertThat(wire.a.neighbour(NodeId.ofName("b")).statistics().hellosSent()).isGreaterThan(helloesBefore);
    }

    @Test
    void faultsAreLoggedAtMostOncePerIntervalWithTheCountOfTheOthers() {
        wire.failA = ProtocolFaultTest::isUpdate;
        long window = ProtocolFaults.LOG_INTERVAL_NANOS;
        wire.runFor(window - 100 * MS);
        long faults = wire.a.counters().drops(DropReason.HANDLER_ERROR);
        assertThat(faults).isGreaterThan(5);
        assertThat(log.warnings()).hasSize(1);

        wire.runFor(200 * MS);
        wire.runFor(5_000 * MS);
        assertThat(log.warnings()).hasSize(2);
        assertThat(log.warnings().get(1).getMessage()).containsPattern("\\(\\d+ more since the last report\\)");
    }
}
