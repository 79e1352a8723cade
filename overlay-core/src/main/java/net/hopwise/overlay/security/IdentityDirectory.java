package net.hopwise.overlay.security;

import java.util.List;

/**
 * The identity keys a node accepts for another node's name, for what that node signs (its
 * link-state advertisements) rather than for a handshake: any node's, not only a neighbour's.
 */
@FunctionalInterface
public interface IdentityDirectory {
    /** The identity keys that may sign for {@code name}; empty when it is unknown. */
    List<byte[]> keys(String name);
}
