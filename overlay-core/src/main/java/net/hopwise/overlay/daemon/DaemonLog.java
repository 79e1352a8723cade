package net.hopwise.overlay.daemon;

import java.lang.System.Logger.Level;

/** Where the daemon's event and statistics lines go: the platform logger, or a test's list. */
@FunctionalInterface
public interface DaemonLog {
    void log(Level level, String line);

    /** Through {@link System.Logger}, as the rest of the node logs (java.util.logging unless configured otherwise). */
    static DaemonLog system() {
        System.Logger logger = System.getLogger("net.hopwise.overlay.daemon");
        return logger::log;
    }
}
