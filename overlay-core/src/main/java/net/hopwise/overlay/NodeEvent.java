package net.hopwise.overlay;

/**
 * Something that happened to a node's view of the overlay, for operators and dashboards.
 *
 * @param detail what changed, in words, where the kind alone does not say it (for {@link
 *     Kind#ADDRESS_CHANGED}: the old and the new address); null otherwise
 */
public record NodeEvent(Kind kind, String node, String peer, long timestampMillis, String detail) {
    /** An event whose kind says it all. */
    public NodeEvent(Kind kind, String node, String peer, long timestampMillis) {
        this(kind, node, peer, timestampMillis, null);
    }

    public enum Kind {
        /** A link to a neighbour came up. */
        LINK_UP,
        /** A link to a neighbour was declared dead. */
        LINK_DOWN,
        /** Route computation changed at least one next hop or path. */
        ROUTES_CHANGED,
        /** A neighbour was added at runtime. */
        NEIGHBOUR_ADDED,
        /** A neighbour was removed at runtime. */
        NEIGHBOUR_REMOVED,
        /** A neighbour's packets now come from another address (it moved, or fell back to its configured one). */
        ADDRESS_CHANGED
    }
}
