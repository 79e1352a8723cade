package net.hopwise.overlay.impair;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The handler on an {@code EmbeddedChannel} with frozen time: every delay is virtual, advanced by the
 * test, so nothing sleeps and "not before" is checked to the nanosecond.
 */
class ImpairmentHandlerTest {
    private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 7000);
    private static final InetSocketAddress A = new InetSocketAddress("127.0.0.2", 7001);
    private static final InetSocketAddress B = new InetSocketAddress("127.0.0.3", 7002);
    private static final int SIZE = 100;
    // Pooled, because Netty's leak detector does not track unpooled heap buffers.
    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private final List<String> drops = new ArrayList<>();
    private final ImpairmentHandler handler =
            new ImpairmentHandler(2024, (remote, direction, bytes) -> drops.add(remote + " " + direction + " " + bytes));
    private final EmbeddedChannel channel = new EmbeddedChannel(handler);

    ImpairmentHandlerTest() {
        channel.freezeTime();
    }

    @AfterEach
    void releaseEverything() {
        channel.finishAndReleaseAll();
    }

    @Test
    void unimpairedAddressesPassStraightThrough() {
        handler.set(A, Direction.INBOUND, delayed(50));
        handler.set(A, Direction.OUTBOUND, delayed(50));

        DatagramPacket in = from(B, 1);
        channel.writeInbound(in);
        assertThat((Object) channel.readInbound()).isSameAs(in);
        DatagramPacket out = to(B, 2);
        ChannelFuture sent = channel.writeAndFlush(out);
        assertThat((Object) channel.readOutbound()).isSameAs(out);
        assertThat(sent.isSuccess()).isTrue();
        // Not datagrams at all: not ours to judge.
        ByteBuf raw = ALLOC.buffer(4).writeInt(9);
        channel.writeInbound(raw);
        assertThat((Object) channel.readInbound()).isSameAs(raw);

        assertThat(handler.heldPackets()).isZero();
        in.release();
        out.release();
        raw.release();
    }

    @Test
    void inboundDelayReleasesAtTheVirtualDeadlineNotBefore() {
        handler.set(A, Direction.INBOUND, delayed(50));
        channel.writeInbound(from(A, 1));
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(handler.heldPackets()).isEqualTo(1);

        advance(49);
        channel.advanceTimeBy(999_999, NANOSECONDS);
        channel.runScheduledPendingTasks();
        assertThat((Object) channel.readInbound()).isNull();

        channel.advanceTimeBy(1, NANOSECONDS);
        channel.runScheduledPendingTasks();
        DatagramPacket delivered = channel.readInbound();
        assertThat(sequence(delivered)).isEqualTo(1);
        assertThat(delivered.sender()).isEqualTo(A);
        assertThat(handler.heldPackets()).isZero();
        delivered.release();
    }

    @Test
    void outboundDelayCompletesThePromiseWhenWritten() {
        handler.set(A, Direction.OUTBOUND, delayed(20));
        ChannelFuture sent = channel.writeAndFlush(to(A, 7));
        assertThat(sent.isDone()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();

        advance(19);
        assertThat(sent.isDone()).isFalse();
        advance(1);
        assertThat(sent.isSuccess()).isTrue();
        DatagramPacket written = channel.readOutbound();
        assertThat(sequence(written)).isEqualTo(7);
        assertThat(written.recipient()).isEqualTo(A);
        written.release();
    }

    @Test
    void directionsAndAddressesAreImpairedIndependently() {
        handler.set(A, Direction.OUTBOUND, delayed(30));
        handler.set(B, Direction.INBOUND, delayed(10));

        DatagramPacket inFromA = from(A, 1);
        channel.writeInbound(inFromA);
        assertThat((Object) channel.readInbound()).isSameAs(inFromA);
        DatagramPacket outToB = to(B, 2);
        channel.writeAndFlush(outToB);
        assertThat((Object) channel.readOutbound()).isSameAs(outToB);

        channel.writeInbound(from(B, 3));
        channel.writeAndFlush(to(A, 4));
        advance(10);
        DatagramPacket inFromB = channel.readInbound();
        assertThat(sequence(inFromB)).isEqualTo(3);
        assertThat((Object) channel.readOutbound()).isNull();
        advance(20);
        DatagramPacket outToA = channel.readOutbound();
        assertThat(sequence(outToA)).isEqualTo(4);

        inFromA.release();
        outToB.release();
        inFromB.release();
        outToA.release();
    }

    @Test
    void droppedPacketsAreReleasedCountedAndReportedAndTheirPromisesSucceed() {
        ImpairmentConfig allLost = ImpairmentConfig.builder().bernoulliLoss(1).build();
        handler.set(A, Direction.INBOUND, allLost);
        handler.set(A, Direction.OUTBOUND, allLost);

        DatagramPacket in = from(A, 1);
        channel.writeInbound(in);
        DatagramPacket out = to(A, 2);
        ChannelFuture sent = channel.writeAndFlush(out);

        assertThat((Object) channel.readInbound()).isNull();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(in.refCnt()).isZero();
        assertThat(out.refCnt()).isZero();
        assertThat(sent.isSuccess()).isTrue();
        assertThat(handler.dropped()).isEqualTo(2);
        assertThat(drops).containsExactly(A + " INBOUND " + SIZE, A + " OUTBOUND " + SIZE);
    }

    @Test
    void queueOverflowDropsAreReleasedToo() {
        // 100 bytes at 8 kbit/s: 100 ms each; a queue of 2 takes two of a burst of five.
        handler.set(A, Direction.OUTBOUND,
                ImpairmentConfig.builder().rateBitsPerSecond(8_000).queueLimitPackets(2).build());
        List<DatagramPacket> burst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            DatagramPacket p = to(A, i);
            burst.add(p);
            channel.write(p);
        }
        channel.flush();
        assertThat(handler.dropped()).isEqualTo(3);
        assertThat(burst.subList(2, 5)).allSatisfy(p -> assertThat(p.refCnt()).isZero());

        advance(100);
        DatagramPacket first = channel.readOutbound();
        assertThat(sequence(first)).isZero();
        assertThat((Object) channel.readOutbound()).isNull();
        advance(100);
        DatagramPacket second = channel.readOutbound();
        assertThat(sequence(second)).isEqualTo(1);
        first.release();
        second.release();
    }

    @Test
    void inboundDuplicatesAreIndependentDatagrams() {
        handler.set(A, Direction.INBOUND, ImpairmentConfig.builder().duplicateProbability(1).build());
        DatagramPacket original = from(A, 5);
        channel.writeInbound(original);

        DatagramPacket first = channel.readInbound();
        DatagramPacket second = channel.readInbound();
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(first).isSameAs(original);
        assertThat(second.content()).isNotSameAs(first.content()).isEqualTo(first.content());
        assertThat(second.sender()).isEqualTo(A);
        assertThat(second.recipient()).isEqualTo(LOCAL);
        assertThat(first.refCnt()).isEqualTo(1);
        assertThat(second.refCnt()).isEqualTo(1);
        first.release();
        second.release();
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
    }

    @Test
    void outboundDuplicatesShareTheBytesWithOneReferenceEach() {
        handler.set(A, Direction.OUTBOUND, ImpairmentConfig.builder().duplicateProbability(1).build());
        DatagramPacket original = to(A, 6);
        ChannelFuture sent = channel.writeAndFlush(original);
        assertThat(sent.isSuccess()).isTrue();

        DatagramPacket first = channel.readOutbound();
        DatagramPacket second = channel.readOutbound();
        assertThat(first).isSameAs(original);
        assertThat(sequence(second)).isEqualTo(6);
        assertThat(second.recipient()).isEqualTo(A);
        assertThat(first.refCnt()).isEqualTo(2);
        first.release();
        assertThat(second.refCnt()).isEqualTo(1);
        second.release();
        assertThat(original.refCnt()).isZero();
    }

    @Test
    void delayedDuplicatesArriveTogetherAfterTheDelay() {
        handler.set(A, Direction.INBOUND,
                ImpairmentConfig.builder().duplicateProbability(1).delay(Duration.ofMillis(5)).build());
        channel.writeInbound(from(A, 8));
        assertThat(handler.heldPackets()).isEqualTo(2);
        advance(5);
        DatagramPacket first = channel.readInbound();
        DatagramPacket second = channel.readInbound();
        assertThat(sequence(first)).isEqualTo(8);
        assertThat(sequence(second)).isEqualTo(8);
        assertThat(first.refCnt()).isEqualTo(1);
        assertThat(second.refCnt()).isEqualTo(1);
        first.release();
        second.release();
    }

    @Test
    void jitterKeepsOrderThroughTheHandler() {
        handler.set(A, Direction.INBOUND, ImpairmentConfig.builder()
                .delay(Duration.ofMillis(10))
                .jitter(Duration.ofMillis(10))
                .build());
        for (int i = 0; i < 200; i++) {
            channel.writeInbound(from(A, i));
            advance(1);
        }
        advance(30);
        List<Integer> order = drainInbound();
        assertThat(order).hasSize(200).isSorted();
    }

    @Test
    void reorderingLetsLaterPacketsOvertake() {
        handler.set(A, Direction.OUTBOUND, ImpairmentConfig.builder()
                .delay(Duration.ofMillis(10))
                .reorder(0.2, Duration.ofMillis(5))
                .build());
        for (int i = 0; i < 200; i++) {
            channel.writeAndFlush(to(A, i));
            advance(1);
        }
        advance(30);
        List<Integer> order = new ArrayList<>();
        DatagramPacket p;
        while ((p = channel.readOutbound()) != null) {
            order.add(sequence(p));
            p.release();
        }
        assertThat(order).hasSize(200).containsExactlyInAnyOrderElementsOf(range(200)).isNotEqualTo(range(200));
    }

    @Test
    void rateLimitSpacesPacketsOnTheVirtualClock() {
        // 100 bytes at 80 kbit/s: 10 ms each.
        handler.set(A, Direction.OUTBOUND, ImpairmentConfig.builder().rateBitsPerSecond(80_000).build());
        for (int i = 0; i < 3; i++) {
            channel.write(to(A, i));
        }
        channel.flush();
        for (int i = 0; i < 3; i++) {
            advance(9);
            assertThat((Object) channel.readOutbound()).isNull();
            advance(1);
            DatagramPacket p = channel.readOutbound();
            assertThat(sequence(p)).isEqualTo(i);
            p.release();
        }
    }

    @Test
    void lossOnlyImpairmentPassesSurvivorsInlineWithoutHolding() {
        handler.set(A, Direction.INBOUND, ImpairmentConfig.builder().bernoulliLoss(0.5).build());
        int delivered = 0;
        for (int i = 0; i < 100; i++) {
            DatagramPacket p = from(A, i);
            channel.writeInbound(p);
            assertThat(handler.heldPackets()).isZero();
            DatagramPacket got = channel.readInbound();
            if (got != null) {
                assertThat(got).isSameAs(p);
                got.release();
                delivered++;
            } else {
                assertThat(p.refCnt()).isZero();
            }
        }
        assertThat(delivered + handler.dropped()).isEqualTo(100);
        assertThat(delivered).isBetween(20, 80);
    }

    @Test
    void closingTheChannelReleasesHeldPacketsAndFailsHeldWrites() {
        handler.set(A, Direction.INBOUND, delayed(100));
        handler.set(A, Direction.OUTBOUND, delayed(100));
        DatagramPacket in = from(A, 1);
        DatagramPacket out = to(A, 2);
        channel.writeInbound(in);
        ChannelFuture sent = channel.writeAndFlush(out);
        assertThat(handler.heldPackets()).isEqualTo(2);

        channel.close();
        assertThat(in.refCnt()).isZero();
        assertThat(out.refCnt()).isZero();
        assertThat(sent.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(handler.heldPackets()).isZero();
        advance(200);
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(handler.dropped()).isZero();
    }

    @Test
    void removingTheHandlerReleasesHeldPackets() {
        handler.set(A, Direction.INBOUND, delayed(100));
        DatagramPacket in = from(A, 1);
        channel.writeInbound(in);
        channel.pipeline().remove(handler);
        assertThat(in.refCnt()).isZero();
        advance(200);
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void noneRemovesTheImpairmentAndLaterPacketsPassAtOnce() {
        handler.set(A, Direction.INBOUND, delayed(50));
        assertThat(handler.get(A, Direction.INBOUND)).isEqualTo(delayed(50));
        assertThat(handler.get(A, Direction.OUTBOUND)).isEqualTo(ImpairmentConfig.none());
        channel.writeInbound(from(A, 1));

        handler.set(A, Direction.INBOUND, ImpairmentConfig.none());
        assertThat(handler.get(A, Direction.INBOUND).isNone()).isTrue();
        assertThat(handler.snapshot()).isEmpty();
        DatagramPacket fresh = from(A, 2);
        channel.writeInbound(fresh);
        assertThat((Object) channel.readInbound()).isSameAs(fresh);
        fresh.release();
        // The one already held keeps its departure.
        advance(50);
        DatagramPacket held = channel.readInbound();
        assertThat(sequence(held)).isEqualTo(1);
        held.release();
    }

    @Test
    void reconfiguringKeepsThePathAndAppliesToTheNextPacket() {
        handler.set(A, Direction.OUTBOUND, delayed(50));
        channel.writeAndFlush(to(A, 1));
        handler.set(A, Direction.OUTBOUND, delayed(10));
        channel.writeAndFlush(to(A, 2));
        // The second may not overtake the first, so both leave at 50 ms.
        advance(49);
        assertThat((Object) channel.readOutbound()).isNull();
        advance(1);
        DatagramPacket first = channel.readOutbound();
        DatagramPacket second = channel.readOutbound();
        assertThat(sequence(first)).isEqualTo(1);
        assertThat(sequence(second)).isEqualTo(2);
        first.release();
        second.release();
    }

    @Test
    void aPacketDueNowWaitsBehindAnOverdueHeldOne() {
        // On a busy loop a timer can fire late; a packet due at once must not jump the held one.
        handler.set(A, Direction.INBOUND, delayed(10));
        channel.writeInbound(from(A, 1));
        channel.advanceTimeBy(10, MILLISECONDS);
        handler.set(A, Direction.INBOUND, ImpairmentConfig.builder().duplicateProbability(1e-9).build());
        channel.writeInbound(from(A, 2));
        channel.runScheduledPendingTasks();
        assertThat(drainInbound()).containsExactly(1, 2);
    }

    @Test
    void clearSnapshotAndValidation() {
        handler.set(A, Direction.INBOUND, delayed(1));
        handler.set(A, Direction.OUTBOUND, delayed(2));
        handler.set(B, Direction.OUTBOUND, delayed(3));
        assertThat(handler.snapshot()).isEqualTo(Map.of(
                A, Map.of(Direction.INBOUND, delayed(1), Direction.OUTBOUND, delayed(2)),
                B, Map.of(Direction.OUTBOUND, delayed(3))));
        handler.clear(A);
        assertThat(handler.snapshot()).isEqualTo(Map.of(B, Map.of(Direction.OUTBOUND, delayed(3))));
        assertThatThrownBy(() -> handler.set(InetSocketAddress.createUnresolved("peer.example", 1),
                        Direction.INBOUND, delayed(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unresolved");
    }

    @Test
    void setFromAnotherThreadTakesEffectOnTheLoop() throws InterruptedException {
        Thread admin = new Thread(() -> handler.set(A, Direction.INBOUND, delayed(5)));
        admin.start();
        admin.join();
        channel.writeInbound(from(A, 1));
        assertThat((Object) channel.readInbound()).isNull();
        advance(5);
        DatagramPacket p = channel.readInbound();
        assertThat(sequence(p)).isEqualTo(1);
        p.release();
    }

    @Test
    void modelSeedsAreStableAndDistinctPerAddressAndDirection() {
        long a = ImpairmentHandler.seedFor(1, A, Direction.INBOUND);
        assertThat(ImpairmentHandler.seedFor(1, new InetSocketAddress("127.0.0.2", 7001), Direction.INBOUND))
                .isEqualTo(a);
        assertThat(ImpairmentHandler.seedFor(1, A, Direction.OUTBOUND)).isNotEqualTo(a);
        assertThat(ImpairmentHandler.seedFor(2, A, Direction.INBOUND)).isNotEqualTo(a);
        assertThat(ImpairmentHandler.seedFor(1, new InetSocketAddress("127.0.0.2", 7002), Direction.INBOUND))
                .isNotEqualTo(a);
    }

    @Test
    void sameSeedSameTrafficSameFateAcrossHandlers() {
        ImpairmentConfig lossy = ImpairmentConfig.builder().bernoulliLoss(0.3).build();
        handler.set(A, Direction.INBOUND, lossy);
        ImpairmentHandler twin = new ImpairmentHandler(2024);
        twin.set(A, Direction.INBOUND, lossy);
        EmbeddedChannel other = new EmbeddedChannel(twin);
        try {
            for (int i = 0; i < 200; i++) {
                channel.writeInbound(from(A, i));
                other.writeInbound(from(A, i));
            }
            assertThat(drainInbound()).isEqualTo(drainInbound(other));
        } finally {
            other.finishAndReleaseAll();
        }
    }

    private static ImpairmentConfig delayed(long millis) {
        return ImpairmentConfig.builder().delay(Duration.ofMillis(millis)).build();
    }

    private static DatagramPacket from(InetSocketAddress sender, int sequence) {
        return new DatagramPacket(payload(sequence), LOCAL, sender);
    }

    private static DatagramPacket to(InetSocketAddress recipient, int sequence) {
        return new DatagramPacket(payload(sequence), recipient, LOCAL);
    }

    private static ByteBuf payload(int sequence) {
        return ALLOC.buffer(SIZE).writeInt(sequence).writeZero(SIZE - 4);
    }

    private static int sequence(DatagramPacket packet) {
        assertThat(packet).isNotNull();
        return packet.content().getInt(packet.content().readerIndex());
    }

    private void advance(long millis) {
        channel.advanceTimeBy(millis, MILLISECONDS);
        channel.runScheduledPendingTasks();
    }

    private List<Integer> drainInbound() {
        return drainInbound(channel);
    }

    private static List<Integer> drainInbound(EmbeddedChannel ch) {
        List<Integer> order = new ArrayList<>();
        DatagramPacket p;
        while ((p = ch.readInbound()) != null) {
            order.add(sequence(p));
            p.release();
        }
        return order;
    }

    private static List<Integer> range(int n) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            r.add(i);
        }
        return r;
    }
}
