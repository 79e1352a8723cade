package net.hopwise.overlay.security;

/** Why link security dropped a datagram; each is a counted drop reason of the node. */
public enum DropReason {
    /** Not a link security datagram of a known type and size: also every plaintext datagram. */
    MALFORMED("security_malformed"),
    /** An INIT with a cookie this node did not issue to that address (it gets a fresh one). */
    BAD_COOKIE("security_cookie"),
    /** A handshake message that does not authenticate, or answers no handshake in progress. */
    HANDSHAKE("security_handshake"),
    /** A peer that completed a handshake but is not admitted under the name it claimed. */
    REJECTED("security_rejected"),
    /** A handshake over the per-address or total handshake rate (after a valid cookie). */
    HANDSHAKE_RATE("security_handshake_rate"),
    /** Pending handshakes at their limit: the oldest gave way. */
    PENDING_LIMIT("security_pending_limit"),
    /** Data for no session this node has (a restart, an expired session, or made up). */
    UNKNOWN_SESSION("security_unknown_session"),
    /** Data whose tag does not verify: forged or corrupted. */
    FORGED("security_forged"),
    /**
     * Data that opened under one peer's keys but names another node as its sender: an admitted node
     * speaking for another, counted as that peer's forgery.
     */
    FORGED_SENDER("security_forged_sender"),
    /** Data whose counter was seen already or is too old for the window. */
    REPLAY("security_replay"),
    /** Data on a session past its age or packet limit. */
    EXPIRED("security_expired"),
    /** A datagram to a neighbour with no session that could not wait for the handshake. */
    NO_SESSION("security_no_session");

    private final String reason;

    DropReason(String reason) {
        this.reason = reason;
    }

    /** The drop reason's name in counters and meters. */
    public String reason() {
        return reason;
    }
}
