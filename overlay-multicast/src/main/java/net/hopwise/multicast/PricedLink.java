package net.hopwise.multicast;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.function.IntSupplier;

/**
 * One outgoing link under Cost-Benefit: the buffer the thesis prices (section 4.4: "if the reliability
 * window of the downstream link is full, the overlay node will buffer the packet") in front of a
 * loss-driven link channel whose window is capped at {@link CostBenefitConfig#linkWindowPackets()}, as
 * the thesis's ns-2 links were TCP agents with ns-2's default window of 20 packets. Sans-IO.
 *
 * <p>Why the channel is loss-driven and capped: the window is the link's reserve. While a client that
 * halved its rate spends less than the link carries, the packets in the window keep the link busy; a
 * Vegas window kept two to four packets queued beyond the path's own, so that a lone client's link
 * idled 10-40 ms after each halving (the chain S3 lost 1-2% of each link that way). Uncapped, a
 * loss-driven window overshoots in slow start against a link's long queue and halves with a
 * window's worth of bought packets behind it (S2's variant: a start-up peak of 194 packets); the cap
 * keeps the reserve to about a cap less the path's bandwidth-delay product, which a 50-packet queue
 * at the link holds without loss.
 *
 * <p>The price counts every packet the node holds for the link and has not sent: this buffer, the
 * channel's own (at most one packet), and the {@code others} queues (the node's reliable link channel,
 * which carries the reliable unicast sessions), sampled at each event of this link and each update.
 */
final class PricedLink {
    private final LinkChannel channel;
    private final int hardLimit;
    private final int windowCap;
    private final IntSupplier others;
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();
    private final QueueAverage average;
    private int peak;
    private long dropped;

    PricedLink(LinkChannel channel, int hardLimit, int windowCap, IntSupplier others, long nowNanos) {
        this.channel = channel;
        this.hardLimit = hardLimit;
        this.windowCap = windowCap;
        this.others = others;
        this.average = new QueueAverage(nowNanos);
    }

    /** Queues a group datagram and sends what the window allows; takes {@code body}. False when dropped at the hard limit. */
    boolean offer(ByteBuf body, long nowNanos) {
        if (held.size() + channel.buffered() >= hardLimit) {
            body.release();
            dropped++;
            return false;
        }
        held.add(body);
        feed(nowNanos);
        return true;
    }

    void onAck(ChannelAck ack, long nowNanos) {
        channel.onAck(ack, nowNanos);
        feed(nowNanos);
    }

    void onTimer(long nowNanos) {
        channel.onTimer(nowNanos);
        feed(nowNanos);
    }

    /** Hands the channel what its capped window takes now: only when it holds nothing unsent, so that the waiting is here. */
    private void feed(long nowNanos) {
        while (!held.isEmpty() && channel.buffered() == 0 && channel.inFlight() < windowCap) {
            if (!channel.offer(held.poll(), nowNanos)) {
                dropped++;
            }
        }
        sample(nowNanos);
    }

    private void sample(long nowNanos) {
        int queued = held.size() + channel.buffered() + Math.max(0, others.getAsInt());
        peak = Math.max(peak, queued);
        average.set(queued, nowNanos);
    }

    long nextDeadlineNanos() {
        return channel.nextDeadlineNanos();
    }

    /** The average of every queue for this link since the last call, starting a new period. */
    double takeAverage(long nowNanos) {
        sample(nowNanos);
        return average.takeAverage(nowNanos);
    }

    /** Whether a queue for this link held a packet in the current period. */
    boolean hadQueue() {
        return average.hadQueue();
    }

    /** The longest the queues were since the last call. */
    int takePeak() {
        int p = peak;
        peak = average.current();
        return p;
    }

    boolean failed() {
        return channel.failed();
    }

    /** Packets held here or in the channel, sent or not. */
    int holding() {
        return held.size() + channel.buffered() + channel.inFlight();
    }

    int inFlight() {
        return channel.inFlight();
    }

    double window() {
        return Math.min(windowCap, channel.window());
    }

    long dropped() {
        return dropped + channel.dropped();
    }

    long resent() {
        return channel.resent();
    }

    void close() {
        held.forEach(ByteBuf::release);
        held.clear();
        channel.close();
    }
}
