package net.hopwise.overlay.sim.tcp;

import java.util.Arrays;
import java.util.Objects;

/**
 * The sending half of a simulated TCP connection, sans-IO: fed messages from the application,
 * acknowledgements and the passing of time, it emits segments into a {@link TcpSenderOutput} and
 * reports its next deadline. Message-oriented: segment {@code n} carries message {@code n}.
 *
 * <p>Congestion control is Jacobson's: slow start (+1 segment per ACK below ssthresh), congestion
 * avoidance (+1/cwnd per ACK), and on a loss ssthresh = max(2, min(cwnd, rwnd) / 2), as ns-2
 * computes it. The variants differ in loss recovery (see {@link TcpVariant}). The retransmission
 * timer follows RFC 6298 (SRTT, RTTVAR, Karn's rule, doubling back-off) with ns-2's bounds. The
 * usable window is min(cwnd, receiver window); like ns-2, cwnd keeps growing while the application
 * leaves the window unfilled, up to the receiver window.
 */
public final class TcpSender {
    private static final long NEVER = Long.MAX_VALUE;

    private final TcpVariant variant;
    private final TcpConfig config;
    private final TcpSenderOutput output;
    private final int rwnd;
    private final int mask;
    // Per segment in flight, indexed by sequence & mask: [una, maxSent) has at most rwnd entries.
    private final long[] sentAt;
    private final boolean[] resent;
    private final boolean[] sacked;
    private final boolean[] resentInRecovery;

    /** Generation times of messages from una on, oldest first: the application's backlog. */
    private long[] backlog = new long[64];
    private int backlogHead;
    private int backlogSize;
    private boolean bulk;

    private long una;
    private long next;
    private long maxSent;
    private double cwnd;
    private double ssthresh;
    private int duplicateAcks;
    private boolean inRecovery;
    private long recover;

    private long srtt = -1;
    private long rttvar;
    private long rto;
    private int backoff = 1;
    private long timerAt = NEVER;

    private long segmentsSent;
    private long retransmissions;
    private long timeouts;
    private long fastRetransmits;

    public TcpSender(TcpVariant variant, TcpConfig config, TcpSenderOutput output) {
        this.variant = Objects.requireNonNull(variant, "variant");
        this.config = Objects.requireNonNull(config, "config");
        this.output = Objects.requireNonNull(output, "output");
        this.rwnd = config.receiverWindow();
        int size = Integer.highestOneBit(Math.max(1, rwnd - 1)) << 1;
        this.mask = size - 1;
        this.sentAt = new long[size];
        this.resent = new boolean[size];
        this.sacked = new boolean[size];
        this.resentInRecovery = new boolean[size];
        this.cwnd = config.initialWindow();
        this.ssthresh = rwnd;
        this.rto = config.initialRtoNanos();
    }

    /** The application hands one message over; it is sent when the window allows. */
    public void offer(long generatedAtNanos, long nowNanos) {
        if (backlogSize == backlog.length) {
            long[] grown = new long[backlog.length * 2];
            for (int i = 0; i < backlogSize; i++) {
                grown[i] = backlog[(backlogHead + i) % backlog.length];
            }
            backlog = grown;
            backlogHead = 0;
        }
        backlog[(backlogHead + backlogSize) % backlog.length] = generatedAtNanos;
        backlogSize++;
        trySend(nowNanos);
    }

    /** Turns the sender into a bulk transfer: always a message to send, generated at 0. */
    public void bulk(long nowNanos) {
        bulk = true;
        trySend(nowNanos);
    }

    /** Takes an acknowledgement: cumulative point and SACK blocks (start, end exclusive pairs). */
    public void onAck(long cumulative, long[] sackBlocks, int sackBlockCount, long nowNanos) {
        if (cumulative > maxSent) {
            return;
        }
        if (variant == TcpVariant.SACK) {
            for (int b = 0; b < sackBlockCount; b++) {
                long start = Math.max(sackBlocks[2 * b], Math.max(una, cumulative));
                long end = Math.min(sackBlocks[2 * b + 1], maxSent);
                for (long s = start; s < end; s++) {
                    sacked[(int) (s & mask)] = true;
                }
            }
        }
        if (cumulative > una) {
            onNewAck(cumulative, nowNanos);
        } else if (cumulative == una && maxSent > una) {
            onDuplicateAck(nowNanos);
        }
        trySend(nowNanos);
    }

    private void onNewAck(long cumulative, long nowNanos) {
        long newlyAcked = cumulative - una;
        int last = (int) ((cumulative - 1) & mask);
        // Karn's rule, widened as ns-2 times segments: no sample from an ACK that covers any resent segment.
        boolean clean = !inRecovery;
        for (long s = una; s < cumulative; s++) {
            int i = (int) (s & mask);
            clean &= !resent[i];
        }
        if (clean) {
            sampleRtt(nowNanos - sentAt[last]);
        }
        for (long s = una; s < cumulative; s++) {
            int i = (int) (s & mask);
            resent[i] = false;
            sacked[i] = false;
            resentInRecovery[i] = false;
        }
        consumeBacklog(newlyAcked);
        una = cumulative;
        if (next < una) {
            next = una;
        }
        duplicateAcks = 0;
        backoff = 1;

        if (inRecovery) {
            if (cumulative >= recover || variant == TcpVariant.RENO) {
                inRecovery = false;
                cwnd = ssthresh;
                Arrays.fill(resentInRecovery, false);
            } else if (variant == TcpVariant.NEW_RENO) {
                // Partial ACK: the next hole is lost too; resend it and deflate by what was acked.
                retransmit(una, nowNanos);
                cwnd = Math.max(1, cwnd - newlyAcked + 1);
            }
        } else if (cwnd < ssthresh) {
            cwnd += 1;
        } else {
            cwnd += 1 / cwnd;
        }
        cwnd = inRecovery ? cwnd : Math.min(cwnd, rwnd);
        timerAt = maxSent > una ? nowNanos + currentRto() : NEVER;
    }

    private void onDuplicateAck(long nowNanos) {
        duplicateAcks++;
        if (inRecovery) {
            if (variant == TcpVariant.RENO || variant == TcpVariant.NEW_RENO) {
                cwnd += 1;
            }
            return;
        }
        if (duplicateAcks != config.duplicateThreshold()) {
            return;
        }
        fastRetransmits++;
        ssthresh = Math.max(2, Math.min(cwnd, rwnd) / 2);
        switch (variant) {
            case TAHOE -> {
                cwnd = 1;
                next = una;
                retransmit(una, nowNanos);
                next = una + 1;
            }
            case RENO, NEW_RENO -> {
                inRecovery = true;
                recover = maxSent;
                cwnd = ssthresh + config.duplicateThreshold();
                retransmit(una, nowNanos);
            }
            case SACK -> {
                inRecovery = true;
                recover = maxSent;
                cwnd = ssthresh;
                retransmit(una, nowNanos);
                resentInRecovery[(int) (una & mask)] = true;
            }
        }
        timerAt = nowNanos + currentRto();
    }

    /** Runs the retransmission timer when due. */
    public void onTimer(long nowNanos) {
        if (nowNanos < timerAt) {
            return;
        }
        timeouts++;
        ssthresh = Math.max(2, Math.min(cwnd, rwnd) / 2);
        cwnd = 1;
        backoff = Math.min(backoff * 2, 1 << 16);
        inRecovery = false;
        duplicateAcks = 0;
        recover = maxSent;
        Arrays.fill(sacked, false);
        Arrays.fill(resentInRecovery, false);
        next = una;
        timerAt = NEVER;
        trySend(nowNanos);
        if (timerAt == NEVER && maxSent > una) {
            timerAt = nowNanos + currentRto();
        }
    }

    /** The retransmission timer's deadline, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNanos() {
        return timerAt;
    }

    private void trySend(long nowNanos) {
        if (variant == TcpVariant.SACK && inRecovery) {
            sendBySack(nowNanos);
            return;
        }
        int window = (int) Math.min(Math.floor(cwnd), rwnd);
        while (next < una + window && hasMessage(next)) {
            send(next, nowNanos);
            next++;
        }
    }

    /** RFC 6675: send while the estimated packets in the network stay below cwnd, holes first. */
    private void sendBySack(long nowNanos) {
        while (pipe() < cwnd) {
            long hole = nextLostHole();
            if (hole >= 0) {
                retransmit(hole, nowNanos);
                resentInRecovery[(int) (hole & mask)] = true;
                continue;
            }
            long fresh = Math.max(next, maxSent);
            if (fresh < una + rwnd && hasMessage(fresh)) {
                next = fresh;
                send(next, nowNanos);
                next++;
                continue;
            }
            break;
        }
    }

    private int pipe() {
        int pipe = 0;
        int sackedAbove = 0;
        for (long s = maxSent - 1; s >= una; s--) {
            int i = (int) (s & mask);
            if (sacked[i]) {
                sackedAbove++;
                continue;
            }
            if (sackedAbove < config.duplicateThreshold()) {
                pipe++;
            }
            if (resentInRecovery[i]) {
                pipe++;
            }
        }
        return pipe;
    }

    private long nextLostHole() {
        int sackedAbove = 0;
        long hole = -1;
        for (long s = maxSent - 1; s >= una; s--) {
            int i = (int) (s & mask);
            if (sacked[i]) {
                sackedAbove++;
            } else if (sackedAbove >= config.duplicateThreshold() && !resentInRecovery[i]) {
                hole = s;
            }
        }
        return hole;
    }

    private boolean hasMessage(long sequence) {
        return bulk || sequence - una < backlogSize;
    }

    private long generatedAt(long sequence) {
        if (bulk) {
            return 0;
        }
        return backlog[(int) ((backlogHead + (sequence - una)) % backlog.length)];
    }

    private void consumeBacklog(long count) {
        if (bulk) {
            return;
        }
        backlogHead = (int) ((backlogHead + count) % backlog.length);
        backlogSize -= (int) count;
    }

    private void send(long sequence, long nowNanos) {
        boolean again = sequence < maxSent;
        int i = (int) (sequence & mask);
        if (again) {
            resent[i] = true;
            retransmissions++;
        } else {
            resent[i] = false;
            sacked[i] = false;
            resentInRecovery[i] = false;
            maxSent = sequence + 1;
        }
        sentAt[i] = nowNanos;
        segmentsSent++;
        if (timerAt == NEVER) {
            timerAt = nowNanos + currentRto();
        }
        output.sendSegment(sequence, generatedAt(sequence), again);
    }

    private void retransmit(long sequence, long nowNanos) {
        send(sequence, nowNanos);
    }

    private void sampleRtt(long sample) {
        if (srtt < 0) {
            srtt = sample;
            rttvar = sample / 2;
        } else {
            rttvar = (3 * rttvar + Math.abs(srtt - sample)) / 4;
            srtt = (7 * srtt + sample) / 8;
        }
        rto = srtt + Math.max(config.clockGranularityNanos(), 4 * rttvar);
    }

    private long currentRto() {
        long bounded = Math.max(config.minRtoNanos(), Math.min(config.maxRtoNanos(), rto));
        return Math.min(config.maxRtoNanos(), bounded * backoff);
    }

    public TcpVariant variant() {
        return variant;
    }

    /** The lowest unacknowledged sequence number: every message below it has been delivered. */
    public long unacknowledged() {
        return una;
    }

    /** Messages handed over and not yet acknowledged (always 0 for a bulk sender). */
    public int backlog() {
        return backlogSize;
    }

    public double congestionWindow() {
        return cwnd;
    }

    public double slowStartThreshold() {
        return ssthresh;
    }

    /** Smoothed RTT in nanoseconds, or -1 before the first sample. */
    public long smoothedRttNanos() {
        return srtt;
    }

    /** The current retransmission timeout, back-off included. */
    public long retransmissionTimeoutNanos() {
        return currentRto();
    }

    public long segmentsSent() {
        return segmentsSent;
    }

    public long retransmissions() {
        return retransmissions;
    }

    public long timeouts() {
        return timeouts;
    }

    public long fastRetransmits() {
        return fastRetransmits;
    }
}
