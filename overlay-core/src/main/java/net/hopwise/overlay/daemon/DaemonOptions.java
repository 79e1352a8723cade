package net.hopwise.overlay.daemon;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.reload.SecurityFiles;
import net.hopwise.overlay.trace.TraceModule;

/**
 * What a node daemon was asked to run, as {@link DaemonArguments} parsed it from the command line.
 *
 * @param name the node's name
 * @param bind where the node's UDP socket binds
 * @param neighbours the configured overlay neighbours, their hosts resolved
 * @param metrics where to serve Prometheus metrics over HTTP, or null for no endpoint
 * @param statisticsInterval how often to log link and drop statistics; {@link Duration#ZERO} for never
 * @param echoPort an overlay port whose messages go back to their sender, or 0 for none
 * @param untilStdinCloses whether to stop when standard input ends
 * @param trace a trace to run once, printing it and exiting, instead of running until stopped; null
 *     to run until stopped
 * @param security the node's link security; null when the operator chose unauthenticated links
 *     ({@code --insecure})
 * @param securityFiles the files {@code security} was read from, re-read while the node runs; null
 *     with {@code security} null, or for a daemon whose security is not re-read
 */
public record DaemonOptions(
        String name,
        InetSocketAddress bind,
        List<NeighbourConfig> neighbours,
        InetSocketAddress metrics,
        Duration statisticsInterval,
        int echoPort,
        boolean untilStdinCloses,
        Trace trace,
        net.hopwise.overlay.security.SecurityConfig security,
        SecurityFiles securityFiles) {

    /**
     * One minute: the log is read by a person, who wants a link's RTT, loss and state and what was
     * dropped without the log being mostly statistics (a node with ten links writes a dozen lines a
     * minute); anything finer grained is what the Prometheus endpoint is for.
     */
    public static final Duration DEFAULT_STATISTICS_INTERVAL = Duration.ofMinutes(1);

    /**
     * 15 s: a freshly started node needs its links up (one hello each way, 100 ms apart by default)
     * and the neighbours' advertisements flooded before it has a route, well under a second on a
     * healthy overlay; fifteen seconds also waits out a neighbour that is itself starting, and is
     * still short enough that an operator is not left wondering whether the command hangs.
     */
    public static final Duration DEFAULT_TRACE_WAIT = Duration.ofSeconds(15);

    /**
     * A one-shot trace ({@code --trace}).
     *
     * @param destination the node traced to
     * @param metric the metric whose route is traced; null for the node's default metric
     * @param routeWait how long to wait for a route to the destination, and to try again while it does
     *     not answer; zero traces once, at once
     */
    public record Trace(String destination, RoutingMetric metric, Duration routeWait) {
        public Trace {
            Objects.requireNonNull(destination, "destination");
            Objects.requireNonNull(routeWait, "routeWait");
        }
    }

    public DaemonOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bind, "bind");
        neighbours = List.copyOf(neighbours);
        Objects.requireNonNull(statisticsInterval, "statisticsInterval");
        if (securityFiles != null && security == null) {
            throw new IllegalArgumentException("security files without link security");
        }
    }

    /** A daemon that runs until stopped, with unauthenticated links. */
    public DaemonOptions(String name, InetSocketAddress bind, List<NeighbourConfig> neighbours,
            InetSocketAddress metrics, Duration statisticsInterval, int echoPort, boolean untilStdinCloses) {
        this(name, bind, neighbours, metrics, statisticsInterval, echoPort, untilStdinCloses, null, null, null);
    }

    /**
     * The node's configuration, its meters registered in {@code registry} (null for the node's own).
     * The trace module is installed on every daemon: it answers other nodes' traces, and {@code
     * --trace} uses it. Link security goes first, so that it sees every datagram next to the socket.
     */
    public NodeConfig nodeConfig(MeterRegistry registry) {
        NodeConfig.Builder b = NodeConfig.builder(name).bindAddress(bind).neighbours(neighbours);
        if (security != null) {
            b.module(new net.hopwise.overlay.security.SecurityModule(security));
        }
        b.module(new TraceModule());
        if (registry != null) {
            b.meterRegistry(registry);
        }
        return b.build();
    }
}
