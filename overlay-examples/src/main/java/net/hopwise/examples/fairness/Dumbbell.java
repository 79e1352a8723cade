package net.hopwise.examples.fairness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The test network: three network namespaces in a row, joined by two veth pairs, with a token
 * bucket ({@link Bottleneck}) on one link. Both flows' senders live in {@link #LEFT}, both
 * receivers in {@link #RIGHT}, and {@link #MIDDLE} forwards between them.
 *
 * <pre>
 * hwf-left [hwf-l0 10.201.1.1] -- [hwf-m0 10.201.1.2] hwf-mid [hwf-m1 10.201.2.1] -- [hwf-r0 10.201.2.2] hwf-right
 * </pre>
 *
 * <p>By default the bucket sits on the middle namespace's link towards the right, as on a router:
 * the senders' own kernel sees no queue, so each flow learns of the bottleneck only from what its
 * congestion control infers (drops, delay). {@link QueueAt#SENDER} puts it on the left namespace's
 * own interface instead, where TCP also feels the queue directly (TCP small queues and local
 * drops), which is how a single pair of namespaces would behave.
 *
 * <p>Everything is removed on {@link #close()}, and {@link #removeLeftovers()} clears what a run
 * that died left behind (its namespaces, and any process still inside them).
 */
final class Dumbbell implements AutoCloseable {
    static final String LEFT = "hwf-left";
    static final String MIDDLE = "hwf-mid";
    static final String RIGHT = "hwf-right";
    static final String LEFT_ADDRESS = "10.201.1.1";
    static final String RIGHT_ADDRESS = "10.201.2.2";
    private static final List<String> NAMESPACES = List.of(LEFT, MIDDLE, RIGHT);

    /** Where the bottleneck's queue is. */
    enum QueueAt {
        /** On the middle namespace's egress towards the receivers, as on a router. */
        ROUTER,
        /** On the senders' own interface. */
        SENDER
    }

    private final QueueAt queueAt;
    /** The device in the bottleneck's namespace that carries the bucket, when not its veth. */
    private String device;
    private boolean closed;

    private Dumbbell(QueueAt queueAt) {
        this.queueAt = queueAt;
    }

    /** Builds the namespaces and links; the bottleneck has no rate limit until {@link #limit}. */
    static Dumbbell create(QueueAt queueAt) {
        removeLeftovers();
        Dumbbell d = new Dumbbell(queueAt);
        try {
            for (String ns : NAMESPACES) {
                run("ip", "netns", "add", ns);
                run("ip", "-n", ns, "link", "set", "lo", "up");
            }
            run("ip", "link", "add", "hwf-l0", "netns", LEFT, "type", "veth", "peer", "name", "hwf-m0", "netns", MIDDLE);
            run("ip", "link", "add", "hwf-m1", "netns", MIDDLE, "type", "veth", "peer", "name", "hwf-r0", "netns", RIGHT);
            address(LEFT, "hwf-l0", LEFT_ADDRESS + "/24");
            address(MIDDLE, "hwf-m0", "10.201.1.2/24");
            address(MIDDLE, "hwf-m1", "10.201.2.1/24");
            address(RIGHT, "hwf-r0", RIGHT_ADDRESS + "/24");
            run("ip", "-n", LEFT, "route", "add", "default", "via", "10.201.1.2");
            run("ip", "-n", RIGHT, "route", "add", "default", "via", "10.201.2.1");
            run("ip", "netns", "exec", MIDDLE, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1");
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private static void address(String ns, String device, String cidr) {
        run("ip", "-n", ns, "addr", "add", cidr, "dev", device);
        run("ip", "-n", ns, "link", "set", device, "up");
    }

    private String bottleneckNamespace() {
        return queueAt == QueueAt.ROUTER ? MIDDLE : LEFT;
    }

    private String bottleneckDevice() {
        if (device != null) {
            return device;
        }
        return queueAt == QueueAt.ROUTER ? "hwf-m1" : "hwf-l0";
    }

    /**
     * Puts the bottleneck on another device of its namespace (one a benchmark added, such as a
     * tunnel that leads the bottleneck's traffic through a wire of its own), from the next {@link
     * #limit} on; its counters are then that device's.
     */
    void bottleneckOn(String device) {
        this.device = java.util.Objects.requireNonNull(device, "device");
    }

    QueueAt queueAt() {
        return queueAt;
    }

    /** Puts (or replaces) the token bucket on the bottleneck link. */
    void limit(Bottleneck b) {
        List<String> cmd = new ArrayList<>(List.of("tc", "-n", bottleneckNamespace(), "qdisc", "replace", "dev",
                bottleneckDevice(), "root", "tbf"));
        cmd.addAll(b.tcArguments());
        run(cmd.toArray(String[]::new));
    }

    /** tc's own line for the bottleneck qdisc, to quote in the report. */
    String qdiscDescription() {
        return run("tc", "-n", bottleneckNamespace(), "qdisc", "show", "dev", bottleneckDevice()).strip();
    }

    /** The bottleneck qdisc's counters now. */
    QueueCounters counters() {
        return QueueCounters.parse(run("tc", "-n", bottleneckNamespace(), "-s", "-j", "qdisc", "show", "dev",
                bottleneckDevice()));
    }

    private static final Pattern DROPPED = Pattern.compile("\"dropped\":(\\d+)");

    /**
     * Packets dropped anywhere but the bottleneck's queue: by the four veth ends (a full receive
     * backlog on the other side shows here) and by the machine's per-CPU input backlogs
     * (/proc/net/softnet_stat, machine-wide, so other work can add to it).
     *
     * @return veth drops and backlog drops
     */
    long[] dropsOutsideBottleneck() {
        long veth = 0;
        for (String[] end : List.of(new String[] {LEFT, "hwf-l0"}, new String[] {MIDDLE, "hwf-m0"},
                new String[] {MIDDLE, "hwf-m1"}, new String[] {RIGHT, "hwf-r0"})) {
            Matcher m = DROPPED.matcher(run("ip", "-n", end[0], "-s", "-j", "link", "show", "dev", end[1]));
            while (m.find()) {
                veth += Long.parseLong(m.group(1));
            }
        }
        long backlog = 0;
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/net/softnet_stat"))) {
                String[] f = line.strip().split("\\s+");
                if (f.length > 1) {
                    backlog += Long.parseLong(f[1], 16);
                }
            }
        } catch (IOException | RuntimeException e) {
            backlog = -1;
        }
        return new long[] {veth, backlog};
    }

    /** The congestion control new TCP connections of {@code namespace} use. */
    static String tcpCongestionControl(String namespace) {
        return run("ip", "netns", "exec", namespace, "cat", "/proc/sys/net/ipv4/tcp_congestion_control").strip();
    }

    /**
     * Sets the congestion control of new TCP connections in {@code namespace}. Outside the root
     * namespace the kernel only takes one of {@code net.ipv4.tcp_allowed_congestion_control}.
     */
    static void tcpCongestionControl(String namespace, String algorithm) {
        try {
            run("ip", "netns", "exec", namespace, "sysctl", "-q", "-w", "net.ipv4.tcp_congestion_control=" + algorithm);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("cannot use TCP congestion control '" + algorithm + "' in a namespace;"
                    + " this machine allows " + run("cat", "/proc/sys/net/ipv4/tcp_allowed_congestion_control").strip()
                    + " (net.ipv4.tcp_allowed_congestion_control)", e);
        }
    }

    /** The TCP connections' state in {@code namespace} as {@code ss -tin} shows it (for RTT and window). */
    static String tcpInfo(String namespace, int port) {
        return run("ip", "netns", "exec", namespace, "ss", "-tin", "dport", "=", ":" + port);
    }

    /** Deletes the namespaces (which deletes their veths). */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            removeLeftovers();
        }
    }

    /** Ends processes still inside our namespaces (by their ids) and deletes the namespaces. */
    static void removeLeftovers() {
        List<String> existing = List.of(run("ip", "netns", "list").split("\n")).stream()
                .map(l -> l.strip().split("\\s+")[0]).filter(NAMESPACES::contains).toList();
        for (String ns : existing) {
            for (String pid : run("ip", "netns", "pids", ns).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(p -> {
                        p.destroyForcibly();
                        p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(t -> p).join();
                    });
                }
            }
            run("ip", "netns", "del", ns);
        }
    }

    /** Runs a command to completion and returns its output; a failure names the command and its error. */
    static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in 30 s");
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
                        + text.strip());
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command[0] + " (" + e.getMessage() + "); the benchmark"
                    + " needs iproute2 (ip, tc, ss)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    /**
     * The bottleneck qdisc's counters: bytes and packets it sent (Ethernet headers included),
     * packets it dropped, and what it holds now.
     */
    record QueueCounters(long bytes, long packets, long drops, long backlogBytes, long backlogPackets) {
        private static final Pattern FIELD = Pattern.compile("\"(bytes|packets|drops|backlog|qlen)\":(\\d+)");

        /** Parses {@code tc -s -j qdisc show dev X} for a device with one qdisc. */
        static QueueCounters parse(String json) {
            long[] v = new long[5];
            boolean[] seen = new boolean[5];
            Matcher m = FIELD.matcher(json);
            List<String> order = List.of("bytes", "packets", "drops", "backlog", "qlen");
            while (m.find()) {
                int i = order.indexOf(m.group(1));
                if (!seen[i]) {
                    seen[i] = true;
                    v[i] = Long.parseLong(m.group(2));
                }
            }
            for (int i = 0; i < seen.length; i++) {
                if (!seen[i]) {
                    throw new IllegalArgumentException("no \"" + order.get(i) + "\" in tc's answer: " + json);
                }
            }
            return new QueueCounters(v[0], v[1], v[2], v[3], v[4]);
        }
    }
}
