package net.hopwise.overlay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.unix.SegmentedDatagramPacket;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.Errors;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Writes a node's outgoing datagrams, gathering runs of equal-size datagrams to one address into a
 * single UDP GSO send ({@code UDP_SEGMENT}): the kernel then walks its send path once for the whole
 * run instead of once per datagram, and a receiver with {@code UDP_GRO} gets the run in one read.
 * The datagrams on the wire are the same as without it; only the system calls and kernel work per
 * datagram go.
 *
 * <p>A run is every datagram to one address in a row, all of one size except possibly a shorter
 * last one, at most {@link #MAX_SEGMENTS} and {@link #MAX_RUN_BYTES}. Order is kept: a datagram that
 * does not fit the open run writes the run out first. The segments are not copied: the run is a
 * composite of the datagrams' own buffers. Runs go out on {@link #writeOut()}, which the node calls
 * before every flush, so nothing waits longer than the loop turn that produced it.
 *
 * <p>Addresses for which {@code bypass} holds (impaired links: the impairment handler decides per
 * datagram) get plain writes. When the kernel refuses a segmented send (a device without checksum
 * offload answers EIO, an old kernel EINVAL) segmentation is switched off for good and the run's
 * datagrams are lost, as a best-effort send can be; reliable channels resend theirs.
 *
 * <p>Event-loop confined, like the rest of the node's state.
 */
final class DatagramRuns {
    /** The kernel's limit on segments per send in Linux before 6.9 ({@code UDP_MAX_SEGMENTS}). */
    static final int MAX_SEGMENTS = 64;
    /** Payload of one send: under the 65,507 bytes a UDP datagram over IPv4 can carry. */
    static final int MAX_RUN_BYTES = 65_000;

    private static final System.Logger LOG = System.getLogger(DatagramRuns.class.getName());

    private final Channel channel;
    private final Predicate<InetSocketAddress> bypass;
    private final ByteBuf[] segments = new ByteBuf[MAX_SEGMENTS];
    private final ChannelFutureListener onSegmentedWrite = this::onSegmentedWrite;
    private boolean segmenting;
    private InetSocketAddress to;
    private int count;
    private int segmentSize;
    private int maxSegments;
    private int bytes;
    private boolean shortTail;
    private long segmentedSends;
    private long segmentedDatagrams;

    /**
     * @param segment whether to gather runs at all (the channel must be an epoll channel on a kernel
     *     with UDP GSO)
     * @param bypass addresses whose datagrams are written one by one
     */
    DatagramRuns(Channel channel, boolean segment, Predicate<InetSocketAddress> bypass) {
        this.channel = channel;
        this.segmenting = segment;
        this.bypass = bypass;
    }

    /** Whether segmented sends are available and not switched off after a failure. */
    static boolean supported(Channel channel) {
        return channel instanceof io.netty.channel.epoll.EpollDatagramChannel
                && io.netty.channel.epoll.EpollDatagramChannel.isSegmentedDatagramPacketSupported();
    }

    /** Takes ownership of {@code datagram} and writes it now or with its run. */
    void write(InetSocketAddress address, ByteBuf datagram) {
        if (!segmenting) {
            channel.write(new DatagramPacket(datagram, address), channel.voidPromise());
            return;
        }
        int size = datagram.readableBytes();
        if (count > 0 && !fits(address, size)) {
            writeOut();
        }
        if (count == 0) {
            if (bypass.test(address)) {
                channel.write(new DatagramPacket(datagram, address), channel.voidPromise());
                return;
            }
            to = address;
            segmentSize = size;
            maxSegments = Math.max(1, Math.min(MAX_SEGMENTS, MAX_RUN_BYTES / size));
        }
        segments[count++] = datagram;
        bytes += size;
        shortTail = size < segmentSize;
    }

    private boolean fits(InetSocketAddress address, int size) {
        return !shortTail && size <= segmentSize && count < maxSegments && bytes + size <= MAX_RUN_BYTES
                && (address == to || address.equals(to));
    }

    /** Writes the open run, if any; call before flushing the channel. */
    void writeOut() {
        if (count == 0) {
            return;
        }
        if (count == 1) {
            channel.write(new DatagramPacket(segments[0], to), channel.voidPromise());
        } else {
            CompositeByteBuf run = channel.alloc().compositeDirectBuffer(count);
            for (int i = 0; i < count; i++) {
                run.addComponent(true, segments[i]);
            }
            segmentedSends++;
            segmentedDatagrams += count;
            ChannelFuture f = channel.write(new SegmentedDatagramPacket(run, segmentSize, to));
            f.addListener(onSegmentedWrite);
        }
        Arrays.fill(segments, 0, count, null);
        count = 0;
        bytes = 0;
        shortTail = false;
        to = null;
    }

    /** Releases a run not written (the node is stopping). */
    void discard() {
        for (int i = 0; i < count; i++) {
            segments[i].release();
            segments[i] = null;
        }
        count = 0;
        bytes = 0;
        shortTail = false;
        to = null;
    }

    /** Segmented sends so far (each one system call for several datagrams). */
    long segmentedSends() {
        return segmentedSends;
    }

    /** Datagrams that left in segmented sends. */
    long segmentedDatagrams() {
        return segmentedDatagrams;
    }

    /** Whether runs are still being gathered. */
    boolean segmenting() {
        return segmenting;
    }

    private void onSegmentedWrite(ChannelFuture f) {
        Throwable cause = f.cause();
        if (cause == null || !segmenting) {
            return;
        }
        if (cause instanceof UnsupportedOperationException || (cause instanceof Errors.NativeIoException e
                && (e.expectedErr() == -5 /* EIO */ || e.expectedErr() == -22 /* EINVAL */))) {
            segmenting = false;
            LOG.log(System.Logger.Level.INFO, "UDP segmentation offload refused on " + channel.localAddress()
                    + " (" + cause.getMessage() + "); sending datagrams one by one from now on");
        }
    }
}
