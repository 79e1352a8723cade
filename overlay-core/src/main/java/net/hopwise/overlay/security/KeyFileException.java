package net.hopwise.overlay.security;

import java.io.IOException;

/** A key file that cannot be used: missing, malformed, or readable by others than its owner. */
public final class KeyFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public KeyFileException(String message) {
        super(message);
    }

    public KeyFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
