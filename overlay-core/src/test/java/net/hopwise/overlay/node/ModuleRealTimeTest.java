package net.hopwise.overlay.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.DatagramStage;
import net.hopwise.overlay.spi.LinkView;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.spi.RealTimeMonitor;
import net.hopwise.overlay.spi.RealTimeStatistics;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A module's packets on the real-time channels, a to b over a 10 ms link on virtual time: the link
 * loses chosen frames once (a datagram stage of the test's module drops their first copy), and
 * recovery runs only while the frame's deadline allows.
 */
class ModuleRealTimeTest {
    private static final long MS = 1_000_000L;
    private static final int TYPE = 77;
    private static final int PLAIN = 78;

    /** What one node's test module heard and can do. */
    static final class Probe {
        ModuleContext ctx;
        final List<long[]> arrivals = new ArrayList<>(); // frame number, arrival, deadline, recovered
        /** Frame numbers whose first copy the link loses, each once. */
        final Set<Integer> loseOnce = new HashSet<>();
        final Set<Integer> lost = new HashSet<>();

        boolean send(String to, int frame, long deadlineNanos) {
            ByteBuf body = Unpooled.buffer(4).writeInt(frame);
            return ctx.sendRealTime(ctx.link(NodeId.ofName(to)), TYPE, body, deadlineNanos);
        }

        long[] arrival(int frame) {
            return arrivals.stream().filter(a -> a[0] == frame).findFirst().orElse(null);
        }
    }

    static final class RealTimeProbeModule implements OverlayModule {
        final java.util.Map<NodeId, Probe> probes = new java.util.HashMap<>();

        @Override
        public String name() {
            return "rt-probe";
        }

        @Override
        public void install(ModuleContext ctx) {
            Probe probe = new Probe();
            probe.ctx = ctx;
            probes.put(ctx.self(), probe);
            ctx.registerPacketType(TYPE, "rt-probe");
            ctx.registerPacketType(PLAIN, "rt-probe-plain");
            ctx.receiveRealTime(TYPE, (link, body, deadline, recovered) ->
                    probe.arrivals.add(new long[] {body.getInt(body.readerIndex()), ctx.nowNanos(), deadline,
                        recovered ? 1 : 0}));
            ctx.addDatagramStage("rt-probe-loss", new DatagramStage() {
                @Override
                public int overhead() {
                    return 0;
                }

                @Override
                public ByteBuf inbound(InetSocketAddress from, ByteBuf datagram, long nowNanos) {
                    return datagram;
                }

                @Override
                public ByteBuf outbound(LinkView link, InetSocketAddress address, ByteBuf datagram, long nowNanos) {
                    if (WireHeader.typeCode(datagram) == TYPE) {
                        int frame = datagram.getInt(datagram.readerIndex() + WireHeader.LENGTH
                                + ModuleContext.REAL_TIME_HEADER);
                        if (probe.loseOnce.contains(frame) && probe.lost.add(frame)) {
                            datagram.release();
                            return null;
                        }
                    }
                    return datagram;
                }
            });
        }
    }

    private final RealTimeProbeModule module = new RealTimeProbeModule();
    private VirtualOverlay overlay;
    private Probe a;
    private Probe b;

    private void start() {
        overlay = new VirtualOverlay(5, c -> c.module(module));
        overlay.node("a");
        overlay.node("b");
        overlay.link("a", "b", 10 * MS);
        overlay.startAll();
        overlay.runFor(3_000 * MS);
        a = module.probes.get(NodeId.ofName("a"));
        b = module.probes.get(NodeId.ofName("b"));
    }

    @AfterEach
    void close() {
        if (overlay != null) {
            overlay.close();
        }
    }

    /** Sends frames 0..count-1 every 5 ms, frame {@code shortFrame} with a deadline of {@code shortMs}. */
    private long[] sendFrames(int count, int shortFrame, long shortMs) {
        long[] sentAt = new long[count];
        for (int f = 0; f < count; f++) {
            overlay.engine("a").advance(overlay.now());
            sentAt[f] = overlay.now();
            long deadline = overlay.now() + (f == shortFrame ? shortMs : 100) * MS;
            assertThat(a.send("b", f, deadline)).isTrue();
            overlay.runFor(5 * MS);
        }
        overlay.runFor(200 * MS);
        return sentAt;
    }

    @Test
    void aFrameLostOnceIsResentAndArrivesWithinItsDeadline() {
        start();
        a.loseOnce.add(3);
        long[] sentAt = sendFrames(10, -1, 0);
        assertThat(b.arrivals).extracting(x -> (int) x[0]).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        long[] three = b.arrival(3);
        // Frame 4 reveals the gap 15 ms after frame 3 left; the NACK takes 10 ms, the resend 10 more.
        assertThat(three[1] - sentAt[3]).isEqualTo(35 * MS);
        assertThat(three[3]).as("recovered").isEqualTo(1);
        assertThat(b.arrival(4)[3]).as("an original is not recovered").isZero();
        // One clock here: the deadline b is told is the one a set, less nothing but the link estimate.
        for (long[] x : b.arrivals) {
            assertThat(x[2]).as("deadline of frame " + x[0]).isBetween(sentAt[(int) x[0]] + 99 * MS,
                    sentAt[(int) x[0]] + 101 * MS);
        }
        RealTimeChannel toB = overlay.engine("a").realTimeChannel(NodeId.ofName("b"));
        assertThat(toB.retransmissions()).isEqualTo(1);
        assertThat(overlay.engine("b").realTimeChannel(NodeId.ofName("a")).recovered()).isEqualTo(1);
    }

    @Test
    void aFrameWhoseDeadlinePassesBeforeTheNackIsNotResent() {
        start();
        a.loseOnce.add(3);
        // The NACK reaches a 25 ms after the send; a copy would need 10 ms more than the 20 ms frame 3 has.
        sendFrames(10, 3, 20);
        assertThat(b.arrivals).extracting(x -> (int) x[0]).containsExactlyInAnyOrder(0, 1, 2, 4, 5, 6, 7, 8, 9);
        RealTimeChannel toB = overlay.engine("a").realTimeChannel(NodeId.ofName("b"));
        assertThat(toB.nacksReceived()).isEqualTo(1);
        assertThat(toB.retransmissions()).isZero();
        assertThat(toB.refusedExpired()).isEqualTo(1);
    }

    @Test
    void aDeadlineThatLeavesTimeForTheRoundTripGetsTheResend() {
        start();
        a.loseOnce.add(3);
        // Resendable until 36 - 10 ms after the send: the NACK at 25 ms is in time.
        sendFrames(10, 3, 36);
        assertThat(b.arrival(3)).isNotNull();
        assertThat(overlay.engine("a").realTimeChannel(NodeId.ofName("b")).retransmissions()).isEqualTo(1);
    }

    @Test
    void moduleAndUnicastRealTimePacketsShareTheLinkNumbering() {
        start();
        overlay.engine("a").advance(overlay.now());
        a.send("b", 1, overlay.now() + 100 * MS);
        overlay.engine("a").sendRealTime(1, NodeId.ofName("b"), 9, 0, Unpooled.wrappedBuffer(new byte[4]),
                net.hopwise.overlay.routing.RoutingMetric.EXPECTED_LATENCY, overlay.now());
        a.send("b", 2, overlay.now() + 100 * MS);
        overlay.runFor(50 * MS);
        RealTimeChannel fromA = overlay.engine("b").realTimeChannel(NodeId.ofName("a"));
        assertThat(fromA.packetsReceived()).isEqualTo(3);
        assertThat(fromA.nacksSent()).as("no gap in one numbering").isZero();
    }

    @Test
    void misuseIsRefusedAndReleasesTheBody() {
        start();
        ByteBuf notRegistered = Unpooled.buffer(4).writeInt(1);
        assertThatThrownBy(() -> a.ctx.sendRealTime(a.ctx.link(NodeId.ofName("b")), 99, notRegistered, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did not register");
        assertThat(notRegistered.refCnt()).isZero();
        ByteBuf tooLong = Unpooled.buffer().writeBytes(new byte[a.ctx.maxBody() - ModuleContext.REAL_TIME_HEADER + 1]);
        assertThatThrownBy(() -> a.ctx.sendRealTime(a.ctx.link(NodeId.ofName("b")), TYPE, tooLong, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
        assertThat(tooLong.refCnt()).isZero();
        ByteBuf noLink = Unpooled.buffer(4).writeInt(1);
        assertThat(a.ctx.sendRealTime(null, TYPE, noLink, 0)).isFalse();
        assertThat(noLink.refCnt()).isZero();
        assertThatThrownBy(() -> a.ctx.receiveRealTime(PLAIN, (l, body, d, r) -> {}))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theMonitorCountsLossLateDuplicatesAndRecoveries() {
        RealTimeMonitor m = new RealTimeMonitor(64);
        assertThat(m.onPacket(0, 0, 10 * MS, false, false)).isTrue();
        assertThat(m.onPacket(2, 40 * MS, 50 * MS, false, false)).isTrue();
        assertThat(m.onPacket(1, 20 * MS, 90 * MS, true, true)).isTrue();
        assertThat(m.onPacket(1, 20 * MS, 95 * MS, true, true)).as("a duplicate").isFalse();
        assertThat(m.onPacket(4, 80 * MS, 90 * MS, false, false)).isTrue();
        RealTimeStatistics s = m.statistics();
        assertThat(s.received()).isEqualTo(4);
        assertThat(s.lost()).as("3 is missing").isEqualTo(1);
        assertThat(s.late()).isEqualTo(1);
        assertThat(s.recovered()).isEqualTo(1);
        assertThat(s.duplicates()).isEqualTo(1);
        assertThat(s.minDelayNanos()).isEqualTo(10 * MS);
        assertThat(s.maxDelayNanos()).isEqualTo(70 * MS);
        assertThat(s.lossRate()).isEqualTo(0.2);
        assertThat(s.missedRate()).isEqualTo(0.4);
        assertThat(s.jitterNanos()).isGreaterThan(0);
    }
}
