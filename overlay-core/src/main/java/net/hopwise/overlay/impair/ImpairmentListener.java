package net.hopwise.overlay.impair;

import java.net.InetSocketAddress;

/**
 * Told of every datagram an {@link ImpairmentHandler} drops, on the channel's event loop, so the node
 * can count it under its drop reason {@code impairment} with the peer's tags. Must not block.
 */
@FunctionalInterface
public interface ImpairmentListener {
    ImpairmentListener NONE = (remote, direction, bytes) -> {};

    /** A datagram of {@code bytes} to or from {@code remote} was dropped by loss or queue overflow. */
    void dropped(InetSocketAddress remote, Direction direction, int bytes);
}
