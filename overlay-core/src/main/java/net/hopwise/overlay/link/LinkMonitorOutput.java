package net.hopwise.overlay.link;

/**
 * Where a {@link LinkMonitor} puts what it decides. Called synchronously from the monitor's input
 * methods, after the monitor's own state is updated, so an implementation may query the monitor. An
 * implementation must not feed the same monitor from inside these calls.
 */
public interface LinkMonitorOutput {
    /** Send this hello to the peer (the engine adds the header and link sequence number). */
    void sendHello(HelloPacket hello);

    /** The link became {@link LinkStatus#UP}. Every linkUp is followed by one linkDown before the next linkUp. */
    void linkUp(long nowNanos);

    /** The link went from {@link LinkStatus#UP} to {@link LinkStatus#DOWN} (or was reset while up). */
    void linkDown(long nowNanos);

    /**
     * RTT, jitter, inbound or outbound loss changed. Emitted often (up to once per hello and once per
     * loss event); the engine decides whether the change matters for routing and rate-limits floods.
     */
    void qualityChanged(long nowNanos);
}
