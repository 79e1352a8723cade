package net.hopwise.overlay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The datagrams the kernel dropped for want of room in a node's receive buffer, from the {@code drops}
 * column of /proc/net/udp and udp6 for the node's port. These never reach the node, so without this
 * they would be the one loss no counter shows: on a host too busy to read in time the overlay looks
 * loss-free while phones and applications hear gaps.
 *
 * <p>Read when asked (a meter scrape, an admin view), at most once a second since a relay with
 * thousands of media sockets makes the file hundreds of kilobytes. Where the file does not exist (not
 * Linux) or cannot be read, the count is 0. A port bound twice (SO_REUSEPORT) sums both sockets, which
 * are then the node's own.
 */
final class KernelSocketDrops implements LongSupplier {
    private static final long MIN_READ_INTERVAL_NANOS = 1_000_000_000L;
    private static final int DROPS_FIELD = 12;

    private final List<Path> tables;
    private final String portHex;
    private long readAtNanos = Long.MIN_VALUE;
    private long last;

    /**
     * Both tables: a socket bound to an IPv4 address may still be an IPv6 socket (Netty's epoll
     * transport opens dual-stack sockets), listed in udp6 with a mapped address.
     */
    KernelSocketDrops(InetSocketAddress local) {
        this(List.of(Path.of("/proc/net/udp"), Path.of("/proc/net/udp6")), local.getPort());
    }

    KernelSocketDrops(List<Path> tables, int port) {
        this.tables = tables;
        this.portHex = String.format(Locale.ROOT, ":%04X", port);
    }

    @Override
    public synchronized long getAsLong() {
        long now = System.nanoTime();
        if (readAtNanos != Long.MIN_VALUE && now - readAtNanos < MIN_READ_INTERVAL_NANOS) {
            return last;
        }
        readAtNanos = now;
        long sum = 0;
        for (Path table : tables) {
            try {
                sum += dropsOf(Files.readAllLines(table), portHex);
            } catch (IOException | RuntimeException e) {
                // Not Linux, no IPv6, or /proc hidden: nothing to add from this table.
            }
        }
        // Never below what was shown: a counter that went back would read as a reset to Prometheus.
        last = Math.max(last, sum);
        return last;
    }

    /** The sum of the drops column over the sockets whose local address ends in {@code portHex}. */
    static long dropsOf(List<String> lines, String portHex) {
        long sum = 0;
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).trim().split("\\s+");
            if (f.length > DROPS_FIELD && f[1].endsWith(portHex)) {
                try {
                    sum += Long.parseLong(f[DROPS_FIELD]);
                } catch (NumberFormatException e) {
                    // A format this code does not know: count nothing rather than something wrong.
                }
            }
        }
        return sum;
    }
}
