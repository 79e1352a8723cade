package net.hopwise.overlay.wire;

/** Why a node dropped a packet; every drop is counted under exactly one reason. */
public enum DropReason {
    /** Shorter than the fixed header, or shorter than the body length the header declares. */
    TRUNCATED("truncated"),
    /** Longer than the largest datagram a node accepts. */
    OVERSIZED("oversized"),
    /** The first two bytes are not the Hopwise magic: not our traffic. */
    BAD_MAGIC("bad_magic"),
    /** A protocol version this node does not speak. */
    UNKNOWN_VERSION("unknown_version"),
    /** A packet type this node does not know. */
    UNKNOWN_TYPE("unknown_type"),
    /** The body does not parse as its type says. */
    MALFORMED("malformed"),
    /** Addressed to another node, or sent by a node that is not a configured neighbour. */
    NOT_A_NEIGHBOUR("not_a_neighbour"),
    /** The hop limit ran out before the destination. */
    HOP_LIMIT("hop_limit"),
    /** No route to the destination under the packet's metric. */
    NO_ROUTE("no_route"),
    /** Addressed to a port nobody has opened. */
    PORT_CLOSED("port_closed"),
    /** A fragment that could not be reassembled (timed out, or reassembly memory full). */
    REASSEMBLY("reassembly"),
    /** The socket could not take the packet. */
    SEND_FAILED("send_failed"),
    /** Dropped by configured impairment. */
    IMPAIRMENT("impairment"),
    /**
     * Dropped by the kernel before the node could read it: the socket's receive buffer was full (the
     * {@code drops} column of /proc/net/udp for the node's socket; Linux only, 0 elsewhere and in the
     * simulator). A node that shows these is reading too slowly for what arrives: a larger
     * socketBufferBytes absorbs bursts, a busy host needs more cores.
     */
    SOCKET_BUFFER("socket_buffer"),
    /** A packet received again: a reliable one whose acknowledgement was lost, a real-time original and its retransmission. */
    DUPLICATE("duplicate"),
    /** A reliable packet from a link epoch or session incarnation that is over, or beyond the window. */
    STALE("stale"),
    /**
     * A reliable packet refused because the queue of the link it must leave by is full: it is not
     * acknowledged, so the previous hop keeps it and sends it again.
     */
    LINK_QUEUE_FULL("link_queue_full"),
    /** Reliable packets queued on a link that went down; their sessions resend them end to end. */
    LINK_DOWN("link_down"),
    /**
     * Handling the packet (or a timer) threw: a fault in protocol code reached by this input. The
     * packet is dropped, the exception is logged at WARN (rate limited), and the node carries on.
     */
    HANDLER_ERROR("handler_error"),
    /**
     * A link-state advertisement refused by a bound on what one neighbour may make this node store
     * and flood: too many per interval from that neighbour or for that origin, a sequence jump beyond
     * the allowed step, or a database already at its size limit.
     */
    LINK_STATE_LIMIT("link_state_limit"),
    /**
     * A hello from an address other than the neighbour's current one that does not prove it is fresh
     * (it does not echo one of our recent hellos): possibly a replay. It is answered with a probe hello
     * to that address instead of moving the neighbour there.
     */
    UNVERIFIED_HELLO("unverified_hello"),
    /**
     * A session packet that would open a new session while the node already has as many accepted
     * sessions open as it may: the sender retries end to end.
     */
    SESSION_LIMIT("session_limit"),
    /**
     * A real-time packet of a new flow arriving while the node keeps state for as many flows as it
     * may and none of them has been idle long enough to give up its slot.
     */
    FLOW_LIMIT("flow_limit"),
    /** A packet other than a hello from a configured neighbour's id but from an address other than its current one. */
    WRONG_ADDRESS("wrong_address"),
    /**
     * A link-state extension record refused by a bound on what one origin may make every node store:
     * larger than maxExtensionBytes, or a new kind of an origin that already holds maxExtensionsPerOrigin.
     */
    EXTENSION_LIMIT("extension_limit"),
    /**
     * Link state (an advertisement or an extension record) newer than the node holds whose origin's
     * signature is missing or does not verify, on a node that signs its link state: never installed,
     * acknowledged so that an honest sender stops resending it.
     */
    FORGED_LINK_STATE("forged_link_state");

    private final String tag;

    DropReason(String tag) {
        this.tag = tag;
    }

    /** The value of the {@code reason} tag on drop meters. */
    public String tag() {
        return tag;
    }
}
