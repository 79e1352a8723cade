package net.hopwise.overlay.link;

/** Whether an overlay link can carry traffic, as its {@link LinkMonitor} judges it. */
public enum LinkStatus {
    /** Never up since the monitor was created or reset: no fresh echo from the peer yet. */
    CONNECTING,
    /** The peer echoes our hellos: both directions carry packets. */
    UP,
    /** Was up, then the peer fell silent or showed that it no longer hears us. */
    DOWN
}
