package net.hopwise.overlay.wire;

/** The kinds of packet one node's UDP port carries; the code is the header's type byte. */
public enum PacketType {
    /** Liveness and link measurement between neighbours. */
    HELLO(1),
    /** Link-state advertisements, several per packet, flooded reliably. */
    LINK_STATE_UPDATE(2),
    /** Acknowledges the advertisements of one link-state update. */
    LINK_STATE_ACK(3),
    /** An application datagram (or a fragment of one) routed best-effort across the overlay. */
    DATA(4),
    /** Real-time data: forwarded at once even out of order, recovered once per link while still useful. */
    REALTIME_DATA(5),
    /** Asks the previous hop, once, for the real-time packets a gap revealed. */
    REALTIME_NACK(6),
    /**
     * Link-state extension records (a module's opaque per-origin records, such as multicast
     * membership), several per packet, flooded reliably beside the advertisements. A type of their
     * own, so that a node without them drops them as an unknown type and nothing else changes.
     */
    LINK_STATE_EXTENSION(7),
    /** Acknowledges link-state extension records. */
    LINK_STATE_EXTENSION_ACK(8),
    /**
     * A routed packet on a link's reliable channel: link-reliable sequence number, the
     * acknowledgement of the other direction, then the routed packet (data and session headers).
     */
    RELIABLE_DATA(16),
    /** Acknowledges a link's reliable channel when no reliable data goes back to carry it. */
    LINK_ACK(17);

    private static final PacketType[] BY_CODE = new PacketType[256];

    static {
        for (PacketType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    PacketType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with this code, or null for a code this version does not know. */
    public static PacketType ofCode(int code) {
        return code >= 0 && code < 256 ? BY_CODE[code] : null;
    }
}
