package net.hopwise.examples.fairness;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.hopwise.examples.reliable.BenchmarkSection;

/**
 * One layered-multicast session beside one kernel TCP flow through a token-bucket bottleneck in
 * network namespaces ({@link Dumbbell}, as {@link FairnessBenchmark} runs the reliable links): the
 * layered source and the TCP sender in {@code hwf-left}, the ERA receiver and the TCP receiver in
 * {@code hwf-right}, the bucket on the middle namespace's link towards them. Each run starts one
 * flow, the other a quarter of the run later, and averages both over the last half; Jain's index of
 * the two and F = layered / TCP. Each rule set named in {@code --rules} runs once per run and start
 * order, interleaved, so that a baseline and its rival see the same machine. Needs root (ip netns, tc).
 *
 * <p>The defaults are the simulator's ERA Exp. III at the live rate (docs/layered-multicast.md,
 * "Live"): a queue of 120 ms at the bottleneck's rate (the simulator's 2 x BDP at its 60 ms round
 * trip; the kernel here has no netem, so the round trip has no floor but the queue), packet pairs,
 * 10 Mbit/s exterior links, one per flow, and TCP segments of the layered packets' size. Arguments:
 * {@code --rate-mbit} (2), {@code --buffer-ms} (120), {@code --burst-frames} (2), {@code --tcp-mss}
 * (the layered packet size, 1000: the MSS the TCP receiver advertises), {@code --bunch} (2), {@code
 * --edge-mbit} (10; 0 for none: the senders' own links, see {@link Setup}), {@code --tcp-cc} (the
 * namespace's default, BBR on this machine's kernel; {@code reno} is the simulator's TCP), {@code --gso on|off} (off: TCP's
 * segments one per packet through the exterior link, see {@link Setup}), {@code --wire on|off} (on: the bottleneck's
 * link delivers each packet its transmission time after the bucket released it, as the simulator's link does, see
 * {@link Setup}), {@code --propagation-ms} (0.1, the wire's delay after the transmission), {@code --edge-burst}
 * (1: the exterior link's bucket in bytes, which spaces every packet by its transmission time as the simulator's
 * link does; 1514 lets a pair through back to back, see {@link Setup}),
 * {@code --seconds} (60), {@code --runs} (3), {@code --rules}
 * (comma-separated, each {@code thesis}, {@code fair}, {@code prompt}, {@code tfrc}, {@code drain}, {@code friendly} or {@code fair-slow}:
 * {@link LayeredTcpPeer#rules}; fair), {@code --first multicast|tcp|both}
 * (both), {@code --layers} (40), {@code --layer-bps} (100000), {@code --trace DIR} (per run: the
 * receiver's decisions, and the bottleneck's queue and TCP's window every 200 ms; each traced run's
 * {@link TraceSummary} is printed at the end).
 *
 * <p>Over 400 lines because the run, its setup (bucket, exterior links, TCP, the wire) and the trace
 * monitor are one experiment's parts, each small, and are read together when a figure is checked.
 */
public final class LayeredTcpBenchmark {
    private LayeredTcpBenchmark() {}

    /**
     * One run's outcome: bit/s of each flow over the last half, the receiver's level then, and the
     * congestion control {@code ss} showed on the TCP sender's connection three quarters in.
     */
    record Outcome(double layered, double tcp, int level, String tcpCc) {
        double f() {
            return layered / tcp;
        }

        double jain() {
            return JainIndex.of(new double[] {layered, tcp});
        }
    }

    public static void main(String[] args) throws Exception {
        double rate = Double.parseDouble(BenchmarkSection.argument(args, "--rate-mbit", "2"));
        double bufferMs = Double.parseDouble(BenchmarkSection.argument(args, "--buffer-ms", "120"));
        int burstFrames = Integer.parseInt(BenchmarkSection.argument(args, "--burst-frames", "2"));
        int tcpMss = Integer.parseInt(BenchmarkSection.argument(args, "--tcp-mss", String.valueOf(LayeredTcpPeer.PACKET)));
        int seconds = Integer.parseInt(BenchmarkSection.argument(args, "--seconds", "60"));
        int runs = Integer.parseInt(BenchmarkSection.argument(args, "--runs", "3"));
        List<String> rules = List.of(BenchmarkSection.argument(args, "--rules", "fair").split(","));
        String first = BenchmarkSection.argument(args, "--first", "both");
        String layers = BenchmarkSection.argument(args, "--layers", "40");
        String layerBps = BenchmarkSection.argument(args, "--layer-bps", "100000");
        String traceDir = BenchmarkSection.argument(args, "--trace", "");
        int bunch = Integer.parseInt(BenchmarkSection.argument(args, "--bunch", "2"));
        double edgeMbit = Double.parseDouble(BenchmarkSection.argument(args, "--edge-mbit", "10"));
        String tcpCc = BenchmarkSection.argument(args, "--tcp-cc", "");
        boolean gso = BenchmarkSection.argument(args, "--gso", "off").equals("on");
        boolean wire = BenchmarkSection.argument(args, "--wire", "on").equals("on");
        double propagationMs = Double.parseDouble(BenchmarkSection.argument(args, "--propagation-ms", "0.1"));
        int edgeBurst = Integer.parseInt(BenchmarkSection.argument(args, "--edge-burst",
                String.valueOf(Setup.SPACING_BUCKET_BYTES)));
        Setup setup = new Setup(Bottleneck.of(rate, bufferMs, burstFrames * Bottleneck.FRAME_BYTES), tcpMss, bunch,
                edgeMbit, tcpCc, gso, wire, propagationMs, edgeBurst);
        System.out.println(setup.describe() + String.format(Locale.ROOT, "; %s x %s bit/s layers of %d bytes;"
                + " ERA rules %s; %d s runs, last half", layers, layerBps, LayeredTcpPeer.PACKET, rules, seconds));
        rules.forEach(LayeredTcpPeer::rules);

        System.out.println("| first | rules | run | layered (Mbit/s) | TCP (Mbit/s) | F | Jain | level at the end"
                + " | TCP's congestion control (ss) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        Map<String, List<Outcome>> all = new LinkedHashMap<>();
        List<String> summaries = new ArrayList<>();
        for (String order : first.equals("both") ? List.of("multicast", "tcp") : List.of(first)) {
            for (int run = 1; run <= runs; run++) {
                for (String rule : rules) {
                    double second = seconds / 4.0;
                    Path trace = traceDir.isEmpty() ? null
                            : Files.createDirectories(Path.of(traceDir)).resolve(order + "-" + rule + "-" + run);
                    Outcome o = run(setup, seconds, rule, order.equals("tcp") ? second : 0,
                            order.equals("tcp") ? 0 : second, layers, layerBps, trace);
                    System.out.printf(Locale.ROOT, "| %s | %s | %d | %.3f | %.3f | %.2f | %.3f | %d | %s |%n", order,
                            rule, run, o.layered() / 1e6, o.tcp() / 1e6, o.f(), o.jain(), o.level(), o.tcpCc());
                    if (trace != null) {
                        summaries.add(String.format(Locale.ROOT, "%s first, %s, run %d: %s", order, rule, run,
                                summary(trace, seconds, rate * 1e6, rule).line()));
                    }
                    all.computeIfAbsent(order + " first, " + rule, k -> new ArrayList<>()).add(o);
                }
            }
        }
        all.forEach((k, v) -> System.out.printf(Locale.ROOT, "median, %s: F %.2f, Jain %.3f (F of the runs: %s)%n", k,
                median(v.stream().mapToDouble(Outcome::f).toArray()),
                median(v.stream().mapToDouble(Outcome::jain).toArray()),
                String.join(", ", v.stream().map(o -> String.format(Locale.ROOT, "%.2f", o.f())).toList())));
        if (!summaries.isEmpty()) {
            System.out.println("Traces over the last half (TraceSummary):");
            summaries.forEach(s -> System.out.println("- " + s));
        }
    }

    /** A traced run's summary over its last half, the span its outcome averages. */
    static TraceSummary summary(Path trace, int seconds, double bottleneckBps, String rules) throws java.io.IOException {
        return TraceSummary.of(Files.readAllLines(trace.resolveSibling(trace.getFileName() + ".decisions")),
                Files.readAllLines(trace.resolveSibling(trace.getFileName() + ".queue")), seconds / 2.0, seconds,
                bottleneckBps, LayeredTcpPeer.rules(rules).lossWindowNanos() / 1e9);
    }

    /**
     * What a run sets up besides the bottleneck.
     *
     * @param tcpMss the MSS the receivers' namespace advertises, so that TCP's segments carry what
     *     ERA's packets carry: Padhye's rate is proportional to the packet size (ERA computing with
     *     1000-byte packets beside 1448-byte segments aims at 0.69 of TCP's rate), and a TCP segment
     *     between a pair's two packets reads the share only when both are of one size. The
     *     simulator gives its TCP the layered packets' size for the same reasons.
     * @param bunch the sender's packets per bunch
     * @param edgeMbit the senders' own link (a token bucket on their interface), 0 for none: as the
     *     simulator's exterior links it spaces both flows' packets before the bottleneck, so that
     *     TCP's segments can fall between a pair's two; over a bare veth they arrive in bursts a few
     *     microseconds apart and almost never do
     * @param tcpCongestionControl the TCP sender's congestion control (one the kernel allows, for
     *     example {@code reno}, the simulator's), empty for the namespace's default (BBR on this machine's kernel)
     * @param gso whether the senders' interface takes TCP's segments in GSO bursts, as a veth does
     *     by default; false sets it to one segment per packet. The exterior link's htb class spaces
     *     packets, but a GSO burst is one packet to it: its segments leave back to back and reach
     *     the bottleneck at once, as no 10 Mbit/s link would deliver them
     * @param wire whether the bottleneck's packets reach the receivers' namespace through a {@link
     *     WireRelay}, which delivers each its transmission time at the bucket's rate (and {@code
     *     propagationMs}) after the bucket released it, as the simulator's link delivers a packet when
     *     its transmission ends; without it the veth delivers at the instant of release. That instant
     *     matters beside TCP: a segment's ACK comes back and the next segment reaches the bucket about
     *     60 microseconds after a packet leaves (a header capture at the bottleneck: 93% of TCP's
     *     arrivals within 0.5 ms of a departure), so TCP takes each place the queue frees before the
     *     layered packets, spread over the 4 ms between departures, can, and they meet the full queue
     *     TCP leaves (4.4% of them lost against TCP's 1.4%). Behind the simulator's link the ACK
     *     leaves after the transmission, 4 ms later, and a freed place is anyone's. The wire is a
     *     VXLAN tunnel from the middle namespace, whose device then carries the bucket (its frames
     *     are the inner Ethernet frames, the bytes the veth's bucket counted), to the relay in the
     *     receivers' namespace; the underlying veth gets room for the tunnel's 50 bytes
     * @param propagationMs the wire's delay after the transmission (the simulator of the live
     *     topology uses 0.1 ms)
     * @param edgeBurstBytes the exterior link's bucket: htb sends while its tokens are not negative,
     *     so a bucket of one frame (1514) lets a pair's two packets through back to back (a median
     *     19 microseconds apart at the bottleneck, and TCP fell between 1 pair in 1239) where the
     *     simulator's 10 Mbit/s link spaces them by a transmission time, 0.8 ms; a bucket of one byte
     *     ({@link #SPACING_BUCKET_BYTES}) spaces every packet so (0.86 ms, TCP between 141 pairs in
     *     1216). Not 0: tc replaces a bucket of 0 with its own default, the rate over HZ plus 1600
     *     bytes, which passes a pair as 1514 does
     */
    record Setup(Bottleneck bottleneck, int tcpMss, int bunch, double edgeMbit, String tcpCongestionControl,
            boolean gso, boolean wire, double propagationMs, int edgeBurstBytes) {
        /** The tunnel's device in the middle namespace, which carries the bucket when there is a wire. */
        static final String WIRE_DEVICE = "hwf-x0";
        /** The exterior link's bucket that spaces every packet by its transmission time (the default). */
        static final int SPACING_BUCKET_BYTES = 1;
        /** Where the relay listens (the receivers' namespace) and where it hands frames on (the tunnel's end there). */
        static final String WIRE_RELAY = "10.201.4.2:4790";
        static final String WIRE_END = "10.201.4.2:4789";
        private static final String WIRE_END_MAC = "02:00:0a:c9:03:02";

        /** Without the wire, as the runs before it. */
        Setup(Bottleneck bottleneck, int tcpMss, int bunch, double edgeMbit, String tcpCongestionControl, boolean gso) {
            this(bottleneck, tcpMss, bunch, edgeMbit, tcpCongestionControl, gso, false, 0);
        }

        /** With the exterior link's bucket of one frame, as the runs before it. */
        Setup(Bottleneck bottleneck, int tcpMss, int bunch, double edgeMbit, String tcpCongestionControl, boolean gso,
                boolean wire, double propagationMs) {
            this(bottleneck, tcpMss, bunch, edgeMbit, tcpCongestionControl, gso, wire, propagationMs,
                    Bottleneck.FRAME_BYTES);
        }

        Setup {
            if (edgeBurstBytes < 1 || edgeBurstBytes > 1_000_000) {
                throw new IllegalArgumentException("--edge-burst must be in 1..1000000 bytes (tc takes 0 for its"
                        + " default bucket, which passes a pair back to back), got " + edgeBurstBytes);
            }
            if (propagationMs < 0 || propagationMs > 1000) {
                throw new IllegalArgumentException("--propagation-ms must be in 0..1000, got " + propagationMs);
            }
            if (tcpMss < 536 || tcpMss > 1460) {
                throw new IllegalArgumentException("--tcp-mss must be in 536..1460 (an Ethernet MTU), got " + tcpMss);
            }
            if (bunch < 2 || bunch > 15) {
                throw new IllegalArgumentException("--bunch must be in 2..15, got " + bunch);
            }
            if (!tcpCongestionControl.matches("[a-z0-9_]*")) {
                throw new IllegalArgumentException("--tcp-cc must be a congestion control's name, got "
                        + tcpCongestionControl);
            }
            if (edgeMbit != 0 && edgeMbit * 1e6 <= bottleneck.rateBitsPerSecond()) {
                throw new IllegalArgumentException("the exterior link must be faster than the bottleneck, got "
                        + edgeMbit + " Mbit/s");
            }
        }

        /** What the run's report says of the setup. */
        String describe() {
            return String.format(Locale.ROOT, "%s; %s; exterior link %s%s; TCP %s, MSS at most %d bytes, %s; bunches of %d",
                    bottleneck, wire ? "a wire behind it (transmission time at its rate, then "
                            + Bottleneck.plain(propagationMs) + " ms)" : "no wire (the veth delivers at release)",
                    edgeMbit > 0 ? Bottleneck.plain(edgeMbit) + " Mbit/s" : "none (veth)",
                    edgeMbit > 0 && edgeBurstBytes != Bottleneck.FRAME_BYTES ? " (bucket " + edgeBurstBytes + " B)" : "",
                    tcpCongestionControl.isEmpty() ? "with the namespace's default congestion control"
                            : tcpCongestionControl, tcpMss,
                    gso ? "segments in GSO bursts" : "one segment per packet (gso_max_segs 1)", bunch);
        }

        /**
         * The tunnel that leads the bottleneck's traffic to the relay: addresses of their own on the
         * middle veth for the tunnel's datagrams, room on it for the tunnel's 50 bytes, one VXLAN
         * device each side (the receivers' end at a fixed address, so that no neighbour discovery has
         * to cross a one-way tunnel), the receivers' host route through it, and no reverse-path
         * filter, since the replies come back over the veth.
         */
        List<List<String>> wireCommands() {
            String mid = Dumbbell.MIDDLE;
            String right = Dumbbell.RIGHT;
            String relayAddress = WIRE_RELAY.substring(0, WIRE_RELAY.indexOf(':'));
            List<List<String>> c = new ArrayList<>();
            c.add(List.of("ip", "-n", mid, "link", "set", "hwf-m1", "mtu", "1600"));
            c.add(List.of("ip", "-n", right, "link", "set", "hwf-r0", "mtu", "1600"));
            c.add(List.of("ip", "-n", mid, "addr", "add", "10.201.4.1/24", "dev", "hwf-m1"));
            c.add(List.of("ip", "-n", right, "addr", "add", relayAddress + "/24", "dev", "hwf-r0"));
            for (String ns : List.of(mid, right)) {
                for (String conf : List.of("all", "default")) {
                    c.add(List.of("ip", "netns", "exec", ns, "sysctl", "-q", "-w",
                            "net.ipv4.conf." + conf + ".rp_filter=0"));
                }
            }
            c.add(List.of("ip", "-n", right, "link", "add", "hwf-x1", "address", WIRE_END_MAC, "mtu", "1500", "type",
                    "vxlan", "id", "201", "local", relayAddress, "dstport", WIRE_END.substring(WIRE_END.indexOf(':') + 1),
                    "nolearning"));
            c.add(List.of("ip", "-n", right, "addr", "add", "10.201.3.2/24", "dev", "hwf-x1"));
            c.add(List.of("ip", "-n", right, "link", "set", "hwf-x1", "up"));
            c.add(List.of("ip", "-n", mid, "link", "add", WIRE_DEVICE, "mtu", "1500", "type", "vxlan", "id", "201",
                    "local", "10.201.4.1", "remote", relayAddress, "dstport",
                    WIRE_RELAY.substring(WIRE_RELAY.indexOf(':') + 1), "nolearning"));
            c.add(List.of("ip", "-n", mid, "addr", "add", "10.201.3.1/24", "dev", WIRE_DEVICE));
            c.add(List.of("ip", "-n", mid, "link", "set", WIRE_DEVICE, "up"));
            c.add(List.of("ip", "-n", mid, "neigh", "replace", "10.201.3.2", "lladdr", WIRE_END_MAC, "dev", WIRE_DEVICE,
                    "nud", "permanent"));
            c.add(List.of("ip", "-n", mid, "route", "replace", Dumbbell.RIGHT_ADDRESS + "/32", "via", "10.201.3.2", "dev",
                    WIRE_DEVICE));
            return c;
        }

        /** The relay's arguments after its class name. */
        List<String> relayArguments() {
            return List.of("--listen", WIRE_RELAY, "--to", WIRE_END, "--rate-bps",
                    Long.toString(bottleneck.rateBitsPerSecond()), "--propagation-ms", Bottleneck.plain(propagationMs));
        }

        /** The commands after the bottleneck's: the advertised MSS, and the exterior link when there is one. */
        List<List<String>> commands() {
            List<List<String>> c = new ArrayList<>();
            c.add(List.of("ip", "-n", Dumbbell.RIGHT, "route", "replace", "default", "via", "10.201.2.1", "advmss",
                    Integer.toString(tcpMss)));
            if (!tcpCongestionControl.isEmpty()) {
                // The sender's is the one that governs the flow; the receiver's too, so that nothing in
                // the run (its ACK-only connection) reports the kernel's default instead.
                for (String namespace : List.of(Dumbbell.LEFT, Dumbbell.RIGHT)) {
                    c.add(List.of("ip", "netns", "exec", namespace, "sysctl", "-q", "-w",
                            "net.ipv4.tcp_congestion_control=" + tcpCongestionControl));
                }
            }
            if (!gso) {
                c.add(List.of("ip", "-n", Dumbbell.LEFT, "link", "set", "dev", "hwf-l0", "gso_max_segs", "1"));
            }
            if (edgeMbit > 0) {
                // One class per flow, as the simulator gives each sender a link of its own: through one
                // shared FIFO a pair's two packets, written back to back, would stay adjacent and no
                // TCP segment could fall between them at the bottleneck. A burst of one frame spaces
                // every packet; the leaves' FIFOs (the veth's 1000 packets) never drop, so TCP hears of
                // no congestion the simulator's exterior links do not cause.
                String rate = Math.round(edgeMbit * 1e6) + "bit";
                String burst = Integer.toString(edgeBurstBytes);
                List<String> tc = List.of("tc", "-n", Dumbbell.LEFT);
                c.add(concat(tc, "qdisc", "replace", "dev", "hwf-l0", "root", "handle", "1:", "htb", "default", "20"));
                for (String leaf : List.of("1:10", "1:20")) {
                    c.add(concat(tc, "class", "add", "dev", "hwf-l0", "parent", "1:", "classid", leaf, "htb", "rate", rate,
                            "ceil", rate, "burst", burst, "cburst", burst));
                }
                // UDP (the overlay's datagrams) to one class, everything else (TCP) to the default.
                c.add(concat(tc, "filter", "add", "dev", "hwf-l0", "parent", "1:", "protocol", "ip", "prio", "1", "u32",
                        "match", "ip", "protocol", "17", "0xff", "flowid", "1:10"));
            }
            return c;
        }
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * The two flows' rates over the second half of the run, from the receiver's per-second samples
     * (cumulative bytes); a run whose receiver gave fewer samples than its seconds is an error.
     */
    static Outcome outcome(List<Map<String, String>> samples, int seconds, String tcpCc) {
        if (samples.size() < seconds) {
            throw new IllegalStateException("the receiver gave " + samples.size() + " samples of " + seconds);
        }
        Map<String, String> from = samples.get(seconds / 2 - 1);
        Map<String, String> to = samples.get(seconds - 1);
        double span = Long.parseLong(to.get("t")) - Long.parseLong(from.get("t"));
        double layered = (Long.parseLong(to.get("layered")) - Long.parseLong(from.get("layered"))) * 8 / span;
        double tcp = (Long.parseLong(to.get("tcp")) - Long.parseLong(from.get("tcp"))) * 8 / span;
        return new Outcome(layered, tcp, Integer.parseInt(to.get("level")), tcpCc);
    }

    private static Outcome run(Setup setup, int seconds, String rules, double layeredAt,
            double tcpAt, String layers, String layerBps, Path trace) throws Exception {
        Process relay = null;
        try (Dumbbell d = Dumbbell.create(Dumbbell.QueueAt.ROUTER)) {
            for (List<String> command : setup.commands()) {
                Dumbbell.run(command.toArray(String[]::new));
            }
            if (setup.wire()) {
                for (List<String> command : setup.wireCommands()) {
                    Dumbbell.run(command.toArray(String[]::new));
                }
                d.bottleneckOn(Setup.WIRE_DEVICE);
                relay = process(Dumbbell.RIGHT, WireRelay.class, "wire", setup.relayArguments());
                awaitReady(relay);
            }
            d.limit(setup.bottleneck());
            List<String> receiverArgs = new ArrayList<>(List.of("--bind", Dumbbell.RIGHT_ADDRESS, "--peer",
                    Dumbbell.LEFT_ADDRESS, "--seconds", String.valueOf(seconds + 2), "--rules", rules));
            if (trace != null) {
                receiverArgs.addAll(List.of("--trace", trace + ".decisions"));
            }
            Process receiver = peer(Dumbbell.RIGHT, "receiver", receiverArgs);
            BufferedReader out = awaitReady(receiver);
            String line;
            Process sender = peer(Dumbbell.LEFT, "sender", List.of("--bind", Dumbbell.LEFT_ADDRESS, "--peer",
                    Dumbbell.RIGHT_ADDRESS, "--seconds", String.valueOf(seconds), "--layered-at", String.valueOf(layeredAt),
                    "--tcp-at", String.valueOf(tcpAt), "--layers", layers, "--layer-bps", layerBps, "--bunch",
                    String.valueOf(setup.bunch())));
            Thread monitor = trace == null ? null : monitor(d, trace.resolveSibling(trace.getFileName() + ".queue"));
            List<Map<String, String>> samples = new ArrayList<>();
            String tcpCc = "-";
            while ((line = out.readLine()) != null) {
                if (line.startsWith("@sample")) {
                    samples.add(PeerProcess.parse(line));
                    if (samples.size() == seconds * 3 / 4) {
                        // Both flows run by then whichever went first.
                        tcpCc = field(SS_CC, Dumbbell.tcpInfo(Dumbbell.LEFT, 5001));
                    }
                }
            }
            receiver.waitFor();
            sender.waitFor();
            if (monitor != null) {
                monitor.interrupt();
                monitor.join();
            }
            String asked = setup.tcpCongestionControl();
            if (!asked.isEmpty() && !asked.equals(tcpCc)) {
                throw new IllegalStateException("asked TCP for " + asked + " but ss showed " + tcpCc);
            }
            return outcome(samples, seconds, tcpCc);
        } finally {
            if (relay != null) {
                relay.destroy();
                relay.waitFor();
            }
        }
    }

    /** Reads the process's answers up to its {@code @ready}; an end before it is an error. */
    private static BufferedReader awaitReady(Process p) throws java.io.IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("@ready")) {
            // Anything before the process is ready is not for us.
        }
        if (line == null) {
            throw new IllegalStateException("a process of the run ended before it was ready");
        }
        return out;
    }

    static final java.util.regex.Pattern SS_MSS = java.util.regex.Pattern.compile("\\bmss:(\\d+)");
    /** ss's {@code retrans:now/total}: the total, what the connection retransmitted so far. */
    static final java.util.regex.Pattern SS_RETRANS = java.util.regex.Pattern.compile("\\bretrans:\\d+/(\\d+)");
    /**
     * ss's congestion control: the word just before {@code wscale:} (or {@code rto:} when window
     * scaling is off), after the option words such as {@code ts} and {@code sack}.
     */
    static final java.util.regex.Pattern SS_CC = java.util.regex.Pattern.compile(
            "(?:^|\\s)([a-z][a-z0-9_]*)\\s+(?:wscale|rto):", java.util.regex.Pattern.MULTILINE);
    static final java.util.regex.Pattern SS_DATA_SEGS = java.util.regex.Pattern.compile("\\bdata_segs_out:(\\d+)");

    /** The first group of {@code p} in ss's answer, {@code -} when absent (no connection yet, or none retransmitted). */
    static String field(java.util.regex.Pattern p, String ss) {
        java.util.regex.Matcher m = p.matcher(ss);
        return m.find() ? m.group(1) : "-";
    }

    /**
     * Every 200 ms, the bottleneck's queue (tc) and the TCP sender's round trip, window, retransmissions and data segments (ss),
     * with the instant since the monitor started (about the peers' start, within the JVMs' start-up).
     */
    private static Thread monitor(Dumbbell d, Path file) {
        Thread t = new Thread(() -> {
            long start = System.nanoTime();
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
                while (!Thread.currentThread().isInterrupted()) {
                    Dumbbell.QueueCounters q = d.counters();
                    String ss = Dumbbell.tcpInfo(Dumbbell.LEFT, 5001);
                    double[] tcp = FairnessBenchmark.tcpInfo(ss);
                    w.printf(Locale.ROOT, "t=%.3f sent=%d drops=%d backlog=%d qlen=%d tcp_rtt=%s tcp_cwnd=%s tcp_mss=%s"
                            + " tcp_retrans=%s tcp_segs=%s tcp_cc=%s%n", (System.nanoTime() - start) / 1e9, q.bytes(),
                            q.drops(), q.backlogBytes(), q.backlogPackets(), tcp == null ? "-" : tcp[0],
                            tcp == null ? "-" : (int) tcp[2], field(SS_MSS, ss), field(SS_RETRANS, ss),
                            field(SS_DATA_SEGS, ss), field(SS_CC, ss));
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                // The run ended.
            } catch (Exception e) {
                System.err.println("monitor stopped: " + e);
            }
        }, "queue-monitor");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Process peer(String namespace, String role, List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of(role));
        all.addAll(args);
        return process(namespace, LayeredTcpPeer.class, role, all);
    }

    private static Process process(String namespace, Class<?> main, String role, List<String> args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, java, "-Xmx256m",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        Path log = Files.createTempFile("hopwise-layered-tcp-" + role + "-", ".log");
        ProcessBuilder b = new ProcessBuilder(command).redirectError(log.toFile());
        if (role.equals("sender")) {
            // Nobody reads the sender's answers; a full pipe would stall it.
            b.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        return b.start();
    }
}
