package net.hopwise.overlay.link;

import java.util.Objects;
import net.hopwise.overlay.NodeId;

/**
 * The body of a hello: liveness, an echo for RTT without synchronised clocks, and the loss the
 * sender sees on the reverse direction.
 *
 * <p>Times are on the clock of whoever wrote them; the receiver only ever subtracts times taken on
 * one clock, so the two nodes' clocks need not agree (only tick at about the same rate).
 *
 * @param seq the sender's hello counter, u32, never 0 (it skips 0 when it wraps)
 * @param sendTimeNanos when the sender sent this hello, on the sender's clock
 * @param echoSeq seq of the latest hello the sender received from the receiver, or 0 if none
 * @param echoSendTimeNanos sendTimeNanos of that echoed hello (the receiver's clock); 0 if none
 * @param echoHoldNanos how long the sender held the echoed hello before sending this one (its clock)
 * @param lossPpm loss the sender measures on packets from the receiver, parts per million, 0..1,000,000
 * @param senderName the sender's node name (see {@link NodeId#requireValidName}), at most 64 bytes
 * @param incarnation identifies the sender's monitor instance for this link; it changes when the
 *     sender restarts or resets the link, which tells the receiver to forget what it knew of the
 *     sender. 0 means unknown.
 */
public record HelloPacket(
        long seq,
        long sendTimeNanos,
        long echoSeq,
        long echoSendTimeNanos,
        long echoHoldNanos,
        int lossPpm,
        String senderName,
        long incarnation) {

    /** Largest u32 value, the last hello sequence number before wrapping to 1. */
    public static final long MAX_SEQ = 0xFFFF_FFFFL;

    /** One in parts per million: a 100% loss rate. */
    public static final int PPM = 1_000_000;

    /** @throws IllegalArgumentException if a field does not fit its wire range */
    public HelloPacket {
        if (seq < 1 || seq > MAX_SEQ) {
            throw new IllegalArgumentException("seq must be in 1.." + MAX_SEQ + ", got " + seq);
        }
        if (echoSeq < 0 || echoSeq > MAX_SEQ) {
            throw new IllegalArgumentException("echoSeq must be in 0.." + MAX_SEQ + ", got " + echoSeq);
        }
        if (lossPpm < 0 || lossPpm > PPM) {
            throw new IllegalArgumentException("lossPpm must be in 0.." + PPM + ", got " + lossPpm);
        }
        // One naming rule for the whole overlay: names end up in logs and meter tags.
        NodeId.requireValidName(Objects.requireNonNull(senderName, "senderName"));
    }

    /** A hello of unknown incarnation. */
    public HelloPacket(long seq, long sendTimeNanos, long echoSeq, long echoSendTimeNanos, long echoHoldNanos,
            int lossPpm, String senderName) {
        this(seq, sendTimeNanos, echoSeq, echoSendTimeNanos, echoHoldNanos, lossPpm, senderName, 0);
    }

    /** Converts a loss rate in [0, 1] to the wire's parts per million, rounding to nearest. */
    public static int toPpm(double lossRate) {
        if (!(lossRate > 0)) {
            return 0;
        }
        return lossRate >= 1 ? PPM : (int) Math.round(lossRate * PPM);
    }
}
