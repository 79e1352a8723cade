package net.hopwise.overlay.reliable;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import net.hopwise.overlay.session.SessionHeader;
import net.hopwise.overlay.wire.WireHeader;

/**
 * The sending half of one link's reliable channel: selective repeat with cumulative and selective
 * acknowledgements, a retransmission timer from the RTT, and pluggable congestion control.
 *
 * <p>Packets wait in a bounded FIFO queue in front of the window; the window holds what was sent and
 * not yet acknowledged, at most {@link ReliableLinkConfig#sendWindow()} packets. Loss is detected the
 * way RACK does in packets: a packet still missing when one sent {@code reorderThreshold}
 * transmissions later has been acknowledged is lost and is sent again, at once and ahead of new
 * packets; this also catches lost retransmissions. Acknowledgements cannot reveal the loss of one of
 * the last {@code reorderThreshold} transmissions (too few packets follow it), which on a lightly
 * loaded link is nearly every loss; such a tail packet is lost once it has gone unacknowledged for a
 * retransmission timeout counted from its own transmission, while acknowledgements still flow (a
 * tail-loss timer, as RACK-TLP has), unless the flight is long and packets wait behind it: those
 * will follow and reveal the loss, and a per-packet timer there takes a growing bottleneck queue for
 * loss. Counting from the last acknowledgement instead, as RFC 6298's
 * single timer does, would add up to one packet interval to every recovery, and in-order delivery
 * at the far edge would hold the following messages for it too. The congestion controller hears of at
 * most one congestion event per window of data (NewReno's recovery), and of every timeout, after which
 * every packet not yet acknowledged is sent again as the window allows. A timeout is no
 * acknowledgement of anything new for a whole retransmission timeout. If the first acknowledgement
 * after it covers a packet sent before it and not since, the acknowledgements were late, not the
 * packets lost, and the timeout is undone (RFC 4015's response to a spurious timeout).
 *
 * <p>Even the tail-loss timer makes the loss of a lone packet cost more than a round trip. With
 * {@link ReliableLinkConfig#tailProbe()}, the last transmission of a flight that is still
 * unacknowledged a quarter of a smoothed round trip later is sent once more, when the whole flight is
 * at most {@code reorderThreshold} packets (a tail probe, like RACK-TLP's but early, since the link is idle and a duplicate is all
 * it costs; a bulk flow is left to its acknowledgements and timers): a lone lost packet
 * then arrives a quarter of a round trip late instead of more than one. The probe keeps the packet's
 * transmission order and send time, so loss detection and RTT samples stay those of the original
 * (a sample is at most the probe delay too long when the original was lost); the timeouts restart
 * from the probe, as from a retransmission. A packet that carries only a session's acknowledgement
 * is never probed: nobody waits on it (the next acknowledgement, one message later, covers it), and
 * on a stream of lone messages probing it cost a quarter of all datagrams on every link.
 *
 * <p>Sans-IO and single-threaded: it takes acknowledgements and the time, and emits packets through
 * its {@link ReliableLinkOutput}. It is longer than the classes around it because loss detection, the
 * two timers, tail probes and the undo of a spurious timeout all read and write the same per-slot
 * arrays and counters of the packets in flight; split apart, each part would take all of them.
 */
public final class ReliableLinkSender {
    private final ReliableLinkConfig config;
    private final ReliableLinkOutput output;
    private final CongestionController controller;
    private final RetransmissionTimer timer;
    private final ArrayDeque<ByteBuf> queue = new ArrayDeque<>();
    private final int window;
    /**
     * Slots held now: the arrays start small and double (up to the send window) only when a flight
     * outgrows them, so that the many idle or thin links of an overlay cost little memory while a
     * bulk link still gets its whole window.
     */
    private int capacity;
    private int mask;
    private ByteBuf[] packets;
    private long[] transmitOrder;
    private long[] sentAt;
    /** When the packet's tail-loss timeout starts: its transmission, or its tail probe. */
    private long[] lossClock;
    /** Bytes each packet occupies on the wire, as congestion control counts them. */
    private int[] wireBytes;
    /** Bits per slot: acknowledged selectively, known lost (to send again), sent more than once. */
    private byte[] state;
    /** Sequence numbers of the last few transmissions, by transmission order modulo its length. */
    private final long[] recentSequence;
    private static final byte SACKED = 1;
    private static final byte LOST = 2;
    private static final byte RESENT = 4;
    /** The packet's tail probe went out, or was decided against: at most one per packet. */
    private static final byte PROBED = 8;
    /** The packet carries no application data, only a session's acknowledgement: never probed. */
    private static final byte ACK_ONLY = 16;

    private long epoch;
    /** Lowest sequence number not yet acknowledged. */
    private long base;
    /** Next sequence number to assign. */
    private long next;
    private long nextTransmitOrder = 1;
    private long highestDelivered;
    private long recoveryPoint;
    /**
     * After a timeout until the first acknowledgement of something new: the last transmission before
     * the timeout (-1 otherwise), and the recovery point the timeout replaced.
     */
    private long timeoutBoundary = -1;
    private long recoveryPointBeforeTimeout;
    /** Sent, neither acknowledged nor known lost. */
    private int inFlight;
    /** The wire bytes of the packets in flight: what the congestion window limits. */
    private long bytesInFlight;
    /** Known lost, waiting to be sent again. */
    private int lost;
    private long deadline = Long.MAX_VALUE;
    /** When something new was last acknowledged, or the flight began: RFC 6298's timer runs from it. */
    private long lastProgress;

    private long packetsSent;
    private long retransmissions;
    private long lossEvents;
    private long timeouts;
    private long tailLosses;
    private long tailProbes;
    private long spuriousTimeouts;
    private long abandoned;

    public ReliableLinkSender(ReliableLinkConfig config, long epoch, ReliableLinkOutput output) {
        this.config = config;
        this.output = output;
        this.epoch = epoch;
        this.window = config.sendWindow();
        this.capacity = Math.min(window, Rings.INITIAL_SLOTS);
        this.mask = capacity - 1;
        this.packets = new ByteBuf[capacity];
        this.transmitOrder = new long[capacity];
        this.sentAt = new long[capacity];
        this.lossClock = new long[capacity];
        this.wireBytes = new int[capacity];
        this.state = new byte[capacity];
        this.recentSequence = new long[config.reorderThreshold()];
        this.controller = config.congestionControl().create((long) window * config.segmentBytes(),
                config.segmentBytes());
        this.timer = new RetransmissionTimer(config.initialTimeout().toNanos(), config.minTimeout().toNanos(),
                config.maxTimeout().toNanos(), config.timeoutMargin());
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
        onAck(ack.epoch(), ack.cumulative(), ack.blocks(), ack.blocks().length, nowNanos);
    }

    /** The same, from what {@code reader} read last: the receiving path's form, with no object per packet. */
    public void onAck(ReliableLinkCodec.Reader reader, long nowNanos) {
        onAck(reader.ackEpoch(), reader.cumulative(), reader.blocks(), reader.blockInts(), nowNanos);
    }

    private void onAck(long ackEpoch, int ackCumulative, int[] blocks, int blockInts, long nowNanos) {
        if (ackEpoch != epoch || next == base && lost == 0) {
            return;
        }
        long cumulative = base + (ackCumulative - (int) base);
        if (cumulative > next) {
            return; // acknowledges what was never sent: stale or forged
        }
        int newly = 0;
        long newlyBytes = 0;
        long sample = -1;
        boolean lateOriginal = false;
        long delivered = highestDelivered;
        boolean windowLimited = !queue.isEmpty() || lost > 0
                || bytesInFlight + config.segmentBytes() > controller.window();
        while (base < cumulative) {
            int i = (int) (base & mask);
            if ((state[i] & SACKED) == 0) {
                newly++;
                newlyBytes += wireBytes[i];
                lateOriginal |= sentBeforeTimeout(i);
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
        for (int b = 0; b + 1 < blockInts; b += 2) {
            long start = base + (blocks[b] - (int) base);
            long end = base + (blocks[b + 1] - (int) base);
            if (start < base || end > next || start >= end) {
                continue;
            }
            for (long s = start; s < end; s++) {
                int i = (int) (s & mask);
                if ((state[i] & SACKED) == 0) {
                    newly++;
                    newlyBytes += wireBytes[i];
                    lateOriginal |= sentBeforeTimeout(i);
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
        if (timeoutBoundary >= 0) {
            if (lateOriginal) {
                undoTimeout(nowNanos);
            }
            timeoutBoundary = -1; // decided by the first acknowledgement of something new, as F-RTO does
        }
        highestDelivered = delivered;
        lastProgress = nowNanos;
        timer.onSample(sample);
        detectLoss(nowNanos);
        if (highestDelivered > recoveryPoint) {
            controller.onAcknowledged(newlyBytes, sample, windowLimited, nowNanos);
        }
        pump(nowNanos);
        rearm();
    }

    /**
     * The earlier of RFC 6298's timer (a timeout after the last progress) and the tail-loss timer of
     * the oldest tail packet still in flight.
     */
    private void rearm() {
        if (inFlight + lost == 0) {
            deadline = Long.MAX_VALUE;
            return;
        }
        long timeout = timer.timeoutNanos();
        long d = lastProgress + timeout;
        for (int k = 0; tailTimers() && k < recentSequence.length; k++) {
            int i = tailSlot(nextTransmitOrder - 1 - k);
            if (i >= 0) {
                d = Math.min(d, lossClock[i] + timeout);
            }
        }
        if (probing()) {
            int i = tailSlot(nextTransmitOrder - 1);
            if (i >= 0 && (state[i] & PROBED) == 0) {
                d = Math.min(d, sentAt[i] + probeDelayNanos());
            }
        }
        deadline = d;
    }

    private boolean probing() {
        return config.tailProbe() && config.recovery();
    }

    /** A quarter of the smoothed RTT (of the seeded one before samples), at least the configured floor. */
    long probeDelayNanos() {
        return Math.max(timer.srttNanos() / 4, config.minProbeDelay().toNanos());
    }

    /**
     * Sends the last transmission once more if it is still in flight a probe delay after it left,
     * nothing waits to be sent, the whole flight is no longer than the reordering threshold (so
     * short that acknowledgements cannot reveal a loss in it: a thin stream, or the very end of a
     * burst) and the congestion window has room. Decided once per packet: a packet not probed then
     * is not probed later (the link is busy, and the tail-loss timer stands behind it).
     */
    private void probeTail(long nowNanos) {
        if (!probing()) {
            return;
        }
        int i = tailSlot(nextTransmitOrder - 1);
        if (i < 0 || (state[i] & PROBED) != 0 || nowNanos < sentAt[i] + probeDelayNanos()) {
            return;
        }
        state[i] |= PROBED;
        if (!queue.isEmpty() || lost > 0 || inFlight > recentSequence.length
                || bytesInFlight + wireBytes[i] > controller.window()) {
            return;
        }
        tailProbes++;
        packetsSent++;
        // As after a retransmission, both timers restart: the probe's acknowledgement is a round trip
        // away, and declaring the packet lost before it could come would halve the window for nothing.
        lossClock[i] = nowNanos;
        lastProgress = nowNanos;
        long seq = recentSequence[(int) ((nextTransmitOrder - 1) % recentSequence.length)];
        output.transmit(epoch, (int) seq, (int) base, packets[i], true);
    }

    /**
     * The slot whose packet went out as transmission {@code order}, if that was one of the last
     * few transmissions and the packet is still in flight (neither acknowledged nor known lost);
     * otherwise -1.
     */
    private int tailSlot(long order) {
        if (order < 1 || order <= nextTransmitOrder - 1 - recentSequence.length) {
            return -1;
        }
        long seq = recentSequence[(int) (order % recentSequence.length)];
        if (seq < base || seq >= next) {
            return -1;
        }
        int i = (int) (seq & mask);
        return transmitOrder[i] == order && (state[i] & (SACKED | LOST)) == 0 ? i : -1;
    }

    /** A slot leaves the pipe (acknowledged): it was either in flight or waiting as lost. */
    private void release(int i) {
        if ((state[i] & LOST) != 0) {
            state[i] &= ~LOST;
            lost--;
        } else {
            inFlight--;
            bytesInFlight -= wireBytes[i];
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
            markLost(i, nowNanos);
        }
    }

    /**
     * Moves an in-flight packet to the known-lost ones; the controller hears of it unless it belongs
     * to a window whose congestion event it already heard of.
     */
    private void markLost(int i, long nowNanos) {
        state[i] |= LOST;
        inFlight--;
        bytesInFlight -= wireBytes[i];
        lost++;
        if (transmitOrder[i] > recoveryPoint) {
            lossEvents++;
            controller.onLoss(nowNanos);
            recoveryPoint = nextTransmitOrder - 1;
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
        long timeout = timer.timeoutNanos();
        if (nowNanos - lastProgress < timeout) {
            probeTail(nowNanos);
            tailLoss(nowNanos, timeout);
            return;
        }
        timeouts++;
        controller.onTimeout(nowNanos);
        timer.backOff();
        if (timeoutBoundary < 0) {
            timeoutBoundary = nextTransmitOrder - 1;
            recoveryPointBeforeTimeout = recoveryPoint;
        }
        recoveryPoint = nextTransmitOrder - 1;
        for (long s = base; s < next; s++) {
            int i = (int) (s & mask);
            if ((state[i] & (SACKED | LOST)) == 0) {
                state[i] |= LOST;
                inFlight--;
                bytesInFlight -= wireBytes[i];
                lost++;
            }
        }
        lastProgress = nowNanos;
        pump(nowNanos);
        rearm();
    }

    /**
     * Whether the packet in slot {@code i}, being acknowledged, left before the pending timeout and
     * was not sent again since: its own first copy arrived, so the timeout was spurious.
     */
    private boolean sentBeforeTimeout(int i) {
        return timeoutBoundary >= 0 && transmitOrder[i] <= timeoutBoundary;
    }

    /**
     * The timeout was spurious (RFC 4015): what it marked lost and has not been sent again yet is in
     * flight after all, and the congestion controller may take back its reduction. Losses among
     * those packets are still found as acknowledgements reveal them, and count as a congestion event.
     * Without this, a pause of the host longer than the timeout made a bulk link resend its whole
     * flight from a window of one segment.
     */
    private void undoTimeout(long nowNanos) {
        spuriousTimeouts++;
        controller.onSpuriousTimeout(nowNanos);
        for (long s = base; s < next && lost > 0; s++) {
            int i = (int) (s & mask);
            if ((state[i] & LOST) != 0 && transmitOrder[i] <= timeoutBoundary) {
                state[i] &= ~LOST;
                lost--;
                inFlight++;
                bytesInFlight += wireBytes[i];
            }
        }
        recoveryPoint = recoveryPointBeforeTimeout;
    }

    /**
     * Whether the last transmissions have tail-loss timers: while nothing waits to be sent, or while
     * the flight is too short for acknowledgements ever to reveal a loss in it. A long flight with
     * packets waiting behind it needs none: those packets go out as acknowledgements open the window,
     * and theirs reveal any loss before them, while a timer from each packet's own transmission takes
     * a queue that grew at the bottleneck for a loss (and halves the window for it).
     */
    private boolean tailTimers() {
        return queue.isEmpty() || inFlight <= recentSequence.length;
    }

    /** Acknowledgements still flow, but tail packets have waited a whole timeout: they are lost. */
    private void tailLoss(long nowNanos, long timeout) {
        if (!tailTimers()) {
            pump(nowNanos);
            rearm();
            return;
        }
        long oldest = nextTransmitOrder - recentSequence.length;
        for (long order = Math.max(1, oldest); order < nextTransmitOrder; order++) {
            int i = tailSlot(order);
            if (i < 0 || lossClock[i] + timeout > nowNanos) {
                continue;
            }
            // A packet's first tail loss restarts the timeout, as RFC 6298 restarts its timer with a
            // retransmission: the resent packet gets a whole timeout, and if that passes in silence
            // too, the link is in a real timeout. Only its first: tail packets that the receiver
            // holds but its acknowledgements cannot name (more holes before them than it has SACK
            // blocks) are lost again and again, and restarting each time kept the timeout, the one
            // thing that resends the holes, from ever coming.
            if ((state[i] & RESENT) == 0) {
                lastProgress = nowNanos;
            }
            tailLosses++;
            markLost(i, nowNanos);
        }
        pump(nowNanos);
        rearm();
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

    /**
     * Sends lost packets again, then new ones, while the congestion window has room for them (one
     * packet always, when none is in flight) and the send window has a slot.
     */
    public void pump(long nowNanos) {
        if (lost > 0 && !config.recovery()) {
            abandonLost();
        }
        long cwnd = controller.window();
        long scan = base;
        while (inFlight < window) {
            if (lost > 0) {
                while ((state[(int) (scan & mask)] & LOST) == 0) {
                    scan++;
                }
                int i = (int) (scan & mask);
                if (!roomFor(wireBytes[i], cwnd)) {
                    break;
                }
                state[i] = (byte) ((state[i] & ~LOST) | RESENT);
                lost--;
                retransmissions++;
                send(i, scan, nowNanos, true);
                continue;
            }
            if (queue.isEmpty() || next - base >= window) {
                break;
            }
            int size = wireSize(queue.peek());
            if (!roomFor(size, cwnd)) {
                break;
            }
            if (next - base >= capacity) {
                grow();
            }
            int i = (int) (next & mask);
            packets[i] = queue.poll();
            state[i] = 0;
            wireBytes[i] = size;
            send(i, next, nowNanos, false);
            next++;
        }
    }

    /**
     * Whether anyone waits on this routed packet: all but a session's bare acknowledgement, which the
     * next one covers, so that its loss only delays freeing the other edge's send buffer. A packet too
     * short to tell counts as waited on.
     */
    static boolean waitedOn(ByteBuf packet) {
        return packet.readableBytes() <= SessionHeader.OFFSET_KIND
                || packet.getUnsignedByte(packet.readerIndex() + SessionHeader.OFFSET_KIND) != SessionHeader.KIND_ACK;
    }

    /** Doubles the slot arrays, keeping every packet of the flight at its sequence number's new slot. */
    private void grow() {
        int bigger = Math.min(window, capacity * 2);
        packets = Rings.grown(packets, mask, bigger, base, next);
        transmitOrder = Rings.grown(transmitOrder, mask, bigger, base, next);
        sentAt = Rings.grown(sentAt, mask, bigger, base, next);
        lossClock = Rings.grown(lossClock, mask, bigger, base, next);
        wireBytes = Rings.grown(wireBytes, mask, bigger, base, next);
        state = Rings.grown(state, mask, bigger, base, next);
        capacity = bigger;
        mask = bigger - 1;
    }

    /** Slots held now (at most the send window). */
    public int slots() {
        return capacity;
    }

    private boolean roomFor(int bytes, long cwnd) {
        return bytesInFlight == 0 || bytesInFlight + bytes <= cwnd;
    }

    /**
     * Bytes on the wire for a packet of this link: its own bytes, the link's header in front of it
     * (the wire header and the reliable data prefix) and an IPv4 and UDP header.
     */
    static int wireSize(ByteBuf packet) {
        return packet.readableBytes() + PACKET_OVERHEAD_BYTES;
    }

    /** WireHeader (28) + reliable data prefix (16) + IPv4 (20) + UDP (8); piggybacked acknowledgements not counted. */
    static final int PACKET_OVERHEAD_BYTES = WireHeader.LENGTH + ReliableLinkCodec.DATA_FIXED + 20 + 8;

    private void send(int i, long seq, long nowNanos, boolean retransmission) {
        if (deadline == Long.MAX_VALUE) {
            lastProgress = nowNanos; // a flight begins: nothing was waiting for an acknowledgement
            deadline = nowNanos + timer.timeoutNanos();
        }
        if (!retransmission && !waitedOn(packets[i])) {
            state[i] |= ACK_ONLY | PROBED;
        }
        if (probing() && (state[i] & PROBED) == 0) {
            // The new tail's probe may be due before anything else; an early wake-up just rearms.
            deadline = Math.min(deadline, nowNanos + probeDelayNanos());
        }
        long order = nextTransmitOrder++;
        transmitOrder[i] = order;
        recentSequence[(int) (order % recentSequence.length)] = seq;
        sentAt[i] = nowNanos;
        lossClock[i] = nowNanos;
        inFlight++;
        bytesInFlight += wireBytes[i];
        packetsSent++;
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
        bytesInFlight = 0;
        lost = 0;
        highestDelivered = 0;
        recoveryPoint = nextTransmitOrder - 1;
        timeoutBoundary = -1;
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

    /** The congestion window in bytes on the wire. */
    public long congestionWindowBytes() {
        return controller.window();
    }

    public long slowStartThresholdBytes() {
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

    /** Tail packets found lost by their own timer while acknowledgements still flowed. */
    public long tailLosses() {
        return tailLosses;
    }

    /** Tail probes sent: second copies of a flight's lone last packet (see the class comment). */
    public long tailProbes() {
        return tailProbes;
    }

    /** Timeouts found spurious by a late acknowledgement of a packet not sent again, and undone. */
    public long spuriousTimeouts() {
        return spuriousTimeouts;
    }

    /** Packets given up on (only without hop-by-hop recovery). */
    public long abandoned() {
        return abandoned;
    }

    public ReliableLinkStatistics statistics() {
        return new ReliableLinkStatistics(queue.size(), inFlight + lost, controller.window(),
                controller.slowStartThreshold(), timer.srttNanos(), timer.timeoutNanos(), packetsSent,
                retransmissions, lossEvents, timeouts, tailProbes, spuriousTimeouts);
    }
}
