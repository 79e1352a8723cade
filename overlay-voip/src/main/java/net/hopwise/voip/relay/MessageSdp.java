package net.hopwise.voip.relay;

import net.hopwise.voip.body.SipBody;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipMessageEditor;

/**
 * The SDP of any SIP message on its way through the relay (INVITE, 18x, 2xx, ACK of a late offer,
 * re-INVITE, UPDATE, PRACK: whichever carries one): read and given relay ports when it leaves a
 * phone for the overlay, rewritten to the relay's own address and ports when it comes from the
 * overlay for a phone. A message between two phones of one site, or passing between two other
 * relays, keeps its SDP.
 */
final class MessageSdp {
    /** What {@link #apply} returns when a request must be refused: no media ports were left. */
    static final int[] REFUSED = new int[0];

    private final Calls calls;

    MessageSdp(Calls calls) {
        this.calls = calls;
    }

    /**
     * Handles the SDP of {@code m} going from {@code from} to {@code to}, writing a rewrite into
     * {@code e}; returns the overlay ports for the envelope (null when there are none), or
     * {@link #REFUSED}.
     */
    int[] apply(SipMessage m, SipMessageEditor e, Hop from, Hop to, Call call, int[] remotePorts, long now) {
        if (call == null || m.bodyLength() == 0) {
            return null;
        }
        SipBody body = SipBody.of(m);
        if (!body.hasSdp()) {
            return null;
        }
        if (from instanceof Hop.Phone && to instanceof Hop.Node) {
            int[] ports = calls.fromPhone(call, body.sdp(), now);
            // A response still goes on without relay ports (the call signals, its media cannot flow);
            // a request is refused instead.
            return ports == null && m.isRequest() ? REFUSED : ports;
        }
        if (from instanceof Hop.Node n && to instanceof Hop.Phone) {
            byte[] rewritten = calls.toPhone(call, body.sdp(), remotePorts == null ? new int[0] : remotePorts,
                    n.name(), now);
            if (rewritten == null) {
                return m.isRequest() ? REFUSED : null;
            }
            e.replaceBody(body.withSdp(rewritten), null);
        }
        return null;
    }
}
