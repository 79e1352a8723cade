package net.hopwise.overlay.daemon;

import net.hopwise.overlay.security.reload.ReloadLog;

/**
 * Where the daemon's event and statistics lines go: the platform logger, or a test's list. A reload
 * of the security files writes to it too.
 */
@FunctionalInterface
public interface DaemonLog extends ReloadLog {
    /** Through {@link System.Logger}, as the rest of the node logs (java.util.logging unless configured otherwise). */
    static DaemonLog system() {
        System.Logger logger = System.getLogger("net.hopwise.overlay.daemon");
        return logger::log;
    }
}
