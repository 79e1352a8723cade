package net.hopwise.admin.overlay;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.node.Neighbour;

/**
 * Throughput of the local links, from the byte counters at two successive samples. The engine counts
 * bytes, not rates; a rate needs two readings and the time between them, which only the sampler has.
 */
public final class LinkRates {
    /** Bits per second in and out over the last interval. */
    public record Rate(double inBps, double outBps) {}

    private record Reading(long bytesIn, long bytesOut, long atNanos) {}

    private final Map<String, Reading> readings = new ConcurrentHashMap<>();
    private final Map<String, Rate> rates = new ConcurrentHashMap<>();

    /** Takes a reading of every local link; the rates are those since the previous reading. */
    public void sample(LocalNodes nodes, long nowNanos) {
        java.util.Set<String> present = new java.util.HashSet<>();
        for (OverlayNode node : nodes.all().values()) {
            for (Neighbour n : node.neighbours()) {
                String key = key(node.name(), n.name());
                present.add(key);
                Reading now = new Reading(n.bytesReceived(), n.bytesSent(), nowNanos);
                Reading before = readings.put(key, now);
                if (before != null && now.atNanos > before.atNanos) {
                    double seconds = (now.atNanos - before.atNanos) / 1e9;
                    rates.put(key, new Rate(Math.max(0, now.bytesIn - before.bytesIn) * 8 / seconds,
                            Math.max(0, now.bytesOut - before.bytesOut) * 8 / seconds));
                }
            }
        }
        readings.keySet().retainAll(present);
        rates.keySet().retainAll(present);
    }

    /** The rate of {@code node}'s link to {@code peer}, or null before two readings. */
    public Rate rate(String node, String peer) {
        return rates.get(key(node, peer));
    }

    private static String key(String node, String peer) {
        return node + '\u0000' + peer;
    }
}
