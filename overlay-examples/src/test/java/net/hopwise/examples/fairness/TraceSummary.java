package net.hopwise.examples.fairness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run's trace of {@link LayeredTcpBenchmark} reduced to the quantities that the simulator's trace
 * of the same topology gives, so the two can stand side by side: what ERA's receiver put into
 * Padhye's equation (its loss rate, the loss events behind it, the round trip) and what bound its
 * target, against what TCP and the bottleneck's queue did over the same span.
 *
 * <p>A receiver's loss rate is over its loss window, so its events per second are the window's
 * events over the window's length; TCP's congestion events are read from its window as {@code ss}
 * sampled it (a fall by a fifth or more between two samples), which misses two cuts within one
 * sample and so errs low.
 *
 * @param intervals the receiver's interval decisions in the span
 * @param meanLossRate ERA's mean l over them
 * @param eraEventsPerSecond ERA's loss events (or lost packets, under the thesis's rules) a second
 * @param meanRttSeconds the round trip ERA's equation used, mean
 * @param equationBound intervals where Padhye's rate set the target (loss in the window and the rate
 *     under the bunch estimate, or no estimate)
 * @param splitPairs intervals whose bunch estimate was under three quarters of the bottleneck: a
 *     bunch that cross traffic split
 * @param lowestLevel the lowest level held in the span
 * @param highestLevel the highest
 * @param tcpRttSeconds TCP's smoothed round trip, median of the samples
 * @param tcpMeanCwnd TCP's window in segments, mean of the samples
 * @param tcpCutsPerSecond falls of TCP's window a second
 * @param tcpRetransmitShare TCP's retransmitted segments over its data segments in the span
 * @param queueSeconds the bottleneck's queue, mean of the samples, as time at its rate
 * @param dropsPerSecond the bottleneck's drops a second, both flows
 */
record TraceSummary(int intervals, double meanLossRate, double eraEventsPerSecond, double meanRttSeconds,
        int equationBound, int splitPairs, int lowestLevel, int highestLevel, double tcpRttSeconds, double tcpMeanCwnd,
        double tcpCutsPerSecond, double tcpRetransmitShare, double queueSeconds, double dropsPerSecond) {

    /**
     * @param decisions the receiver's trace ({@link LayeredTcpPeer#decisionLine})
     * @param queue the monitor's lines
     * @param fromSeconds the span's start, seconds since the run's start
     * @param toSeconds its end
     * @param bottleneckBps the bottleneck's rate
     * @param lossWindowSeconds the receiver's loss window
     */
    static TraceSummary of(List<String> decisions, List<String> queue, double fromSeconds, double toSeconds,
            double bottleneckBps, double lossWindowSeconds) {
        int n = 0;
        int bound = 0;
        int split = 0;
        double lSum = 0;
        double eventSum = 0;
        double rttSum = 0;
        int low = Integer.MAX_VALUE;
        int high = Integer.MIN_VALUE;
        for (String line : decisions) {
            Map<String, String> d = PeerProcess.parse("@d " + line);
            double t = Double.parseDouble(d.get("t"));
            if (t < fromSeconds || t > toSeconds) {
                continue;
            }
            int to = Integer.parseInt(d.get("to"));
            low = Math.min(low, to);
            high = Math.max(high, to);
            if (!d.get("kind").equals("INTERVAL")) {
                continue;
            }
            n++;
            double l = Double.parseDouble(d.get("l"));
            double rpp = Double.parseDouble(d.get("rpp"));
            double rtcp = Double.parseDouble(d.get("rtcp"));
            lSum += l;
            eventSum += Long.parseLong(d.get("losses"));
            rttSum += Double.parseDouble(d.get("rtt"));
            if (l > 0 && (rpp < 0 || rtcp < rpp)) {
                bound++;
            }
            if (rpp >= 0 && rpp < 0.75 * bottleneckBps) {
                split++;
            }
        }
        List<Double> rtts = new ArrayList<>();
        double cwndSum = 0;
        int cuts = 0;
        double backlogSum = 0;
        int samples = 0;
        double previousCwnd = Double.NaN;
        long[] drops = null;
        long[] tcp = null;
        for (String line : queue) {
            Map<String, String> q = PeerProcess.parse("@q " + line);
            double t = Double.parseDouble(q.get("t"));
            if (t < fromSeconds || t > toSeconds) {
                continue;
            }
            samples++;
            backlogSum += Long.parseLong(q.get("backlog"));
            long d = Long.parseLong(q.get("drops"));
            drops = drops == null ? new long[] {d, d} : new long[] {drops[0], d};
            String segs = q.getOrDefault("tcp_segs", "-");
            if (!segs.equals("-")) {
                // No retransmission yet: ss prints no retrans field.
                String r = q.getOrDefault("tcp_retrans", "-");
                long[] now = {r.equals("-") ? 0 : Long.parseLong(r), Long.parseLong(segs)};
                tcp = tcp == null ? new long[] {now[0], now[1], now[0], now[1]} : new long[] {tcp[0], tcp[1], now[0], now[1]};
            }
            if (!q.get("tcp_cwnd").equals("-")) {
                double cwnd = Double.parseDouble(q.get("tcp_cwnd"));
                rtts.add(Double.parseDouble(q.get("tcp_rtt")) / 1000);
                cwndSum += cwnd;
                if (cwnd <= 0.8 * previousCwnd) {
                    cuts++;
                }
                previousCwnd = cwnd;
            }
        }
        double span = toSeconds - fromSeconds;
        double tcpSegments = tcp == null ? 0 : tcp[3] - tcp[1];
        return new TraceSummary(n, n == 0 ? Double.NaN : lSum / n, n == 0 ? Double.NaN : eventSum / n / lossWindowSeconds,
                n == 0 ? Double.NaN : rttSum / n, bound, split, low, high, median(rtts),
                rtts.isEmpty() ? Double.NaN : cwndSum / rtts.size(), cuts / span,
                tcpSegments > 0 ? (tcp[2] - tcp[0]) / tcpSegments : Double.NaN,
                samples == 0 ? Double.NaN : backlogSum / samples * 8 / bottleneckBps,
                drops == null ? Double.NaN : (drops[1] - drops[0]) / span);
    }

    private static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        return LayeredTcpBenchmark.median(v.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** ERA's loss events within one of TCP's round trips: about one when it meets each overflow once. */
    double eraEventsPerTcpRtt() {
        return eraEventsPerSecond * tcpRttSeconds;
    }

    /** The levels held in the span, or "none decided" when the receiver made no decision in it (it had left). */
    private String levels() {
        return lowestLevel > highestLevel ? "none decided" : lowestLevel + " to " + highestLevel;
    }

    /** One line, the units in it. */
    String line() {
        return String.format(Locale.ROOT, "ERA: l %.2f%%, %.2f loss events/s (%.2f per TCP RTT), RTT used %.0f ms,"
                + " equation binds %d of %d intervals, split pair in %d, levels %s; TCP: RTT %.0f ms, cwnd %.1f,"
                + " %.2f window cuts/s, %.2f%% of segments retransmitted; queue %.0f ms, %.1f drops/s",
                100 * meanLossRate, eraEventsPerSecond, eraEventsPerTcpRtt(), 1000 * meanRttSeconds, equationBound,
                intervals, splitPairs, levels(), 1000 * tcpRttSeconds, tcpMeanCwnd, tcpCutsPerSecond,
                100 * tcpRetransmitShare, 1000 * queueSeconds, dropsPerSecond);
    }
}
