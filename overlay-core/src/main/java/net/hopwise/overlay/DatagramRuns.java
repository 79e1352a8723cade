package net.hopwise.overlay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.Errors;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
 * does not fit the open run closes it and starts the next, and closed runs go to the channel in order. The segments are not copied: the run is a
 * composite of the datagrams' own buffers. Runs go out on {@link #writeOut()}, which the node calls
 * before every flush, so nothing waits longer than the loop turn that produced it.
 *
 * <p>Addresses for which {@code bypass} holds (impaired links: the impairment handler decides per
 * datagram) get plain writes. When the kernel refuses a segmented send (a device without checksum
 * offload answers EIO, an old kernel EINVAL) segmentation is switched off for good and the run's
 * datagrams are lost, as a best-effort send can be; reliable channels resend theirs.
 *
 * <p>Work that datagram stages handed aside on this loop ({@link
 * net.hopwise.overlay.spi.DatagramStage.Aside}) is finished before any datagram is written to the
 * channel, so the socket sees only finished datagrams, in the order the node wrote them.
 *
 * <p>Event-loop confined, like the rest of the node's state.
 */
final class DatagramRuns {
    /** The kernel's limit on segments per send in Linux before 6.9 ({@code UDP_MAX_SEGMENTS}). */
    static final int MAX_SEGMENTS = 64;
    /** Payload of one send: under the 65,507 bytes a UDP datagram over IPv4 can carry. */
    static final int MAX_RUN_BYTES = 65_000;

    private static final System.Logger LOG = System.getLogger(DatagramRuns.class.getName());

    /**
     * Runs closed and not yet written at most: about two loop batches of full datagrams. Runs wait
     * for {@link #writeOut()} rather than go to the channel as they close, so that a seal handed
     * aside has the whole batch to finish in beside the loop; the bound keeps what waits small.
     */
    static final int MAX_CLOSED_RUNS = 32;

    private final Channel channel;
    private final Predicate<InetSocketAddress> bypass;
    private final ChannelFutureListener onSegmentedWrite = this::onSegmentedWrite;
    private final ArrayList<Run> closed = new ArrayList<>();
    private final ArrayDeque<Run> spare = new ArrayDeque<>();
    private Run open;
    private boolean segmenting;
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
        return channel instanceof io.netty.channel.epoll.EpollDatagramChannel && SegmentedDatagramPacket.isSupported();
    }

    /** Takes ownership of {@code datagram} and writes it now or with its run. */
    void write(InetSocketAddress address, ByteBuf datagram) {
        if (!segmenting) {
            DatagramHelper.finishOnThisThread();
            channel.write(new DatagramPacket(datagram, address), channel.voidPromise());
            return;
        }
        int size = datagram.readableBytes();
        if (open != null && !open.fits(address, size)) {
            closed.add(open);
            open = null;
            if (closed.size() >= MAX_CLOSED_RUNS) {
                writeOut();
            }
        }
        if (open == null) {
            if (bypass.test(address)) {
                writeOut(); // what came before leaves before it
                channel.write(new DatagramPacket(datagram, address), channel.voidPromise());
                return;
            }
            open = spare.isEmpty() ? new Run() : spare.poll();
            open.start(address, size);
        }
        open.add(datagram, size);
    }

    /** Writes the runs waiting, the open one too; call before flushing the channel. */
    void writeOut() {
        // Work a datagram stage handed aside (a seal) finishes before the socket sees any datagram.
        DatagramHelper.finishOnThisThread();
        for (int i = 0; i < closed.size(); i++) {
            emit(closed.get(i));
        }
        closed.clear();
        if (open != null) {
            emit(open);
            open = null;
        }
    }

    private void emit(Run run) {
        if (run.count == 1) {
            channel.write(new DatagramPacket(run.segments[0], run.to), channel.voidPromise());
        } else {
            CompositeByteBuf composite = channel.alloc().compositeDirectBuffer(run.count);
            for (int i = 0; i < run.count; i++) {
                composite.addComponent(true, run.segments[i]);
            }
            segmentedSends++;
            segmentedDatagrams += run.count;
            ChannelFuture f = channel.write(new SegmentedDatagramPacket(composite, run.segmentSize, run.to));
            f.addListener(onSegmentedWrite);
        }
        run.clear();
        spare.add(run);
    }

    /** Releases the runs not written (the node is stopping). */
    void discard() {
        DatagramHelper.finishOnThisThread(); // nothing may still write into a buffer released here
        if (open != null) {
            closed.add(open);
            open = null;
        }
        for (Run run : closed) {
            for (int i = 0; i < run.count; i++) {
                run.segments[i].release();
            }
            run.clear();
            spare.add(run);
        }
        closed.clear();
    }

    /** Datagrams to one address, all of one size but possibly a shorter last one. */
    private static final class Run {
        final ByteBuf[] segments = new ByteBuf[MAX_SEGMENTS];
        InetSocketAddress to;
        int count;
        int segmentSize;
        int maxSegments;
        int bytes;
        boolean shortTail;

        void start(InetSocketAddress address, int size) {
            to = address;
            segmentSize = size;
            maxSegments = Math.max(1, Math.min(MAX_SEGMENTS, MAX_RUN_BYTES / Math.max(1, size)));
        }

        void add(ByteBuf datagram, int size) {
            segments[count++] = datagram;
            bytes += size;
            shortTail = size < segmentSize;
        }

        boolean fits(InetSocketAddress address, int size) {
            return !shortTail && size <= segmentSize && count < maxSegments && bytes + size <= MAX_RUN_BYTES
                    && (address == to || address.equals(to));
        }

        void clear() {
            Arrays.fill(segments, 0, count, null);
            count = 0;
            bytes = 0;
            shortTail = false;
            to = null;
        }
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
