package net.hopwise.overlay.daemon;

import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;

/**
 * SIGHUP as operators use it with daemons: "re-read your files". Handled through {@code
 * sun.misc.Signal}, which the JDK keeps for exactly this; it is looked up reflectively because a JVM
 * may lack it or refuse the signal (Windows has no SIGHUP; {@code -Xrs} leaves signals to the JVM),
 * and then the daemon says so and relies on its periodic check of the files' modification times.
 */
public final class Hangup {
    private Hangup() {}

    /**
     * Makes SIGHUP run {@code action} (on the JVM's signal thread) instead of ending the process, as
     * the JVM does by default.
     *
     * @return null when installed, otherwise why not, in words for a log line
     */
    public static String install(Runnable action) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object signal = signalClass.getConstructor(String.class).newInstance("HUP");
            Object handler = Proxy.newProxyInstance(Hangup.class.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            action.run();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "SIGHUP handler of the hopwise daemon";
                    });
            signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
            return null;
        } catch (ClassNotFoundException e) {
            return "this JVM has no sun.misc.Signal";
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return "this JVM does not hand SIGHUP to programs here (" + cause.getMessage() + ")";
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "sun.misc.Signal is not usable here (" + e + ")";
        }
    }

    /**
     * Makes SIGHUP re-read the daemon's security files, and logs how changes to them are picked up:
     * by signal and every {@code checkInterval}, by the interval alone when the signal cannot be
     * handled, or not at all (said as a WARNING, since an operator counts on one or the other).
     */
    public static void reloadOnHangup(Daemon daemon, Duration checkInterval, DaemonLog log) {
        if (!daemon.reloadsSecurityFiles()) {
            return;
        }
        String why = install(daemon::reloadSecurityFiles);
        String every = checkInterval.isZero() ? null : "every " + checkInterval.toSeconds() + " s";
        if (why == null) {
            log.log(Level.INFO, "security files are re-read on SIGHUP" + (every == null ? "" : " and when changed, checked "
                    + every));
        } else if (every != null) {
            log.log(Level.WARNING, "SIGHUP cannot re-read the security files: " + why + "; they are re-read when changed,"
                    + " checked " + every);
        } else {
            log.log(Level.WARNING, "SIGHUP cannot re-read the security files: " + why + ", and --reload-interval is 0:"
                    + " changes to them apply only when the node restarts");
        }
    }
}
