package net.hopwise.voip.relay;

import java.util.Locale;

/**
 * Where a relay opens its calls' phone sockets ({@link RelayConfig#mediaThread}): on the node's loop,
 * where a packet crosses the relay on the thread that read it, or on a media loop of the relay's own,
 * which hands packets to and from the node's loop a turn at a time.
 */
public enum MediaThread {
    /**
     * The node's loop while the relay carries fewer than {@link RelayConfig#mediaThreadCalls} calls, the
     * media loop for the calls beyond: each call's choice is made when its pair of sockets is opened.
     */
    AUTO,
    /** Every call on the media loop. */
    ON,
    /** Every call on the node's loop: one thread per relay, and no media loop at all. */
    OFF;

    /** {@code auto}, {@code on} or {@code off} (also {@code true} and {@code false}, as the setting once was). */
    public static MediaThread parse(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "on", "true" -> ON;
            case "off", "false" -> OFF;
            default -> throw new IllegalArgumentException("media thread is auto, on or off, got " + value);
        };
    }
}
