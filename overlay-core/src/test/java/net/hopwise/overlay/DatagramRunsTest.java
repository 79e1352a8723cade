package net.hopwise.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.SegmentedDatagramPacket;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How a node gathers its outgoing datagrams into UDP GSO runs, seen on an {@link EmbeddedChannel}
 * (which takes segmented packets as they are): which datagrams share a send, in what order they
 * leave, and what happens when the kernel refuses a segmented send. Every datagram carries its
 * number in its first byte, so order and content are checked after the writes.
 */
class DatagramRunsTest {
    private static final InetSocketAddress B = new InetSocketAddress("127.0.0.1", 9001);
    private static final InetSocketAddress C = new InetSocketAddress("127.0.0.1", 9002);

    private EmbeddedChannel channel;
    private int next;

    @BeforeEach
    void requireGso() {
        // The segmented packet type itself refuses to exist where the kernel has no UDP GSO.
        assumeTrue(io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported(), "UDP GSO (epoll) unavailable");
        channel = new EmbeddedChannel();
        next = 0;
    }

    @AfterAll
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    private ByteBuf datagram(int size) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(size);
        b.writeByte(next++);
        b.writeZero(size - 1);
        return b;
    }

    /** One datagram as it left: destination, the numbers of the datagrams in it, segment size. */
    private record Sent(InetSocketAddress to, List<Integer> numbers, int segmentSize) {}

    private List<Sent> sent() {
        List<Sent> out = new ArrayList<>();
        for (Object m; (m = channel.readOutbound()) != null; ) {
            DatagramPacket p = (DatagramPacket) m;
            ByteBuf content = p.content();
            List<Integer> numbers = new ArrayList<>();
            int segment = p instanceof SegmentedDatagramPacket s ? s.segmentSize() : content.readableBytes();
            for (int at = content.readerIndex(); at < content.writerIndex(); at += segment) {
                numbers.add((int) content.getByte(at));
            }
            out.add(new Sent(p.recipient(), numbers, p instanceof SegmentedDatagramPacket ? segment : 0));
            p.release();
        }
        return out;
    }

    @Test
    void equalDatagramsToOneAddressLeaveInOneSendAndADifferentDestinationStartsAnother() {
        DatagramRuns runs = new DatagramRuns(channel, true, a -> false);
        for (int i = 0; i < 5; i++) {
            runs.write(B, datagram(1000));
        }
        runs.write(C, datagram(1000));
        runs.write(C, datagram(1000));
        runs.write(B, datagram(1000));
        runs.writeOut();
        channel.flush();

        assertThat(sent()).containsExactly(
                new Sent(B, List.of(0, 1, 2, 3, 4), 1000),
                new Sent(C, List.of(5, 6), 1000),
                new Sent(B, List.of(7), 0));
        assertThat(runs.segmentedSends()).isEqualTo(2);
        assertThat(runs.segmentedDatagrams()).isEqualTo(7);
    }

    @Test
    void aShorterDatagramEndsItsRunAndALongerOneStartsANewRun() {
        DatagramRuns runs = new DatagramRuns(channel, true, a -> false);
        runs.write(B, datagram(1200));
        runs.write(B, datagram(1200));
        runs.write(B, datagram(700)); // the short tail of a fragmented message
        runs.write(B, datagram(1200));
        runs.write(B, datagram(1300));
        runs.write(B, datagram(1300));
        runs.writeOut();
        channel.flush();

        assertThat(sent()).containsExactly(
                new Sent(B, List.of(0, 1, 2), 1200),
                new Sent(B, List.of(3), 0),
                new Sent(B, List.of(4, 5), 1300));
    }

    @Test
    void aRunStopsAtTheSegmentLimitAndTheByteLimit() {
        DatagramRuns runs = new DatagramRuns(channel, true, a -> false);
        for (int i = 0; i < DatagramRuns.MAX_SEGMENTS + 1; i++) {
            runs.write(B, datagram(100));
        }
        for (int i = 0; i < 62; i++) {
            runs.write(C, datagram(1058));
        }
        runs.writeOut();
        channel.flush();

        List<Sent> sent = sent();
        assertThat(sent).extracting(s -> s.numbers().size()).containsExactly(DatagramRuns.MAX_SEGMENTS, 1, 61, 1);
        assertThat(61 * 1058).isLessThanOrEqualTo(DatagramRuns.MAX_RUN_BYTES);
        List<Integer> order = new ArrayList<>();
        sent.forEach(s -> order.addAll(s.numbers()));
        assertThat(order).isSorted().hasSize(DatagramRuns.MAX_SEGMENTS + 1 + 62);
    }

    @Test
    void impairedAddressesAndSwitchedOffRunsGetOneWritePerDatagram() {
        DatagramRuns bypassed = new DatagramRuns(channel, true, Set.of(B)::contains);
        bypassed.write(B, datagram(500));
        bypassed.write(B, datagram(500));
        bypassed.write(C, datagram(500));
        bypassed.write(C, datagram(500));
        bypassed.writeOut();
        DatagramRuns off = new DatagramRuns(channel, false, a -> false);
        off.write(C, datagram(500));
        off.write(C, datagram(500));
        off.writeOut();
        channel.flush();

        assertThat(sent()).containsExactly(
                new Sent(B, List.of(0), 0), new Sent(B, List.of(1), 0),
                new Sent(C, List.of(2, 3), 500),
                new Sent(C, List.of(4), 0), new Sent(C, List.of(5), 0));
        assertThat(off.segmentedSends()).isZero();
    }

    @Test
    void aRefusedSegmentedSendSwitchesSegmentationOffForGood() {
        channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                if (msg instanceof SegmentedDatagramPacket p) {
                    p.release();
                    // What a device without checksum offload answers: EIO.
                    promise.setFailure(new Errors.NativeIoException("sendmmsg", -5));
                    return;
                }
                ctx.write(msg, promise);
            }
        });
        DatagramRuns runs = new DatagramRuns(channel, true, a -> false);
        runs.write(B, datagram(800));
        runs.write(B, datagram(800));
        runs.writeOut();
        channel.flush();
        assertThat(runs.segmenting()).isFalse();

        runs.write(B, datagram(800));
        runs.write(B, datagram(800));
        runs.writeOut();
        channel.flush();
        assertThat(sent()).containsExactly(new Sent(B, List.of(2), 0), new Sent(B, List.of(3), 0));
    }

    @Test
    void anotherWriteFailureKeepsSegmenting() {
        channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ((DatagramPacket) msg).release();
                promise.setFailure(new Errors.NativeIoException("sendmmsg", -105)); // ENOBUFS: passing
            }
        });
        DatagramRuns runs = new DatagramRuns(channel, true, a -> false);
        runs.write(B, datagram(800));
        runs.write(B, datagram(800));
        runs.writeOut();
        channel.flush();

        assertThat(runs.segmenting()).isTrue();
    }

    @Test
    void discardReleasesTheOpenRun() {
        DatagramRuns runs = new DatagramRuns(channel, true, a -> false);
        ByteBuf first = datagram(300);
        ByteBuf second = datagram(300);
        runs.write(B, first);
        runs.write(B, second);
        runs.discard();
        runs.writeOut();
        channel.flush();

        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(sent()).isEmpty();
    }
}
