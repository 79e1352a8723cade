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
    String calleeTag;
    Hop callerHop;
    Hop calleeHop;
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

    /** Where a request from the side whose tag is {@code fromTag} goes: the other side. */
    Hop peerOf(String fromTag) {
        if (fromTag != null && fromTag.equals(callerTag)) {
            return calleeHop;
        }
        if (fromTag != null && fromTag.equals(calleeTag)) {
            return callerHop;
        }
        return null;
    }
}
