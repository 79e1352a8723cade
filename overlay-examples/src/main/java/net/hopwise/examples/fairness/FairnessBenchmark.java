package net.hopwise.examples.fairness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.hopwise.examples.fairness.Dumbbell.QueueAt;
import net.hopwise.examples.fairness.Dumbbell.QueueCounters;
import net.hopwise.examples.fairness.ScenarioResult.Flows;
import net.hopwise.examples.reliable.BenchmarkSection;

/**
 * One overlay reliable link beside one kernel TCP flow through the same rate-limited bottleneck:
 * the goodput each gets alone and together, the bottleneck's utilisation and Jain's fairness index.
 *
 * <p>The benchmark builds a {@link Dumbbell} of network namespaces (so it must run as root),
 * rate-limits it with {@code tbf} (these machines have no netem), and runs two {@link FairnessPeer}
 * JVMs: the senders (an overlay node with a reliable session, a TCP client) on the left, the
 * receivers on the right. For each rate it runs the overlay alone, then for each TCP congestion
 * control TCP alone and both together, each with fresh JVMs and connections; it measures over a
 * window after a warm-up, sampling once a second. It removes the namespaces when it ends, also on
 * failure or Ctrl-C, and removes those of an earlier run that died at start.
 *
 * <pre>
 * ./mvnw -q -pl overlay-examples -am test-compile exec:exec -Dexec.executable=java \
 *   -Dexec.args="-cp %classpath net.hopwise.examples.fairness.FairnessBenchmark --docs docs/benchmarks.md"
 * </pre>
 *
 * Options: {@code --rates 20,50} (Mbit/s), {@code --buffer-ms 50} (the queue, as time at the
 * rate), {@code --burst-bytes 15140}, {@code --seconds 30} (measured), {@code --warmup 5},
 * {@code --tcp-cc bbr,reno} (default: the namespaces' default, then reno), {@code --queue-at
 * router|sender}, {@code --repeat 1} (runs of each scenario with both flows, whose share swings
 * from run to run), {@code --message 1000}, {@code --docs FILE} (relative to the top of the build),
 * {@code --samples FILE} (every one-second sample as CSV).
 *
 * About 460 lines, over the house's 400: the namespaces, the kernel TCP flows, the overlay flow and
 * the table of one run are set up and torn down together, so that a failed run leaves nothing behind.
 */
public final class FairnessBenchmark {
    private static final String DOCS_ID = "fairness-tcp";
    private static final int TCP_PORT = 5001;
    private static final Duration ANSWER = Duration.ofSeconds(10);
    private static final Pattern SS_RTT = Pattern.compile("\\brtt:([0-9.]+)/");
    private static final Pattern SS_MIN_RTT = Pattern.compile("\\bminrtt:([0-9.]+)");
    private static final Pattern SS_CWND = Pattern.compile("\\bcwnd:(\\d+)");

    private final List<PeerProcess> live = new CopyOnWriteArrayList<>();
    private final double warmupSeconds;
    private final int seconds;
    private final int message;
    private final Dumbbell dumbbell;

    private FairnessBenchmark(Dumbbell dumbbell, double warmupSeconds, int seconds, int message) {
        this.dumbbell = dumbbell;
        this.warmupSeconds = warmupSeconds;
        this.seconds = seconds;
        this.message = message;
    }

    public static void main(String[] args) throws Exception {
        if (!isRoot()) {
            System.err.println("FairnessBenchmark builds network namespaces, veth links and tbf queues: run it as root"
                    + " (for example with sudo).");
            System.exit(2);
        }
        List<Double> rates = Arrays.stream(BenchmarkSection.argument(args, "--rates", "20,50").split(","))
                .map(String::strip).map(Double::parseDouble).toList();
        double bufferMillis = Double.parseDouble(BenchmarkSection.argument(args, "--buffer-ms", "50"));
        int burst = Integer.parseInt(BenchmarkSection.argument(args, "--burst-bytes",
                Integer.toString(Bottleneck.DEFAULT_BURST_BYTES)));
        int seconds = Integer.parseInt(BenchmarkSection.argument(args, "--seconds", "30"));
        double warmup = Double.parseDouble(BenchmarkSection.argument(args, "--warmup", "5"));
        int message = Integer.parseInt(BenchmarkSection.argument(args, "--message", "1000"));
        QueueAt queueAt = QueueAt.valueOf(BenchmarkSection.argument(args, "--queue-at", "router")
                .toUpperCase(Locale.ROOT));
        String ccOption = BenchmarkSection.argument(args, "--tcp-cc", null);
        int repeat = Integer.parseInt(BenchmarkSection.argument(args, "--repeat", "1"));
        String docs = BenchmarkSection.argument(args, "--docs", null);
        String samples = BenchmarkSection.argument(args, "--samples", null);
        if (seconds < 2 || warmup < 0 || message < 8 || repeat < 1) {
            throw new IllegalArgumentException("need --seconds >= 2, --warmup >= 0, --message >= 8 and --repeat >= 1");
        }
        List<Bottleneck> bottlenecks = rates.stream().map(r -> Bottleneck.of(r, bufferMillis, burst)).toList();

        Dumbbell dumbbell = Dumbbell.create(queueAt);
        FairnessBenchmark bench = new FairnessBenchmark(dumbbell, warmup, seconds, message);
        Thread cleanup = new Thread(bench::tearDown, "fairness-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        List<ScenarioResult> results = new ArrayList<>();
        String defaultCc;
        List<String> ccs;
        String qdisc;
        try {
            defaultCc = Dumbbell.tcpCongestionControl(Dumbbell.LEFT);
            ccs = ccOption != null ? List.of(ccOption.split(","))
                    : defaultCc.equals("reno") ? List.of("reno") : List.of(defaultCc, "reno");
            System.out.printf(Locale.ROOT, "TCP congestion control in the namespaces: %s by default; running %s%n",
                    defaultCc, ccs);
            String lastQdisc = "";
            for (Bottleneck b : bottlenecks) {
                dumbbell.limit(b);
                lastQdisc = dumbbell.qdiscDescription();
                System.out.println("bottleneck: " + b + " (" + lastQdisc + ")");
                results.add(bench.scenario(b, null, Flows.OVERLAY, 0));
                for (String cc : ccs) {
                    Dumbbell.tcpCongestionControl(Dumbbell.LEFT, cc.strip());
                    results.add(bench.scenario(b, cc.strip(), Flows.TCP, 0));
                    for (int run = 1; run <= repeat; run++) {
                        results.add(bench.scenario(b, cc.strip(), Flows.BOTH, repeat == 1 ? 0 : run));
                    }
                }
            }
            qdisc = lastQdisc;
        } finally {
            bench.tearDown();
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }

        if (samples != null) {
            List<String> lines = new ArrayList<>(List.of(ScenarioResult.CSV_HEADER));
            results.forEach(r -> lines.addAll(r.csvRows()));
            Path file = BenchmarkSection.topOfBuild().resolve(samples);
            Files.write(file, lines);
            System.out.println("wrote " + file);
        }
        String goodput = goodputTable(results);
        String details = detailsTable(results);
        System.out.println();
        System.out.println(goodput);
        System.out.println(details);
        if (docs != null) {
            StringBuilder command = new StringBuilder("./mvnw -q -pl overlay-examples -am test-compile exec:exec"
                    + " -Dexec.executable=java -Dexec.args=\"-cp %classpath " + FairnessBenchmark.class.getName());
            command.append(" --rates ").append(String.join(",", rates.stream().map(Bottleneck::plain).toList()));
            command.append(" --buffer-ms ").append(Bottleneck.plain(bufferMillis));
            command.append(" --seconds ").append(seconds).append(" --warmup ").append(Bottleneck.plain(warmup));
            if (ccOption != null) {
                command.append(" --tcp-cc ").append(ccOption);
            }
            if (queueAt != QueueAt.ROUTER) {
                command.append(" --queue-at ").append(queueAt.name().toLowerCase(Locale.ROOT));
            }
            if (burst != Bottleneck.DEFAULT_BURST_BYTES) {
                command.append(" --burst-bytes ").append(burst);
            }
            if (repeat != 1) {
                command.append(" --repeat ").append(repeat);
            }
            if (message != 1000) {
                command.append(" --message ").append(message);
            }
            command.append(" --docs ").append(docs).append('"');
            String body = "### Fairness against kernel TCP on a rate-limited bottleneck\n\n"
                    + BenchmarkSection.provenance(command.toString())
                    + "\n" + setup(results, bottlenecks, queueAt, defaultCc, qdisc, warmup, ccs) + "\n\n" + goodput + "\n" + details
                    + "\n" + notes(results);
            Path file = BenchmarkSection.topOfBuild().resolve(docs);
            BenchmarkSection.write(file, DOCS_ID, body);
            System.out.println("wrote " + file);
        }
    }

    private static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException e) {
            // Not Linux: no namespaces either.
        }
        return false;
    }

    /** Runs one scenario with fresh peers and returns what it measured. */
    private ScenarioResult scenario(Bottleneck b, String cc, Flows flows, int run) throws IOException {
        String title = String.format(Locale.ROOT, "%s Mbit/s, %s%s%s", Bottleneck.plain(b.rateMbit()), flows.label,
                cc == null ? "" : " (TCP " + cc + ")", run == 0 ? "" : ", run " + run);
        System.out.println("scenario: " + title);
        List<String> common = List.of("--tcp-port", Integer.toString(TCP_PORT), "--message", Integer.toString(message));
        PeerProcess receiver = start(Dumbbell.RIGHT, "receiver", Dumbbell.RIGHT_ADDRESS, Dumbbell.LEFT_ADDRESS, common);
        PeerProcess sender = start(Dumbbell.LEFT, "sender", Dumbbell.LEFT_ADDRESS, Dumbbell.RIGHT_ADDRESS, common);
        try {
            pause(2); // hellos measure the idle link
            Map<String, String> idle = sender.request("stats", ANSWER);
            if (flows.overlay) {
                sender.request("overlay", ANSWER);
            }
            if (flows.tcp) {
                sender.request("tcp", ANSWER);
            }
            pause(warmupSeconds);
            List<Map<String, String>> received = new ArrayList<>();
            List<Map<String, String>> sent = new ArrayList<>();
            List<QueueCounters> queue = new ArrayList<>();
            List<double[]> tcpInfo = new ArrayList<>();
            long[] elsewhere0 = dumbbell.dropsOutsideBottleneck();
            double[] cpuSender0 = sender.cpuSeconds();
            double[] cpuReceiver0 = receiver.cpuSeconds();
            long start = System.nanoTime();
            for (int i = 0; i <= seconds; i++) {
                long due = start + i * 1_000_000_000L;
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                received.add(receiver.request("sample", ANSWER));
                sent.add(sender.request("stats", ANSWER));
                queue.add(dumbbell.counters());
                if (flows.tcp) {
                    double[] info = tcpInfo(Dumbbell.tcpInfo(Dumbbell.LEFT, TCP_PORT));
                    tcpInfo.add(info != null ? info : new double[] {Double.NaN, Double.NaN, Double.NaN});
                }
            }
            long[] elsewhere1 = dumbbell.dropsOutsideBottleneck();
            ScenarioResult r = new ScenarioResult(b, cc, flows, run, idle, received, sent, queue, tcpInfo,
                    new long[] {elsewhere1[0] - elsewhere0[0], elsewhere1[1] - elsewhere0[1]},
                    minus(sender.cpuSeconds(), cpuSender0), minus(receiver.cpuSeconds(), cpuReceiver0));
            System.out.printf(Locale.ROOT, "  overlay %.2f Mbit/s, TCP %.2f Mbit/s, utilisation %.0f%%, J %s%n",
                    orZero(r.overlayGoodput().meanMbit()), orZero(r.tcpGoodput().meanMbit()), 100 * r.utilisation(),
                    Double.isNaN(r.jain()) ? "-" : String.format(Locale.ROOT, "%.3f", r.jain()));
            return r;
        } finally {
            close(sender);
            close(receiver);
        }
    }

    private static double[] minus(double[] a, double[] b) {
        return new double[] {a[0] - b[0], a[1] - b[1]};
    }

    private PeerProcess start(String namespace, String role, String bind, String peer, List<String> more)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--bind", bind, "--peer", peer));
        args.addAll(more);
        PeerProcess p = PeerProcess.start(namespace, role, args, Duration.ofSeconds(60));
        live.add(p);
        return p;
    }

    private void close(PeerProcess p) {
        live.remove(p);
        p.close();
    }

    /** Ends the peers and removes the namespaces; safe to call more than once, also from the shutdown hook. */
    private synchronized void tearDown() {
        for (PeerProcess p : live) {
            p.kill();
        }
        live.clear();
        dumbbell.close();
    }

    private static void pause(double seconds) {
        long due = System.nanoTime() + (long) (seconds * 1e9);
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
    }

    /** Smoothed RTT (ms), minimum RTT (ms) and window (segments) of the connection in {@code ss -tin}. */
    static double[] tcpInfo(String ss) {
        Matcher rtt = SS_RTT.matcher(ss);
        Matcher min = SS_MIN_RTT.matcher(ss);
        Matcher cwnd = SS_CWND.matcher(ss);
        if (!rtt.find() || !cwnd.find()) {
            return null;
        }
        return new double[] {Double.parseDouble(rtt.group(1)),
                min.find() ? Double.parseDouble(min.group(1)) : Double.NaN, Double.parseDouble(cwnd.group(1))};
    }

    private static double orZero(double x) {
        return Double.isNaN(x) ? 0 : x;
    }

    private static String flowCell(RateSeries s, boolean ran) {
        if (!ran) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f ± %.2f (%.1f–%.1f)", s.meanMbit(), s.stddevMbit(), s.minMbit(),
                s.maxMbit());
    }

    private static String rowStart(ScenarioResult r) {
        return String.format(Locale.ROOT, "| %s Mbit/s | %s | %s ", Bottleneck.plain(r.bottleneck().rateMbit()),
                r.tcpCongestionControl() == null ? "—" : r.tcpCongestionControl(), r.label());
    }

    static String goodputTable(List<ScenarioResult> results) {
        StringBuilder t = new StringBuilder();
        t.append("| bottleneck | TCP CC | flows | overlay goodput Mbit/s | TCP goodput Mbit/s | both, utilisation"
                + " | Jain's J |\n");
        t.append("|---|---|---|---|---|---|---|\n");
        for (ScenarioResult r : results) {
            double total = orZero(r.overlayGoodput().meanMbit()) + orZero(r.tcpGoodput().meanMbit());
            t.append(rowStart(r)).append(String.format(Locale.ROOT, "| %s | %s | %.2f, %.0f%% | %s |%n",
                    flowCell(r.overlayGoodput(), r.flows().overlay), flowCell(r.tcpGoodput(), r.flows().tcp), total,
                    100 * r.utilisation(), Double.isNaN(r.jain()) ? "—" : String.format(Locale.ROOT, "%.3f",
                            r.jain())));
        }
        return t.toString();
    }

    static String detailsTable(List<ScenarioResult> results) {
        StringBuilder t = new StringBuilder();
        t.append("| bottleneck | TCP CC | flows | wire Mbit/s overlay / TCP (J) | drops | mean queue"
                + " | overlay link RTT ms, cwnd (1500-B segments), in flight, waiting; session cwnd"
                + " | overlay link resent, loss events, timeouts; session reactions"
                + " | drops outside tbf: veths, input backlogs; overlay: UDP receive buffer, nodes"
                + " | TCP RTT ms, cwnd | TCP resent, recoveries, timeouts | CPU % sender / receiver (user+system) |\n");
        t.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (ScenarioResult r : results) {
            boolean o = r.flows().overlay;
            boolean p = r.flows().tcp;
            String wire = (o ? String.format(Locale.ROOT, "%.2f", r.overlayWireMbit()) : "—") + " / "
                    + (p ? String.format(Locale.ROOT, "%.2f", r.tcpWireMbit()) : "—")
                    + (Double.isNaN(r.jainOnWire()) ? "" : String.format(Locale.ROOT, " (%.3f)", r.jainOnWire()));
            String overlayLink = o ? String.format(Locale.ROOT, "%.1f, %.0f, %.0f, %.0f; %.0f",
                    r.meanOf("linkSrttNanos") / 1e6, r.meanOf("linkCwnd"), r.meanOf("linkUnacked"),
                    r.meanOf("linkQueue"), r.meanOf("sessionCwnd")) : "—";
            String overlayLoss = o ? String.format(Locale.ROOT, "%d (%.2f%%), %d, %d; %d", r.senderDelta("linkResent"),
                    r.overlayResendPercent(),
                    r.senderDelta("linkLossEvents"), r.senderDelta("linkTimeouts"),
                    r.senderDelta("sessionReactions")) : "—";
            String elsewhere = String.format(Locale.ROOT, "%d, %d", r.dropsElsewhere()[0], r.dropsElsewhere()[1])
                    + (o ? String.format(Locale.ROOT, "; %d, %d", r.receiverDelta("udpRcvbufErrors"),
                            r.receiverDelta("nodeDrops") + r.senderDelta("nodeDrops")) : "");
            String tcp = p ? String.format(Locale.ROOT, "%.1f, %.0f", r.tcpRttMillis(), r.tcpCwnd()) : "—";
            String tcpLoss = p ? String.format(Locale.ROOT, "%.2f%%, %d, %d", r.tcpRetransmitPercent(),
                    r.senderDelta("tcpextTCPSackRecovery") + r.senderDelta("tcpextTCPRenoRecovery"),
                    r.senderDelta("tcpextTCPTimeouts")) : "—";
            t.append(rowStart(r)).append(String.format(Locale.ROOT,
                    "| %s | %d (%.2f%%) | %.0f KB, %.1f ms | %s | %s | %s | %s | %s | %s / %s |%n", wire, r.drops(),
                    r.dropPercent(), r.meanBacklogBytes() / 1000, r.meanQueueDelayMillis(), overlayLink, overlayLoss,
                    elsewhere, tcp, tcpLoss, r.cpuPercent(r.cpuSender()), r.cpuPercent(r.cpuReceiver())));
        }
        return t.toString();
    }

    private static String setup(List<ScenarioResult> results, List<Bottleneck> bottlenecks, QueueAt queueAt,
            String defaultCc, String qdisc, double warmup, List<String> ccs) {
        double idleHello = results.stream().mapToDouble(ScenarioResult::idleHelloRttMillis).filter(x -> !Double.isNaN(x))
                .min().orElse(Double.NaN);
        double tcpMin = results.stream().mapToDouble(ScenarioResult::tcpMinRttMillis).filter(x -> !Double.isNaN(x))
                .min().orElse(Double.NaN);
        double bytesPerMessage = results.stream().filter(r -> r.flows() == Flows.OVERLAY)
                .mapToDouble(ScenarioResult::overlayWireBytesPerMessage).average().orElse(Double.NaN);
        ScenarioResult any = results.get(0);
        StringBuilder s = new StringBuilder();
        s.append("- Network: three network namespaces in a row, hwf-left — hwf-mid — hwf-right, joined by two veth"
                + " pairs; hwf-mid forwards. ");
        s.append(queueAt == QueueAt.ROUTER
                ? "The bottleneck is a `tbf` qdisc on hwf-mid's link towards hwf-right, as on a router, so neither"
                        + " sender's own kernel holds the queue.\n"
                : "The bottleneck is a `tbf` qdisc on hwf-left's own interface, so the senders' kernel holds the"
                        + " queue (TCP small queues and local drops apply).\n");
        s.append("- Bottlenecks: ").append(String.join("; ", bottlenecks.stream().map(Bottleneck::toString).toList()))
                .append(" (tc shows `").append(qdisc).append("` for the last).\n");
        s.append(String.format(Locale.ROOT, "- Idle round trip: %.3f ms by the kernel TCP's minimum RTT, %.3f ms by"
                + " the overlay's hellos (lowest sample, through both JVMs): the queue is the only sizeable delay, so"
                + " \"1–2 BDP\" of buffer would be a few packets; the queue is sized in time instead.%n", tcpMin,
                idleHello));
        s.append("- Flows: senders in hwf-left, receivers in hwf-right, each side one JVM (`FairnessPeer`, -Xmx256m,"
                + " serial GC) started afresh for every scenario. Overlay: a node with one neighbour and default"
                + " settings (reliable link with Reno congestion control counted in bytes of "
                + net.hopwise.overlay.reliable.ReliableLinkConfig.DEFAULT_SEGMENT_BYTES + "-byte segments, send window "
                + net.hopwise.overlay.reliable.ReliableLinkConfig.DEFAULT_SEND_WINDOW + ", link queue "
                + net.hopwise.overlay.reliable.ReliableLinkConfig.DEFAULT_QUEUE_LIMIT + ") and a reliable session offered 1000-byte messages as fast as it accepts them (the"
                + " sender parks when back-pressured until the session is writable). TCP: one connection written"
                + " 256 KiB at a time, kernel defaults.\n");
        s.append("- TCP congestion control: ").append(String.join(" and ", ccs)).append(" (the machine's default is ")
                .append(defaultCc).append("). Outside the root namespace the kernel only takes one of"
                + " `net.ipv4.tcp_allowed_congestion_control`, here `").append(allowedCc())
                .append("`, so cubic could not be run.\n");
        s.append(String.format(Locale.ROOT, "- Measurement: each scenario starts its flows together, waits %s s,"
                + " then samples the receivers' delivered bytes once a second for %.0f s. Goodput: the mean over"
                + " that window ± the standard deviation (lowest–highest) of its one-second rates. Utilisation: both"
                + " goodputs over the tbf rate. J = (x1+x2)² / (2(x1²+x2²)) on goodput.%n", Bottleneck.plain(warmup),
                any.seconds()));
        s.append(String.format(Locale.ROOT, "- Second table: wire rates count what crossed the bottleneck with"
                + " headers: the overlay's datagrams as the receiving node counted them plus %d bytes of"
                + " UDP/IP/Ethernet each (%.0f bytes per 1000-byte message when alone), TCP = everything tbf sent"
                + " minus that. Drops and the mean queue are tbf's counters (queue sampled once a second). Overlay:"
                + " the link's reliable channel (RTT of its acknowledgements; congestion window, packets in flight"
                + " and packets waiting in front of the window as means of the one-second samples; loss events are"
                + " window halvings) and the session's window and reactions to congestion marks. TCP: RTT and"
                + " window from `ss -tin` once a second; retransmitted segments, fast-recovery episodes and"
                + " timeouts from the namespace's kernel counters. Overlay packets lost outside the bottleneck:"
                + " the receiving namespace's UDP receive-buffer overflows and both nodes' own drops; for all"
                + " traffic, drops counted by the four veth ends and by the machine's input backlogs"
                + " (softnet_stat, machine-wide). CPU: each peer"
                + " JVM's user and system time over the window, in %% of one core (kernel forwarding through the namespaces is partly charged to"
                + " the sender).", FairnessPeer.UDP_FRAMING_BYTES, bytesPerMessage));
        return s.toString();
    }

    private static String allowedCc() {
        try {
            return Files.readString(Path.of("/proc/sys/net/ipv4/tcp_allowed_congestion_control")).strip();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String notes(List<ScenarioResult> results) {
        StringBuilder n = new StringBuilder();
        Map<String, List<ScenarioResult>> repeated = new java.util.LinkedHashMap<>();
        for (ScenarioResult r : results) {
            if (r.run() > 0) {
                repeated.computeIfAbsent(Bottleneck.plain(r.bottleneck().rateMbit()) + " Mbit/s against TCP "
                        + r.tcpCongestionControl(), k -> new ArrayList<>()).add(r);
            }
        }
        if (!repeated.isEmpty()) {
            n.append("The runs with both flows, as the overlay's share of the two goodputs and J:\n\n");
            repeated.forEach((key, runs) -> {
                List<String> each = runs.stream().map(r -> String.format(Locale.ROOT, "%.0f%% (J %.3f)",
                        100 * overlayShare(r), r.jain())).toList();
                n.append(String.format(Locale.ROOT, "- %s: %s; mean share %.0f%%, mean J %.3f%n", key,
                        String.join(", ", each), 100 * runs.stream().mapToDouble(FairnessBenchmark::overlayShare)
                                .average().orElse(Double.NaN),
                        runs.stream().mapToDouble(ScenarioResult::jain).average().orElse(Double.NaN)));
            });
        }
        List<String> problems = new ArrayList<>();
        for (ScenarioResult r : results) {
            if (r.flows().overlay && (r.outOfOrder() > 0 || r.linkWentDown())) {
                problems.add(String.format(Locale.ROOT, "- %s Mbit/s, %s: %d messages out of order, link went down:"
                        + " %s", Bottleneck.plain(r.bottleneck().rateMbit()), r.label(), r.outOfOrder(),
                        r.linkWentDown()));
            }
        }
        long delivered = results.stream().filter(r -> r.flows().overlay).mapToLong(ScenarioResult::overlayMessages)
                .sum();
        if (n.length() > 0) {
            n.append('\n');
        }
        n.append(String.format(Locale.ROOT, "The overlay delivered %d messages in the measured windows, in order, and"
                + " its link stayed up%s%n", delivered, problems.isEmpty() ? "." : ", except:\n\n"
                        + String.join("\n", problems)));
        return n.toString();
    }

    private static double overlayShare(ScenarioResult r) {
        double o = r.overlayGoodput().meanMbit();
        return o / (o + r.tcpGoodput().meanMbit());
    }
}
