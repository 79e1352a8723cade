package net.hopwise.overlay.security.reload;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * SIGHUP as operators use it with daemons: "re-read your files". Handled through {@code
 * sun.misc.Signal}, which the JDK keeps for exactly this; it is looked up reflectively because a JVM
 * may lack it or refuse the signal (Windows has no SIGHUP; {@code -Xrs} leaves signals to the JVM; a
 * process started under {@code nohup} keeps SIGHUP ignored), and then the caller says so and relies on its periodic check of the files' modification times.
 *
 * <p>A JVM has one handler per signal, and one JVM may run several nodes (the admin service's tests
 * start one per context): so the handler is installed once and runs every registered action, and
 * when the last registration is closed the JVM's own handler (ending the process) is put back.
 */
public final class Hangup {
    private static final List<Runnable> ACTIONS = new CopyOnWriteArrayList<>();
    /** The handler this class replaced, while its own is installed; null otherwise. */
    private static Object replaced;

    private Hangup() {}

    /**
     * Makes SIGHUP run {@code action} (on the JVM's signal thread, after the actions registered before
     * it) instead of ending the process, until the returned registration is closed.
     *
     * @return the registration, or, when SIGHUP cannot be handled in this JVM, one whose {@link
     *     Registration#unavailable()} says why, in words for a log line
     */
    public static synchronized Registration register(Runnable action) {
        if (replaced == null) {
            Object[] previous = new Object[1];
            String why = install(previous);
            if (why != null) {
                return new Registration(null, why);
            }
            replaced = previous[0];
        }
        ACTIONS.add(action);
        return new Registration(action, null);
    }

    /** Runs every registered action, as a SIGHUP does. */
    static void raise() {
        for (Runnable action : ACTIONS) {
            try {
                action.run();
            } catch (RuntimeException e) {
                // One node's failed reload must not keep the others from theirs; each logs its own.
                System.getLogger(Hangup.class.getName()).log(System.Logger.Level.WARNING,
                        "a SIGHUP reload failed: " + e);
            }
        }
    }

    private static synchronized void unregister(Runnable action) {
        ACTIONS.remove(action);
        if (ACTIONS.isEmpty() && replaced != null) {
            if (setHandler(replaced, new Object[1]) == null) {
                replaced = null;
            }
        }
    }

    private static String install(Object[] previous) {
        try {
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object handler = Proxy.newProxyInstance(Hangup.class.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            raise();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "SIGHUP handler of hopwise's security file reload";
                    });
            return setHandler(handler, previous);
        } catch (ClassNotFoundException e) {
            return "this JVM has no sun.misc.Signal";
        } catch (RuntimeException | LinkageError e) {
            return "sun.misc.Signal is not usable here (" + e + ")";
        }
    }

    /** Installs {@code handler} for SIGHUP; null when done (the one it replaced in {@code previous[0]}), else why not. */
    private static String setHandler(Object handler, Object[] previous) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Object signal = signalClass.getConstructor(String.class).newInstance("HUP");
            previous[0] = signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
            if (previous[0] == handlerClass.getField("SIG_IGN").get(null)) {
                // The JVM keeps a signal its process started with ignored (nohup, or a parent ignoring it)
                // ignored: it answers SIG_IGN and installs nothing, so no SIGHUP will ever reach the handler.
                return "SIGHUP is ignored in this process (started under nohup, or by a parent that ignores it)";
            }
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

    /** One action's hold on SIGHUP; closing it lets go (idempotent). */
    public static final class Registration implements AutoCloseable {
        private Runnable action;
        private final String unavailable;

        private Registration(Runnable action, String unavailable) {
            this.action = action;
            this.unavailable = unavailable;
        }

        /** Why SIGHUP cannot run the action in this JVM, or null when it does. */
        public String unavailable() {
            return unavailable;
        }

        @Override
        public synchronized void close() {
            if (action != null) {
                unregister(action);
                action = null;
            }
        }
    }
}
