package net.hopwise.overlay.session;

/**
 * Decides whether a node takes a session a remote node opened towards one of its ports. Called on
 * the node's event loop with the new end, before its first packet is taken; to accept, set its
 * handler ({@link SessionEndpoint#handler(net.hopwise.overlay.MessageHandler)}) and return true.
 */
@FunctionalInterface
public interface SessionAcceptor {
    boolean accept(SessionEndpoint session);
}
