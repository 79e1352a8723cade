package net.hopwise.overlay.daemon;

/**
 * The daemon cannot run as asked: a bad argument, or an address it cannot bind. The message is one
 * line for the operator and is all that is shown; the process exits with {@link #EXIT_CODE}.
 */
public final class SetupException extends Exception {
    /** The conventional exit code of a command used wrongly (as getopt-based tools use it). */
    public static final int EXIT_CODE = 2;

    public SetupException(String message) {
        super(message);
    }

    public SetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
