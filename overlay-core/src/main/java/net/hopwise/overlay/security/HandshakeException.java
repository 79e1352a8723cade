package net.hopwise.overlay.security;

/** A handshake message that must be refused: the attempt it belongs to is over. */
public final class HandshakeException extends Exception {
    private static final long serialVersionUID = 1L;

    public HandshakeException(String message) {
        super(message, null, false, false);
    }
}
