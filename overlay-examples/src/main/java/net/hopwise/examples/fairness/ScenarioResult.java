package net.hopwise.examples.fairness;

import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import net.hopwise.examples.fairness.Dumbbell.QueueCounters;

/**
 * What one scenario measured, as sampled once a second over its window, and the figures derived
 * from it. Goodput is what the receivers delivered to the application; wire rates count what left
 * the bottleneck, headers included.
 *
 * @param bottleneck the token bucket the flows shared
 * @param tcpCongestionControl the TCP flow's algorithm; null when no TCP flow ran
 * @param flows which flows ran
 * @param run which repetition of the same scenario this is, from 1; 0 when it ran once
 * @param idle the sender's statistics before any flow started
 * @param received the receiver's samples ({@code @sample} fields), first at the window's start
 * @param sent the sender's statistics ({@code @stats} fields), taken with each receiver sample
 * @param queue the bottleneck's counters, taken with each receiver sample
 * @param tcpInfo the TCP flow's smoothed RTT (ms), minimum RTT (ms) and congestion window
 *     (segments) from {@code ss}, one per sample (NaN where the connection did not show); empty
 *     without a TCP flow
 * @param dropsElsewhere packets dropped outside the bottleneck over the window: by the veths, and
 *     by the machine's input backlogs (see {@link Dumbbell#dropsOutsideBottleneck()})
 * @param cpuSender CPU seconds the sending peer used over the window, user and system
 * @param cpuReceiver CPU seconds the receiving peer used over the window, user and system
 */
record ScenarioResult(Bottleneck bottleneck, String tcpCongestionControl, Flows flows, int run, Map<String, String> idle,
        List<Map<String, String>> received, List<Map<String, String>> sent, List<QueueCounters> queue,
        List<double[]> tcpInfo, long[] dropsElsewhere, double[] cpuSender, double[] cpuReceiver) {

    /** The flows a scenario runs. */
    enum Flows {
        OVERLAY("overlay alone", true, false),
        TCP("TCP alone", false, true),
        BOTH("overlay + TCP", true, true);

        final String label;
        final boolean overlay;
        final boolean tcp;

        Flows(String label, boolean overlay, boolean tcp) {
            this.label = label;
            this.overlay = overlay;
            this.tcp = tcp;
        }
    }

    ScenarioResult {
        if (received.size() < 2 || sent.size() != received.size() || queue.size() != received.size()) {
            throw new IllegalArgumentException("need at least two samples of each kind, taken together; got "
                    + received.size() + " received, " + sent.size() + " sent, " + queue.size() + " queue");
        }
    }

    /** The flows, and the repetition when there were several. */
    String label() {
        return run == 0 ? flows.label : flows.label + " #" + run;
    }

    RateSeries overlayGoodput() {
        return series("overlayBytes");
    }

    RateSeries tcpGoodput() {
        return series("tcpBytes");
    }

    private RateSeries series(String field) {
        RateSeries s = new RateSeries();
        for (Map<String, String> r : received) {
            s.add(Long.parseLong(r.get("t")), Long.parseLong(r.get(field)));
        }
        return s;
    }

    double seconds() {
        return (value(last(received), "t") - value(received.get(0), "t")) / 1e9;
    }

    /** Goodput of both flows over the bottleneck's rate. */
    double utilisation() {
        return (rate(overlayGoodput()) + rate(tcpGoodput())) / bottleneck.rateMbit();
    }

    /** Jain's index of the two goodputs; NaN unless both flows ran. */
    double jain() {
        return flows == Flows.BOTH ? JainIndex.of(rate(overlayGoodput()), rate(tcpGoodput())) : Double.NaN;
    }

    private static double rate(RateSeries s) {
        double r = s.meanMbit();
        return Double.isNaN(r) ? 0 : r;
    }

    /** What the bottleneck sent, all flows and headers together, in Mbit/s. */
    double bottleneckWireMbit() {
        return (last(queue).bytes() - queue.get(0).bytes()) * 8 / seconds() / 1e6;
    }

    /** The overlay's packets that crossed the bottleneck, with UDP, IP and Ethernet headers, in Mbit/s. */
    double overlayWireMbit() {
        double bytes = delta(received, "linkBytesReceived")
                + FairnessPeer.UDP_FRAMING_BYTES * delta(received, "linkPacketsReceived");
        return bytes * 8 / seconds() / 1e6;
    }

    /** The rest of what the bottleneck sent: the TCP flow's segments; NaN when it did not run. */
    double tcpWireMbit() {
        return flows.tcp ? bottleneckWireMbit() - overlayWireMbit() : Double.NaN;
    }

    /** Jain's index of the two flows' shares of the bottleneck itself, headers included. */
    double jainOnWire() {
        return flows == Flows.BOTH ? JainIndex.of(overlayWireMbit(), Math.max(0, tcpWireMbit())) : Double.NaN;
    }

    /** Bytes on the wire per message the overlay delivered (1000 bytes of payload). */
    double overlayWireBytesPerMessage() {
        double messages = delta(received, "overlayMessages");
        return messages == 0 ? Double.NaN : overlayWireMbit() * 1e6 / 8 * seconds() / messages;
    }

    long drops() {
        return last(queue).drops() - queue.get(0).drops();
    }

    /** Packets the bottleneck dropped out of those that reached it, in percent. */
    double dropPercent() {
        long sentPackets = last(queue).packets() - queue.get(0).packets();
        return sentPackets + drops() == 0 ? 0 : 100.0 * drops() / (sentPackets + drops());
    }

    /** Mean bytes waiting in the bottleneck's queue at the samples. */
    double meanBacklogBytes() {
        return queue.stream().mapToLong(QueueCounters::backlogBytes).average().orElse(Double.NaN);
    }

    /** The mean queue as the delay it adds, in ms. */
    double meanQueueDelayMillis() {
        return meanBacklogBytes() * 8 / bottleneck.rateBitsPerSecond() * 1000;
    }

    double meanOf(String field) {
        return sent.stream().filter(s -> s.containsKey(field)).mapToDouble(s -> value(s, field)).average()
                .orElse(Double.NaN);
    }

    long receiverDelta(String field) {
        return (long) delta(received, field);
    }

    long senderDelta(String field) {
        return (long) delta(sent, field);
    }

    /** Idle RTT of the overlay link before any flow, from the hellos (the lowest sample), in ms. */
    double idleHelloRttMillis() {
        return idle.containsKey("helloMinRttNanos") ? value(idle, "helloMinRttNanos") / 1e6 : Double.NaN;
    }

    double tcpRttMillis() {
        return meanTcp(i -> i[0]);
    }

    double tcpMinRttMillis() {
        return tcpInfo.stream().mapToDouble(i -> i[1]).filter(x -> !Double.isNaN(x)).min().orElse(Double.NaN);
    }

    double tcpCwnd() {
        return meanTcp(i -> i[2]);
    }

    private double meanTcp(ToDoubleFunction<double[]> f) {
        return tcpInfo.stream().mapToDouble(f).filter(x -> !Double.isNaN(x)).average().orElse(Double.NaN);
    }

    /** TCP segments sent again over those sent, in percent; NaN when no TCP flow ran. */
    double tcpRetransmitPercent() {
        double out = delta(sent, "tcpOutSegs");
        return !flows.tcp || out == 0 ? Double.NaN : 100.0 * delta(sent, "tcpRetransSegs") / out;
    }

    /** Overlay packets sent again by the link over those it sent, in percent. */
    double overlayResendPercent() {
        double out = delta(sent, "linkPacketsSent");
        return !flows.overlay || out == 0 ? Double.NaN : 100.0 * delta(sent, "linkResent") / out;
    }

    /** One CSV line per interval between samples: the rates and the windows at its end. */
    List<String> csvRows() {
        double[] overlay = overlayGoodput().intervalMbit();
        double[] tcp = tcpGoodput().intervalMbit();
        List<String> rows = new java.util.ArrayList<>();
        for (int i = 0; i < overlay.length; i++) {
            Map<String, String> s = sent.get(i + 1);
            double[] info = i + 1 < tcpInfo.size() ? tcpInfo.get(i + 1) : new double[] {Double.NaN, Double.NaN,
                    Double.NaN};
            rows.add(String.format(java.util.Locale.ROOT, "%s,%s,%s,%d,%d,%.3f,%.3f,%d,%s,%s,%s,%s,%.0f,%.2f",
                    Bottleneck.plain(bottleneck.rateMbit()), tcpCongestionControl == null ? "" : tcpCongestionControl,
                    flows.name().toLowerCase(java.util.Locale.ROOT), run, i + 1, overlay[i], tcp[i],
                    queue.get(i + 1).backlogBytes(), s.getOrDefault("linkCwnd", ""), s.getOrDefault("linkUnacked", ""),
                    s.getOrDefault("linkQueue", ""), s.getOrDefault("sessionCwnd", ""), info[2], info[0]));
        }
        return rows;
    }

    static final String CSV_HEADER = "rate_mbit,tcp_cc,flows,run,second,overlay_mbit,tcp_mbit,queue_bytes,link_cwnd,"
            + "link_in_flight,link_waiting,session_cwnd,tcp_cwnd,tcp_rtt_ms";

    long outOfOrder() {
        return (long) value(last(received), "outOfOrder");
    }

    long overlayMessages() {
        return (long) delta(received, "overlayMessages");
    }

    /** A peer's CPU use over the window as "total% (user+system)" of one core. */
    String cpuPercent(double[] userAndSystem) {
        double u = 100 * userAndSystem[0] / seconds();
        double k = 100 * userAndSystem[1] / seconds();
        return String.format(java.util.Locale.ROOT, "%.0f (%.0f+%.0f)", u + k, u, k);
    }

    /** Whether the overlay link went down at any time while the scenario ran. */
    boolean linkWentDown() {
        return value(last(sent), "linkDowns") > 0;
    }

    private static double delta(List<Map<String, String>> samples, String field) {
        return value(last(samples), field) - value(samples.get(0), field);
    }

    private static double value(Map<String, String> sample, String field) {
        String v = sample.get(field);
        return v == null ? 0 : Double.parseDouble(v);
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }
}
