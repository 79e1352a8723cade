package net.hopwise.overlay.link;

import java.util.Arrays;
import java.util.Objects;
import net.hopwise.overlay.NodeId;

/**
 * Sans-IO monitor of one overlay link (one per configured neighbour): runs the hello protocol,
 * decides whether the link is up, and measures RTT, jitter and loss in both directions.
 *
 * <h2>Liveness</h2>
 * The link comes {@link LinkStatus#UP up} on {@link HelloConfig#upCount()} consecutive <em>fresh
 * echoes</em>: hellos from the peer that echo one of our recent hellos (matched by sequence number
 * and send time) and that the peer held for less than the dead interval. A fresh echo proves both
 * directions work now; a hello alone proves only one. An up link goes {@link LinkStatus#DOWN down}
 * when nothing at all (hello or any other packet) arrives for {@link HelloConfig#deadInterval()},
 * exactly that long after the last packet; or at once when a hello shows that the peer no longer
 * hears us (no echo, an echo we did not send, an echo held past the dead interval), so that a link
 * that fails in one direction goes down at both ends; or when the peer restarted (see below).
 *
 * <h2>Hello schedule</h2>
 * The first hello goes out on the first {@link #onTimer} at or after the creation time (the
 * constructor emits nothing, so the engine can finish wiring first). Then one hello every
 * {@link HelloConfig#interval()} while the link is up or the peer was heard within the dead interval,
 * else every {@link HelloConfig#downInterval()}. A hello is also sent at once in answer to a peer's
 * hello when the link is not up and the peer shows it does not hear us yet, and when a hello changes
 * the link's status: a returning peer's first hello is answered immediately, so bring-up takes about
 * one and a half round trips after the later of the two ends starts, however far the hellos were
 * backed off.
 *
 * <h2>Measurements</h2>
 * RTT sample = now − echoed send time − the peer's hold time; only our own clock's times are
 * subtracted from each other, and the hold is a duration on the peer's clock, so no clock
 * synchronisation is needed. Samples with a negative hold or a negative result are rejected and
 * counted. Jitter is RFC 3550's, on the peer's hellos. Inbound loss follows the Spines rule on the
 * per-link sequence numbers of every packet ({@link LossEstimator}); we report it to the peer in our
 * hellos, and the peer's report is our {@link #outboundLossRate()}. The same echoes estimate how far the
 * peer's clock is from ours ({@link ClockOffset}), so that times the peer stamped can be read here.
 *
 * <h2>Peer restarts</h2>
 * Every hello carries the sender's incarnation: the time its monitor was created or last reset, on
 * its own clock. A new incarnation means the peer forgot everything about us; its hello state,
 * jitter base and loss numbering are forgotten in turn (so no sample mixes two incarnations), and an
 * up link goes down and, with a fresh echo, up again within the same call: the engine sees the
 * restart as linkDown followed by linkUp and can resynchronise the neighbour. Within one
 * incarnation, a hello whose sequence number does not advance (serial arithmetic, so it wraps) is
 * stale (reordered or duplicated): it keeps the link alive but is not measured.
 *
 * <h2>Callbacks</h2>
 * Outputs go to the {@link LinkMonitorOutput}, synchronously and after the state is updated. In one
 * call the order is: status change, then {@code qualityChanged}, then any immediate hello.
 * Every {@code linkUp} is followed by exactly one {@code linkDown} before the next {@code linkUp}.
 *
 * <p>Times are {@code long} nanoseconds on the caller's monotonic clock and are only compared by
 * subtraction, so any origin works. Not thread-safe: it lives on its node's event loop.
 *
 * <p>About 455 lines, over the house's 400: liveness, the hello schedule, the measurements and the
 * freshness proof for address moves all read the same per-peer hello state, which a split would have to
 * share field by field.
 */
public final class LinkMonitor {
    /**
     * Our hellos remembered for echo matching. An echo older than this many hellos (6.4 s at the
     * default interval) is no evidence of a live link anyway.
     */
    static final int SENT_HISTORY = 64;

    private enum HelloOrder { NEW, STALE, RESTART }

    private final NodeId self;
    private final String selfName;
    private final NodeId peer;
    private final HelloConfig config;
    private final LinkMonitorOutput out;
    private final long intervalNanos;
    private final long downIntervalNanos;
    private final long deadIntervalNanos;

    private final RttEstimator rtt = new RttEstimator();
    private final ClockOffset clock = new ClockOffset();
    private final JitterEstimator jitter = new JitterEstimator();
    private final LossEstimator loss = new LossEstimator();

    private LinkStatus status = LinkStatus.CONNECTING;
    private long incarnation;

    private long nextHelloSeq = 1;
    private long nextHelloAt;
    /** Indexed by seq modulo the history; 0 marks an empty slot because seq is never 0. */
    private final long[] sentSeq = new long[SENT_HISTORY];
    private final long[] sentTime = new long[SENT_HISTORY];

    private boolean heardPeer;
    private long lastHeardAt;
    private int freshEchoes;

    private boolean havePeerHello;
    private long peerSeq;
    private long peerSendTime;
    private long peerHelloArrival;
    private long peerIncarnation;
    private int outboundPpm;
    private String peerName;

    private long hellosSent;
    private long hellosReceived;
    private long upTransitions;
    private long downTransitions;
    private long peerRestarts;
    private long staleHellos;
    private long rejectedRttSamples;

    /**
     * A monitor for the link from {@code self} to {@code peer}, CONNECTING, with its first hello due
     * at {@code nowNanos} (sent by the first {@link #onTimer}; the constructor emits nothing).
     *
     * @throws IllegalArgumentException if {@code selfName} is not a valid node name or self equals peer
     */
    public LinkMonitor(NodeId self, String selfName, NodeId peer, HelloConfig config, LinkMonitorOutput out,
            long nowNanos) {
        this.self = Objects.requireNonNull(self, "self");
        this.selfName = NodeId.requireValidName(selfName);
        this.peer = Objects.requireNonNull(peer, "peer");
        this.config = Objects.requireNonNull(config, "config");
        this.out = Objects.requireNonNull(out, "out");
        if (self.equals(peer)) {
            throw new IllegalArgumentException("a link needs two different nodes, got " + self + " twice");
        }
        this.intervalNanos = config.intervalNanos();
        this.downIntervalNanos = config.downIntervalNanos();
        this.deadIntervalNanos = config.deadIntervalNanos();
        this.nextHelloAt = nowNanos;
        this.incarnation = nowNanos == 0 ? 1 : nowNanos;
    }

    /** A hello from the peer, decoded. Call {@link #onPacketReceived} for its link sequence too. */
    public void onHello(HelloPacket hello, long nowNanos) {
        Objects.requireNonNull(hello, "hello");
        hellosReceived++;
        heard(nowNanos);
        peerName = hello.senderName();

        HelloOrder order = order(hello);
        if (order == HelloOrder.STALE) {
            staleHellos++;
            return;
        }
        if (order == HelloOrder.RESTART) {
            peerRestarted(nowNanos);
        }

        boolean measured = jitter.onArrival(hello.sendTimeNanos(), nowNanos);
        havePeerHello = true;
        peerSeq = hello.seq();
        peerSendTime = hello.sendTimeNanos();
        peerHelloArrival = nowNanos;
        peerIncarnation = hello.incarnation();
        if (hello.lossPpm() != outboundPpm) {
            outboundPpm = hello.lossPpm();
            measured = true;
        }

        boolean echoMatches = echoesOurHello(hello);
        if (echoMatches) {
            measured |= sampleRtt(hello, nowNanos);
        }
        long hold = hello.echoHoldNanos();
        boolean fresh = echoMatches && hold >= 0 && hold < deadIntervalNanos;

        boolean answer = false;
        if (status == LinkStatus.UP) {
            if (!fresh) {
                goDown(nowNanos);
                answer = true;
            }
        } else if (fresh) {
            if (++freshEchoes >= config.upCount()) {
                goUp(nowNanos);
                answer = true;
            }
        } else {
            // The peer cannot be up without hearing us: answer now rather than at a backed-off hello.
            freshEchoes = 0;
            answer = true;
        }
        if (measured) {
            out.qualityChanged(nowNanos);
        }
        if (answer) {
            sendHello(nowNanos);
        }
    }

    /**
     * Whether {@code hello} proves that the peer sent it just now, in answer to us: it is newer than
     * every hello of the peer seen so far (or from a new incarnation), and it echoes one of our own
     * recent hellos, held for less than the dead interval, sent less than the dead interval ago. A
     * replayed or long-delayed hello fails this, whatever address it comes from; a peer that really
     * moved passes it with its first hello after the move. Changes nothing.
     */
    public boolean provesFreshness(HelloPacket hello, long nowNanos) {
        if (order(hello) == HelloOrder.STALE || !echoesOurHello(hello)) {
            return false;
        }
        long hold = hello.echoHoldNanos();
        return hold >= 0 && hold < deadIntervalNanos && nowNanos - hello.echoSendTimeNanos() < deadIntervalNanos;
    }

    /**
     * Sends one hello now, outside the schedule, so that an echo of it can prove freshness (see
     * {@link #provesFreshness}); the regular schedule is left as it is.
     */
    public void sendProbe(long nowNanos) {
        long next = nextHelloAt;
        sendHello(nowNanos);
        nextHelloAt = next;
    }

    /**
     * Any packet from the peer (hello, data, control) with its u32 link sequence number (low 32 bits
     * used). Keeps the link alive and feeds the inbound loss estimate.
     */
    public void onPacketReceived(long linkSequence, long nowNanos) {
        heard(nowNanos);
        if (loss.onPacket(linkSequence)) {
            out.qualityChanged(nowNanos);
        }
    }

    /** Time has passed: declares an up link dead after the dead interval, and sends due hellos. */
    public void onTimer(long nowNanos) {
        if (status == LinkStatus.UP && nowNanos - lastHeardAt >= deadIntervalNanos) {
            goDown(nowNanos);
        }
        if (nowNanos - nextHelloAt >= 0) {
            sendHello(nowNanos);
        }
    }

    /** When {@link #onTimer} next has something to do; never {@code Long.MAX_VALUE}, hellos never stop. */
    public long nextDeadlineNanos() {
        long next = nextHelloAt;
        if (status == LinkStatus.UP) {
            long dead = lastHeardAt + deadIntervalNanos;
            if (dead - next < 0) {
                next = dead;
            }
        }
        return next;
    }

    /**
     * Back to CONNECTING as if newly created (e.g. the neighbour was removed and added again):
     * forgets measurements and peer state, keeps lifetime counters and the hello sequence (so echoes
     * of hellos sent before the reset cannot match). Emits {@code linkDown} if the link was up. The
     * next hello is due at {@code nowNanos}.
     */
    public void reset(long nowNanos) {
        boolean wasUp = status == LinkStatus.UP;
        status = LinkStatus.CONNECTING;
        rtt.reset();
        clock.reset();
        jitter.reset();
        loss.reset();
        Arrays.fill(sentSeq, 0);
        heardPeer = false;
        freshEchoes = 0;
        havePeerHello = false;
        outboundPpm = 0;
        peerName = null;
        nextHelloAt = nowNanos;
        // The peer must learn that we forgot it, as if we had restarted.
        long next = nowNanos == incarnation ? nowNanos + 1 : nowNanos;
        incarnation = next == 0 ? 1 : next;
        if (wasUp) {
            downTransitions++;
            out.linkDown(nowNanos);
        }
    }

    public LinkStatus status() {
        return status;
    }

    public LinkStatistics statistics() {
        return new LinkStatistics(status, rtt.srtt(), rtt.rttVar(), rtt.min(), rtt.last(), jitter.jitterNanos(),
                loss.lossRate(), outboundLossRate(), hellosSent, hellosReceived, loss.received(), loss.lost(),
                upTransitions, downTransitions, clock.offsetNanos());
    }

    /**
     * Half the smoothed RTT, the latency routing uses for this link. 0 before the first RTT sample;
     * an up link always has one unless every sample was rejected, because the echo that brings a
     * link up is also measured.
     */
    public long oneWayLatencyNanos() {
        return rtt.srtt() / 2;
    }

    /**
     * The peer's monotonic clock minus ours, from the hellos ({@link ClockOffset}): subtract it from
     * a time the peer stamped to read it on our clock. 0 before the first echo, and when the two
     * clocks may be one.
     */
    public long peerClockOffsetNanos() {
        return clock.offsetNanos();
    }

    /** Loss on packets to the peer as the peer last reported it, in [0, 1]: what routing advertises. */
    public double outboundLossRate() {
        return outboundPpm / (double) HelloPacket.PPM;
    }

    /** Loss on packets from the peer, in [0, 1], as measured here (and reported to the peer). */
    public double inboundLossRate() {
        return loss.lossRate();
    }

    public NodeId self() {
        return self;
    }

    public NodeId peer() {
        return peer;
    }

    public HelloConfig config() {
        return config;
    }

    /** The sender name of the peer's latest hello, or null before any. */
    public String peerName() {
        return peerName;
    }

    /** This monitor's incarnation, as sent in its hellos. */
    public long incarnation() {
        return incarnation;
    }

    /** Times the peer's hellos showed a new incarnation. */
    public long peerRestarts() {
        return peerRestarts;
    }

    /** Peer hellos that arrived reordered or duplicated and were not measured. */
    public long staleHellos() {
        return staleHellos;
    }

    /** Echoes whose RTT sample came out negative (clock trouble or a lying peer). */
    public long rejectedRttSamples() {
        return rejectedRttSamples;
    }

    /** Link sequence numbers received more than once. */
    public long duplicatePackets() {
        return loss.duplicates();
    }

    @Override
    public String toString() {
        return "LinkMonitor[" + selfName + " -> " + (peerName != null ? peerName : peer.toString()) + ", " + status
                + "]";
    }

    /** The hello sequence number after {@code seq}: u32, skipping 0 (which means "no echo"). */
    static long nextSeq(long seq) {
        return seq >= HelloPacket.MAX_SEQ ? 1 : seq + 1;
    }

    private void heard(long now) {
        heardPeer = true;
        lastHeardAt = now;
        if (nextHelloAt - (now + intervalNanos) > 0) {
            // The peer is back: leave the backed-off schedule now, not at the next slow hello.
            nextHelloAt = now + intervalNanos;
        }
    }

    private HelloOrder order(HelloPacket hello) {
        if (!havePeerHello) {
            return HelloOrder.NEW;
        }
        if (hello.incarnation() != peerIncarnation) {
            return HelloOrder.RESTART;
        }
        return (int) (hello.seq() - peerSeq) > 0 ? HelloOrder.NEW : HelloOrder.STALE;
    }

    private void peerRestarted(long now) {
        peerRestarts++;
        havePeerHello = false;
        clock.reset();
        jitter.forgetTransit();
        loss.resync();
        if (status == LinkStatus.UP) {
            goDown(now);
        }
    }

    private boolean echoesOurHello(HelloPacket hello) {
        long echo = hello.echoSeq();
        if (echo == 0) {
            return false;
        }
        int slot = (int) (echo % SENT_HISTORY);
        return sentSeq[slot] == echo && sentTime[slot] == hello.echoSendTimeNanos();
    }

    private boolean sampleRtt(HelloPacket hello, long now) {
        long hold = hello.echoHoldNanos();
        long sample = now - hello.echoSendTimeNanos() - hold;
        if (hold < 0 || sample < 0) {
            rejectedRttSamples++;
            return false;
        }
        rtt.onSample(sample);
        clock.onSample(hello.echoSendTimeNanos(), hold, hello.sendTimeNanos(), now);
        return true;
    }

    private void sendHello(long now) {
        long seq = nextHelloSeq;
        nextHelloSeq = nextSeq(seq);
        HelloPacket hello = havePeerHello
                ? new HelloPacket(seq, now, peerSeq, peerSendTime, now - peerHelloArrival,
                        HelloPacket.toPpm(loss.lossRate()), selfName, incarnation)
                : new HelloPacket(seq, now, 0, 0, 0, HelloPacket.toPpm(loss.lossRate()), selfName, incarnation);
        int slot = (int) (seq % SENT_HISTORY);
        sentSeq[slot] = seq;
        sentTime[slot] = now;
        hellosSent++;
        boolean peerRecent = status == LinkStatus.UP || (heardPeer && now - lastHeardAt < deadIntervalNanos);
        nextHelloAt = now + (peerRecent ? intervalNanos : downIntervalNanos);
        out.sendHello(hello);
    }

    private void goUp(long now) {
        status = LinkStatus.UP;
        freshEchoes = 0;
        upTransitions++;
        out.linkUp(now);
    }

    private void goDown(long now) {
        status = LinkStatus.DOWN;
        freshEchoes = 0;
        downTransitions++;
        // Packets lost while the link was dead are an outage, not a loss rate to carry forward.
        loss.resync();
        out.linkDown(now);
    }
}
