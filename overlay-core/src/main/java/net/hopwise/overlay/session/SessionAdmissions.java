package net.hopwise.overlay.session;

import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import net.hopwise.overlay.spi.SessionAdmission;

/**
 * The admission each node installed for its sessions ({@code ModuleContext.admitSessions}), found by
 * a session end from its node's session settings and its own node id. This is the interim wiring: the
 * session layer's node-side table of session ends is the natural holder (it would hand the admission
 * to each end it opens, with {@link SessionEndpoint#admit}), and once it does this registry goes. Keyed
 * by the settings object as well as the id, so that nodes of the same name in other simulations of
 * the same process, which share only the default settings, do not meet unless both run at once; held
 * weakly, so a node dropped without stopping takes its admission with it. Thread-safe; consulted once
 * per session opened.
 */
public final class SessionAdmissions {
    private static final Map<SessionConfig, Map<Long, WeakReference<SessionAdmission>>> INSTALLED = new IdentityHashMap<>();

    private SessionAdmissions() {}

    /**
     * Installs (or, with null, removes) the admission of the node {@code self} whose sessions run under
     * {@code config}; sessions opened afterwards are metered by it. A later call replaces it: a node
     * restarted in a simulation installs its new module's.
     */
    public static synchronized void install(SessionConfig config, long self, SessionAdmission admission) {
        Map<Long, WeakReference<SessionAdmission>> nodes = INSTALLED.computeIfAbsent(config, c -> new HashMap<>());
        if (admission == null) {
            nodes.remove(self);
        } else {
            nodes.put(self, new WeakReference<>(admission));
        }
        if (nodes.isEmpty()) {
            INSTALLED.remove(config);
        }
    }

    /** The admission of node {@code self} under {@code config}; null when none (the common case). */
    static synchronized SessionAdmission of(SessionConfig config, long self) {
        if (INSTALLED.isEmpty()) {
            return null;
        }
        Map<Long, WeakReference<SessionAdmission>> nodes = INSTALLED.get(config);
        WeakReference<SessionAdmission> r = nodes == null ? null : nodes.get(self);
        return r == null ? null : r.get();
    }
}
