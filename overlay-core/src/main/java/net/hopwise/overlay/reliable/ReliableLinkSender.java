package net.hopwise.overlay.reliable;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;

/**
 * The sending half of one link's reliable channel: selective repeat with cumulative and selective
 * acknowledgements, a retransmission timer from the RTT, and pluggable congestion control.
 *
 * <p>Packets wait in a bounded FIFO queue in front of the window; the window holds what was sent and
 * not yet acknowledged, at most {@link ReliableLinkConfig#sendWindow()} packets. Loss is detected the
 * way RACK does in packets: a packet still missing when one sent {@code reorderThreshold}
 * transmissions after it has been acknowledged is lost and is sent again, at once and ahead of new
 * packets; this also catches lost retransmissions. The congestion controller hears of at most one
 * congestion event per window of data (NewReno's recovery), and of every timeout, after which every
 * packet not yet acknowledged is sent again as the window allows.
 *
 * <p>Sans-IO and single-threaded: it takes acknowledgements and the time, and emits packets through
 * its {@link ReliableLinkOutput}.
 */
public final class ReliableLinkSender {
    private final ReliableLinkConfig config;
    private final ReliableLinkOutput output;
    private final CongestionController controller;
    private final RetransmissionTimer timer;
    private final ArrayDeque<ByteBuf> queue = new ArrayDeque<>();
    private final int window;
    private final int mask;
    private final ByteBuf[] packets;
    private final long[] transmitOrder;
    private final long[] sentAt;
    /** Bits per slot: acknowledged selectively, known lost (to send again), sent more than once. */
    private final byte[] state;
    private static final byte SACKED = 1;
    private static final byte LOST = 2;
    private static final byte RESENT = 4;

    private long epoch;
    /** Lowest sequence number not yet acknowledged. */
    private long base;
    /** Next sequence number to assign. */
    private long next;
    private long nextTransmitOrder = 1;
    private long highestDelivered;
    private long recoveryPoint;
    /** Sent, neither acknowledged nor known lost. */
    private int inFlight;
    /** Known lost, waiting to be sent again. */
    private int lost;
    private long deadline = Long.MAX_VALUE;

    private long packetsSent;
    private long retransmissions;
    private long lossEvents;
    private long timeouts;
    private long abandoned;

    public ReliableLinkSender(ReliableLinkConfig config, long epoch, ReliableLinkOutput output) {
        this.config = config;
        this.output = output;
        this.epoch = epoch;
        this.window = config.sendWindow();
        this.mask = window - 1;
        this.packets = new ByteBuf[window];
        this.transmitOrder = new long[window];
        this.sentAt = new long[window];
        this.state = new byte[window];
        this.controller = config.congestionControl().create(window);
        this.timer = new RetransmissionTimer(config.initialTimeout().toNanos(), config.minTimeout().toNanos(),
                config.maxTimeout().toNanos());
    }

    /** Whether the queue can take another packet. */
    public boolean hasRoom() {
        return queue.size() < config.queueLimit();
    }

    /**
     * Queues a packet and sends what the window allows. On success the sender owns {@code packet}
     * (it releases it once acknowledged or discarded); on false the caller keeps it.
     */
    public boolean offer(ByteBuf packet, long nowNanos) {
        if (!hasRoom()) {
            return false;
        }
        queue.add(packet);
        pump(nowNanos);
        return true;
    }

    /** The congestion level a packet joining the queue now is marked with (0-3). */
    public int congestionLevel() {
        return config.congestionLevel(queue.size());
    }

    /** Uses the hello protocol's RTT until acknowledgements give samples of the channel's own. */
    public void seedRtt(long rttNanos) {
        timer.seed(rttNanos);
    }

    /** Takes an acknowledgement from the receiver, then sends what the window allows. */
    public void onAck(LinkAck ack, long nowNanos) {
        if (ack.epoch() != epoch || next == base && lost == 0) {
            return;
        }
        long cumulative = base + (ack.cumulative() - (int) base);
        if (cumulative > next) {
            return; // acknowledges what was never sent: stale or forged
        }
        int newly = 0;
        long sample = -1;
        long delivered = highestDelivered;
        boolean windowLimited = !queue.isEmpty() || inFlight + lost >= controller.window() - 1;
        while (base < cumulative) {
            int i = (int) (base & mask);
            if ((state[i] & SACKED) == 0) {
                newly++;
                release(i);
                delivered = Math.max(delivered, transmitOrder[i]);
                if ((state[i] & RESENT) == 0) {
                    sample = nowNanos - sentAt[i];
                }
            }
            packets[i].release();
            packets[i] = null;
            state[i] = 0;
            base++;
        }
        int[] blocks = ack.blocks();
        for (int b = 0; b + 1 < blocks.length; b += 2) {
            long start = base + (blocks[b] - (int) base);
            long end = base + (blocks[b + 1] - (int) base);
            if (start < base || end > next || start >= end) {
                continue;
            }
            for (long s = start; s < end; s++) {
                int i = (int) (s & mask);
                if ((state[i] & SACKED) == 0) {
                    newly++;
                    release(i);
                    state[i] |= SACKED;
                    delivered = Math.max(delivered, transmitOrder[i]);
                    if ((state[i] & RESENT) == 0) {
                        sample = nowNanos - sentAt[i];
                    }
                }
            }
        }
        if (newly == 0) {
            return;
        }
        highestDelivered = delivered;
        timer.onSample(sample);
        timer.resetBackoff();
        detectLoss(nowNanos);
        if (highestDelivered > recoveryPoint) {
            controller.onAcknowledged(newly, sample, windowLimited, nowNanos);
        }
        deadline = inFlight + lost > 0 ? nowNanos + timer.timeoutNanos() : Long.MAX_VALUE;
        pump(nowNanos);
    }

    /** A slot leaves the pipe (acknowledged): it was either in flight or waiting as lost. */
    private void release(int i) {
        if ((state[i] & LOST) != 0) {
            state[i] &= ~LOST;
            lost--;
        } else {
            inFlight--;
        }
    }

    private void detectLoss(long nowNanos) {
        long threshold = highestDelivered - config.reorderThreshold();
        for (long s = base; s < next; s++) {
            int i = (int) (s & mask);
            byte st = state[i];
            if (transmitOrder[i] > threshold) {
                if ((st & RESENT) == 0) {
                    break; // first transmissions go out in sequence order: none later is older
                }
                continue;
            }
            if ((st & (SACKED | LOST)) != 0) {
                continue;
            }
            state[i] |= LOST;
            inFlight--;
            lost++;
            if (transmitOrder[i] > recoveryPoint) {
                lossEvents++;
                controller.onLoss(nowNanos);
                recoveryPoint = nextTransmitOrder - 1;
            }
        }
    }

    /** Runs the retransmission timer. */
    public void onTimer(long nowNanos) {
        if (nowNanos < deadline) {
            return;
        }
        if (inFlight + lost == 0) {
            deadline = Long.MAX_VALUE;
            return;
        }
        timeouts++;
        controller.onTimeout(nowNanos);
        timer.backOff();
        recoveryPoint = nextTransmitOrder - 1;
        for (long s = base; s < next; s++) {
            int i = (int) (s & mask);
            if ((state[i] & (SACKED | LOST)) == 0) {
                state[i] |= LOST;
                inFlight--;
                lost++;
            }
        }
        deadline = nowNanos + timer.timeoutNanos();
        pump(nowNanos);
    }

    public long nextDeadlineNanos() {
        return deadline;
    }

    /**
     * Without hop-by-hop recovery, lost packets are given up: treated as delivered, and the window's
     * base moves past them; the receiver follows the base carried by the next packet.
     */
    private void abandonLost() {
        for (long s = base; s < next && lost > 0; s++) {
            int i = (int) (s & mask);
            if ((state[i] & LOST) != 0) {
                state[i] = (byte) ((state[i] & ~LOST) | SACKED);
                lost--;
                abandoned++;
            }
        }
        while (base < next && (state[(int) (base & mask)] & SACKED) != 0) {
            int i = (int) (base & mask);
            packets[i].release();
            packets[i] = null;
            state[i] = 0;
            base++;
        }
        if (inFlight == 0) {
            deadline = Long.MAX_VALUE;
        }
    }

    /** Sends lost packets again, then new ones, while the congestion window has room. */
    public void pump(long nowNanos) {
        if (lost > 0 && !config.recovery()) {
            abandonLost();
        }
        int cwnd = Math.min(controller.window(), window);
        long scan = base;
        while (inFlight < cwnd) {
            if (lost > 0) {
                while ((state[(int) (scan & mask)] & LOST) == 0) {
                    scan++;
                }
                int i = (int) (scan & mask);
                state[i] = (byte) ((state[i] & ~LOST) | RESENT);
                lost--;
                retransmissions++;
                send(i, scan, nowNanos, true);
                continue;
            }
            if (queue.isEmpty() || next - base >= window) {
                break;
            }
            int i = (int) (next & mask);
            packets[i] = queue.poll();
            state[i] = 0;
            send(i, next, nowNanos, false);
            next++;
        }
    }

    private void send(int i, long seq, long nowNanos, boolean retransmission) {
        transmitOrder[i] = nextTransmitOrder++;
        sentAt[i] = nowNanos;
        inFlight++;
        packetsSent++;
        if (deadline == Long.MAX_VALUE) {
            deadline = nowNanos + timer.timeoutNanos();
        }
        output.transmit(epoch, (int) seq, (int) base, packets[i], retransmission);
    }

    /**
     * Discards everything queued or unacknowledged and starts afresh under a new epoch (the link went
     * down, or its neighbour restarted).
     *
     * @return packets discarded
     */
    public int reset(long newEpoch) {
        int dropped = queue.size();
        for (ByteBuf b : queue) {
            b.release();
        }
        queue.clear();
        for (long s = base; s < next; s++) {
            int i = (int) (s & mask);
            if ((state[i] & SACKED) == 0) {
                dropped++;
            }
            packets[i].release();
            packets[i] = null;
            state[i] = 0;
        }
        epoch = newEpoch;
        base = 0;
        next = 0;
        inFlight = 0;
        lost = 0;
        highestDelivered = 0;
        recoveryPoint = nextTransmitOrder - 1;
        deadline = Long.MAX_VALUE;
        return dropped;
    }

    /** Releases every buffer held; the sender must not be used afterwards. */
    public void close() {
        reset(epoch);
    }

    public long epoch() {
        return epoch;
    }

    public int queueLength() {
        return queue.size();
    }

    /** Packets sent and not yet acknowledged (selectively acknowledged ones excluded). */
    public int unacknowledged() {
        return inFlight + lost;
    }

    public int congestionWindow() {
        return controller.window();
    }

    public int slowStartThreshold() {
        return controller.slowStartThreshold();
    }

    public long srttNanos() {
        return timer.srttNanos();
    }

    public long timeoutNanos() {
        return timer.timeoutNanos();
    }

    public long packetsSent() {
        return packetsSent;
    }

    public long retransmissions() {
        return retransmissions;
    }

    public long lossEvents() {
        return lossEvents;
    }

    public long timeouts() {
        return timeouts;
    }

    /** Packets given up on (only without hop-by-hop recovery). */
    public long abandoned() {
        return abandoned;
    }

    public ReliableLinkStatistics statistics() {
        return new ReliableLinkStatistics(queue.size(), inFlight + lost, controller.window(),
                controller.slowStartThreshold(), timer.srttNanos(), timer.timeoutNanos(), packetsSent,
                retransmissions, lossEvents, timeouts);
    }
}
