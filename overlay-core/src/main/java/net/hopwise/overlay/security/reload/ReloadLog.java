package net.hopwise.overlay.security.reload;

import java.lang.System.Logger.Level;

/**
 * Where a reload says what it applied or refused, one line each: the daemon's log, the admin service's
 * logger, or a test's list, so that both programs report a file the same way.
 */
@FunctionalInterface
public interface ReloadLog {
    void log(Level level, String line);
}
