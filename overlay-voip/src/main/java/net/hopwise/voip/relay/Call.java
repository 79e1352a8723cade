package net.hopwise.voip.relay;

import java.util.ArrayList;
import java.util.List;
import net.hopwise.voip.sdp.SdpOriginVersions;

/**
 * One call at one relay, keyed by Call-ID: the dialog (the caller's and callee's tags, and the hop
 * each side is reached by, so that in-dialog requests without a usable Route still find their way),
 * the media streams, and the call's life: active until a BYE, a failure of the INVITE or a media
 * timeout, then lingering a while to absorb retransmissions, then gone.
 */
final class Call {
    enum State { SETUP, CONFIRMED, ENDED }

    final String callId;
    final long createdNanos;
    final String from;
    final String to;
    String callerTag;
    /** The callee's tag of the dialog the call is: the first 2xx's, or before one the first early dialog's. */
    String calleeTag;
    Hop callerHop;
    Hop calleeHop;
    /**
     * Every dialog a forked INVITE made, by the callee's tag: early dialogs of each branch, and the
     * dialog of a 2xx that came after the winning one, which the caller still ACKs and ends by BYE.
     */
    final java.util.Map<String, Hop> calleeHops = new java.util.HashMap<>();
    State state = State.SETUP;
    long lastActivityNanos;
    long endedAtNanos;
    String endReason;
    final List<MediaStream> streams = new ArrayList<>();
    final SdpOriginVersions versions = new SdpOriginVersions();

    Call(String callId, String from, String to, long nowNanos) {
        this.callId = callId;
        this.from = from;
        this.to = to;
        this.createdNanos = nowNanos;
        this.lastActivityNanos = nowNanos;
    }

    MediaStream stream(int index) {
        return index < streams.size() ? streams.get(index) : null;
    }

    void putStream(MediaStream s) {
        while (streams.size() <= s.index) {
            streams.add(null);
        }
        streams.set(s.index, s);
    }

    /** Whether every stream with media is on hold (then the long media timeout applies). */
    boolean onHold() {
        boolean any = false;
        for (MediaStream s : streams) {
            if (s != null) {
                any = true;
                if (!s.held) {
                    return false;
                }
            }
        }
        return any;
    }

    /**
     * Where an in-dialog request goes: from the caller to the callee the dialog's {@code toTag} names
     * (each branch of a fork is a dialog of its own), from any callee to the caller.
     */
    Hop peerOf(String fromTag, String toTag) {
        if (fromTag != null && fromTag.equals(callerTag)) {
            Hop branch = toTag == null ? null : calleeHops.get(toTag);
            return branch != null ? branch : calleeHop;
        }
        if (fromTag != null && (fromTag.equals(calleeTag) || calleeHops.containsKey(fromTag))) {
            return callerHop;
        }
        return null;
    }

    /**
     * Whether a BYE with these tags ends the call, rather than one of the other dialogs of a fork
     * (a late 2xx the caller accepts and hangs up at once must not end the call that won).
     */
    boolean isCallDialog(String fromTag, String toTag) {
        return calleeTag == null || calleeTag.equals(fromTag) || calleeTag.equals(toTag);
    }
}
