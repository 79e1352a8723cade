package net.hopwise.admin.overlay;

/**
 * A link's state as the service sees it, declared from best to worst: a history point that stands
 * for several samples keeps the worst of their states.
 */
public enum LinkState {
    /** Both ends see the link up; routing uses it. */
    UP,
    /** Only one end lists the link (it is coming up or going down): routing does not use it. */
    ONE_WAY,
    /** A local end is still waiting for the first hello answer. */
    CONNECTING,
    /** Down: a local end declared it dead, or neither end advertises it any more. */
    DOWN
}
