package net.hopwise.overlay.daemon;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.OverlayPort;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.reload.SecurityFiles;
import net.hopwise.overlay.security.reload.SecurityReload;

/**
 * A running node daemon: the node, its event log, its periodic statistics and, when asked, its
 * Prometheus endpoint. {@link net.hopwise.overlay.NodeDaemon} runs one from the command line; tests
 * start one directly.
 */
public final class Daemon implements AutoCloseable {
    /** Pending log lines are written out for at most this long when the daemon closes. */
    private static final long FLUSH_MILLIS = 1000;

    private final OverlayNode node;
    private final MetricsServer metrics;
    private final ScheduledExecutorService logThread;
    private final EventLog events;
    private final StatisticsReport statistics;
    private final AtomicBoolean closed = new AtomicBoolean();
    private SecurityReload securityReload;
    private final List<AutoCloseable> reloadHandles = new ArrayList<>();

    private Daemon(OverlayNode node, MetricsServer metrics, ScheduledExecutorService logThread, DaemonLog log) {
        this.node = node;
        this.metrics = metrics;
        this.logThread = logThread;
        this.events = new EventLog(node, logThread, log);
        this.statistics = new StatisticsReport(node, log);
    }

    /**
     * Binds the metrics endpoint (if any) and the node's socket, and starts logging to {@code log}.
     *
     * @throws SetupException when an address cannot be bound; nothing is left running then
     */
    public static Daemon start(DaemonOptions options, DaemonLog log) throws SetupException {
        MetricsServer metrics = options.metrics() == null ? null : startMetrics(options.metrics());
        OverlayNode node;
        try {
            node = OverlayNode.start(options.nodeConfig(metrics == null ? null : metrics.registry()));
        } catch (RuntimeException e) {
            if (metrics != null) {
                metrics.close();
            }
            throw bindFailure(options.bind(), e);
        }
        ScheduledExecutorService logThread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hopwise-daemon-log");
            t.setDaemon(true);
            return t;
        });
        Daemon daemon = new Daemon(node, metrics, logThread, log);
        daemon.begin(options, log);
        return daemon;
    }

    private void begin(DaemonOptions options, DaemonLog log) {
        if (options.echoPort() > 0) {
            OverlayPort[] port = new OverlayPort[1];
            port[0] = node.openPort(options.echoPort(), m -> port[0].send(m.source(), m.sourcePort(), m.payloadBytes(),
                    node.config().defaultMetric()));
        }
        List<String> neighbourNames = new ArrayList<>();
        for (NeighbourConfig n : options.neighbours()) {
            neighbourNames.add(n.name() + "@" + Text.address(n.address()));
        }
        log.log(Level.INFO, "node " + node.name() + " (id " + node.id() + ") listening on UDP "
                + Text.address(node.localAddress()) + " (" + node.transport() + "), neighbours: "
                + (neighbourNames.isEmpty() ? "none" : String.join(", ", neighbourNames))
                + (metrics == null ? "" : "; metrics at http://" + Text.address(metrics.address()) + MetricsServer.PATH)
                + "; statistics " + (options.statisticsInterval().isZero() ? "off"
                        : "every " + options.statisticsInterval().toSeconds() + " s"));
        // Registered on the node's loop, where events are raised: a link that came up before is
        // reported from the snapshot taken there, one that comes up after by its event, none twice.
        List<Neighbour> upAlready = node.inspect(engine -> {
            node.addListener(events);
            List<Neighbour> up = new ArrayList<>();
            for (Neighbour n : node.neighbours()) {
                if (n.status() == LinkStatus.UP) {
                    up.add(n);
                }
            }
            return up;
        });
        for (Neighbour n : upAlready) {
            logThread.execute(() -> log.log(Level.INFO, "link " + n.name() + " up at " + Text.address(n.address())));
        }
        if (options.security() == null) {
            // Loud on purpose: an operator who copied a test command must not run an open overlay unawares.
            log.log(Level.WARNING, "node " + node.name() + ": links are NOT authenticated or encrypted (--insecure): "
                    + "any host that reaches UDP port " + node.localAddress().getPort()
                    + " can join the overlay, inject traffic and link state, and read every payload");
        } else {
            var s = options.security();
            log.log(Level.INFO, "node " + node.name() + ": links authenticated and encrypted ("
                    + s.cipherSuite().protocolName() + "), identity key " + s.keys().fingerprint() + ", admitting "
                    + (s.certificate() == null ? "the trusted-keys list" : "nodes certified by the authority"));
        }
        if (options.securityFiles() != null) {
            startSecurityReload(options, log);
        }
        events.routesMayHaveChanged();
        long every = options.statisticsInterval().toMillis();
        if (every > 0) {
            logThread.scheduleAtFixedRate(statistics, every, every, TimeUnit.MILLISECONDS);
        }
    }

    private void startSecurityReload(DaemonOptions options, DaemonLog log) {
        SecurityFiles files = options.securityFiles();
        securityReload = new SecurityReload(options.security(), files, node.module(SecureLinks.class), log);
        securityReload.start();
        reloadHandles.add(securityReload.checkEvery(logThread));
    }

    /**
     * Makes SIGHUP re-read the security files until the daemon closes, and logs how changes to them are
     * picked up ({@link SecurityReload#reloadOnHangup}). For a daemon that runs as its own process: a
     * JVM has one SIGHUP handler.
     */
    public synchronized void reloadOnHangup() {
        if (reloadsSecurityFiles() && !closed.get()) {
            reloadHandles.add(securityReload.reloadOnHangup("--reload-interval"));
        }
    }

    /**
     * Applies the security files that changed since they were last read (the certificate, the
     * trusted-keys list, the revocation list), as the periodic check does; completes once each is
     * applied or refused (and logged). Completes at once for a daemon without them.
     */
    public CompletableFuture<Void> checkSecurityFiles() {
        return securityReload == null ? CompletableFuture.completedFuture(null) : securityReload.check();
    }

    /** Re-reads every security file whether it changed or not, as SIGHUP asks; see {@link #checkSecurityFiles}. */
    public CompletableFuture<Void> reloadSecurityFiles() {
        return securityReload == null ? CompletableFuture.completedFuture(null) : securityReload.reloadAll();
    }

    /** Whether this daemon re-reads security files: it has some and was started with keys. */
    public boolean reloadsSecurityFiles() {
        return securityReload != null && !securityReload.isEmpty();
    }

    private static MetricsServer startMetrics(InetSocketAddress address) throws SetupException {
        String option = "--metrics " + Text.address(address);
        try {
            return MetricsServer.start(address);
        } catch (BindException e) {
            throw new SetupException(option + ": TCP port " + address.getPort() + " is already in use or not "
                    + "available here (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new SetupException(option + ": cannot serve metrics: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new SetupException(option + " needs micrometer-registry-prometheus on the class path "
                    + "(the overlay-core daemon jar includes it)", e);
        }
    }

    /** What went wrong when the node could not start, in one line naming the address. */
    private static SetupException bindFailure(InetSocketAddress bind, RuntimeException e) {
        String option = "--bind " + Text.address(bind);
        Throwable root = e;
        boolean io = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            io |= t instanceof IOException;
            root = t;
        }
        String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (why.toLowerCase(java.util.Locale.ROOT).contains("already in use")) {
            return new SetupException(option + ": UDP port " + bind.getPort()
                    + " is already in use (another node or program is bound to it)", e);
        }
        if (io) {
            return new SetupException(option + ": cannot bind UDP: " + why, e);
        }
        return new SetupException("cannot start node: " + why, e);
    }

    public OverlayNode node() {
        return node;
    }

    /** Where the Prometheus endpoint listens (the real port when 0 was asked for), or null without one. */
    public InetSocketAddress metricsAddress() {
        return metrics == null ? null : metrics.address();
    }

    /** Logs the statistics now, on the log thread, as the periodic report does. */
    public void reportStatistics() {
        logThread.execute(statistics);
    }

    /** Stops the node, then the endpoint; log lines already queued are written first. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        synchronized (this) {
            for (AutoCloseable h : reloadHandles) {
                try {
                    h.close();
                } catch (Exception e) {
                    // A handle only cancels a task or a registration; nothing is left to undo.
                }
            }
        }
        node.removeListener(events);
        logThread.shutdown();
        try {
            logThread.awaitTermination(FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        logThread.shutdownNow();
        node.stop();
        if (metrics != null) {
            metrics.close();
        }
    }
}
