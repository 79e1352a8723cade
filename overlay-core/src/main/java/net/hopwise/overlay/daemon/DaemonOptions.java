package net.hopwise.overlay.daemon;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;

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
 */
public record DaemonOptions(
        String name,
        InetSocketAddress bind,
        List<NeighbourConfig> neighbours,
        InetSocketAddress metrics,
        Duration statisticsInterval,
        int echoPort,
        boolean untilStdinCloses) {

    /**
     * One minute: the log is read by a person, who wants a link's RTT, loss and state and what was
     * dropped without the log being mostly statistics (a node with ten links writes a dozen lines a
     * minute); anything finer grained is what the Prometheus endpoint is for.
     */
    public static final Duration DEFAULT_STATISTICS_INTERVAL = Duration.ofMinutes(1);

    public DaemonOptions {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bind, "bind");
        neighbours = List.copyOf(neighbours);
        Objects.requireNonNull(statisticsInterval, "statisticsInterval");
    }

    /** The node's configuration, its meters registered in {@code registry} (null for the node's own). */
    public NodeConfig nodeConfig(MeterRegistry registry) {
        NodeConfig.Builder b = NodeConfig.builder(name).bindAddress(bind).neighbours(neighbours);
        if (registry != null) {
            b.meterRegistry(registry);
        }
        return b.build();
    }
}
