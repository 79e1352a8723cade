package net.hopwise.admin.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.reload.ReloadLog;
import net.hopwise.overlay.security.reload.SecurityFiles;
import net.hopwise.overlay.security.reload.SecurityReload;

/**
 * The service's node re-reads its certificate, trusted-keys list and revocation list while it runs,
 * exactly as NodeDaemon does ({@link SecurityReload}: the same checks, refusals and log lines): when a
 * file changes, checked every {@code hopwise.link-security.reload-interval}, and on SIGHUP. So an
 * operator renews a certificate or revokes a node without restarting the service. The demo and an
 * insecure node have nothing to re-read.
 */
public final class LinkSecurityReload implements AutoCloseable {
    static final String INTERVAL_SETTING = "hopwise.link-security.reload-interval";

    private final SecurityReload reload;
    private final SecurityFiles files;
    private final ScheduledExecutorService thread;
    private final List<AutoCloseable> handles = new ArrayList<>();
    private CompletableFuture<Void> started = CompletableFuture.completedFuture(null);

    private LinkSecurityReload(SecurityReload reload, SecurityFiles files, ScheduledExecutorService thread) {
        this.reload = reload;
        this.files = files;
        this.thread = thread;
    }

    /** Nothing to re-read: the demo's generated keys, or a node run insecure. */
    public static LinkSecurityReload none() {
        return new LinkSecurityReload(null, null, null);
    }

    /**
     * Starts re-reading the files of {@code settings} for {@code node}, which was started from the same
     * settings: publishes the revocation list, if any, then checks every interval and, with {@code
     * onHangup}, on SIGHUP (a JVM has one handler: the service, not a test beside others, takes it).
     *
     * @throws InvalidSettingsException when the settings no longer read as they did at the node's start
     */
    public static LinkSecurityReload start(LinkSecurityProperties settings, OverlayNode node, ReloadLog log,
            boolean onHangup) {
        SecurityFiles files;
        try {
            files = LinkSecuritySettings.toSecurityFiles(settings);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(List.of(e.getMessage()));
        }
        if (files == null) {
            return none();
        }
        // The node keeps its configuration to itself: reading the same files again gives this reload
        // the name, identity key and certificate it compares changes with.
        SecurityConfig security = LinkSecuritySettings.toSecurityConfig(settings, node.name());
        SecurityReload reload = new SecurityReload(security, files, node.module(SecureLinks.class), log);
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hopwise-security-reload");
            t.setDaemon(true);
            return t;
        });
        LinkSecurityReload started = new LinkSecurityReload(reload, files, thread);
        started.started = reload.start();
        started.handles.add(reload.checkEvery(thread));
        if (onHangup) {
            started.handles.add(reload.reloadOnHangup(INTERVAL_SETTING));
        }
        return started;
    }

    /** Completes once the revocation list the node started with is applied or refused (at once without one). */
    public CompletableFuture<Void> started() {
        return started;
    }

    /** The files watched, in the order they are re-read; empty when there is nothing to re-read. */
    public List<Path> watched() {
        return files == null ? List.of() : files.watched();
    }

    /** The interval between checks, or null when there is nothing to re-read. */
    public java.time.Duration checkInterval() {
        return files == null ? null : files.checkInterval();
    }

    /** Applies the files that changed since they were last read, as the periodic check does. */
    public CompletableFuture<Void> check() {
        return reload == null ? CompletableFuture.completedFuture(null) : reload.check();
    }

    /** Re-reads every file, changed or not, as SIGHUP does. */
    public CompletableFuture<Void> reloadAll() {
        return reload == null ? CompletableFuture.completedFuture(null) : reload.reloadAll();
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable h : handles) {
            try {
                h.close();
            } catch (Exception e) {
                // A handle only cancels a task or a registration; nothing is left to undo.
            }
        }
        handles.clear();
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
