package net.hopwise.voip.sdp;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps the o= version the relay emits for each session owner monotonic (RFC 3264 section 8):
 * the first description of an owner keeps its version, a description whose incoming version is
 * unchanged (a retransmission, or an unchanged re-offer) gets the same outgoing version, and any
 * change, in the phone's version or in what the relay writes ({@link #bump}), moves it up by one.
 * One instance per call leg; entries go when the relay forgets the call.
 */
public final class SdpOriginVersions {
    private final Map<String, long[]> byOwner = new HashMap<>();

    /** The version to write for a description from {@code origin}. */
    public long next(Origin origin) {
        long[] state = byOwner.get(origin.owner());
        if (state == null) {
            byOwner.put(origin.owner(), new long[] {origin.version(), origin.version()});
            return origin.version();
        }
        if (state[0] != origin.version()) {
            state[0] = origin.version();
            state[1]++;
        }
        return state[1];
    }

    /** Moves the owner's outgoing version up by one because the relay's own rewrite changed; returns it. */
    public long bump(Origin origin) {
        long[] state = byOwner.get(origin.owner());
        if (state == null) {
            return next(origin);
        }
        return ++state[1];
    }

    public void forget(Origin origin) {
        byOwner.remove(origin.owner());
    }

    public int size() {
        return byOwner.size();
    }
}
