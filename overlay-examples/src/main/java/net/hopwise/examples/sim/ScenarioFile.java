package net.hopwise.examples.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.OverlayCbrFlow;
import net.hopwise.overlay.sim.QueueDiscipline;
import net.hopwise.overlay.sim.SimLink;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/**
 * Scenarios written as text, so a topology can be tried without writing Java. One statement per
 * line; {@code #} starts a comment; times are relative to the start of the run:
 *
 * <pre>
 * seed 7
 * node a b c d                      # overlay nodes (run the production node engine)
 * plain r1 r2                       # plain nodes (only pass on TCP segments)
 * link a b delay=10ms bandwidth=10Mbps queue=droptail:50 loss=1%
 * link b c delay=5ms queue=red:60 loss=ge:0.01,0.3,0,0.8 jitter=1ms
 * link c d delay=5ms queue=fq:50:1500
 * cbr a d rate=500kbps size=1000 from=5s to=60s        # overlay messages a to d
 * tcp sack a,b,c,d rate=500kbps size=1000 from=0s to=60s
 * at 20s fail b c
 * at 25s restore b c
 * at 30s crash c
 * at 35s restart c
 * at 40s change a b delay=20ms loss=5%
 * run 70s
 * </pre>
 */
final class ScenarioFile {
    private static final long MS = 1_000_000L;
    private static final long[] THRESHOLDS = {60 * MS, 100 * MS};

    private ScenarioFile() {
    }

    static void run(Path file, PrintStream out) throws IOException {
        run(Files.readAllLines(file, StandardCharsets.UTF_8), out);
    }

    /** Runs the scenario and prints a Markdown report; returns the trace digest. */
    static String run(List<String> lines, PrintStream out) {
        long seed = 1;
        List<String[]> statements = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceAll("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            if (words[0].equals("seed")) {
                seed = Long.parseLong(words[1]);
            } else {
                statements.add(words);
            }
        }
        List<String> flowNames = new ArrayList<>();
        List<Object> flows = new ArrayList<>();
        try (SimNetwork net = new SimNetwork(seed)) {
            long runFor = -1;
            List<Runnable> afterStart = new ArrayList<>();
            for (String[] w : statements) {
                switch (w[0]) {
                    case "node" -> {
                        for (int k = 1; k < w.length; k++) {
                            net.node(w[k]);
                        }
                    }
                    case "plain" -> {
                        for (int k = 1; k < w.length; k++) {
                            net.plainNode(w[k]);
                        }
                    }
                    case "link" -> net.link(w[1], w[2], spec(LinkSpec.builder(), options(w, 3)));
                    case "cbr", "tcp", "at" -> afterStart.add(() -> schedule(net, w, flowNames, flows));
                    case "run" -> runFor = duration(w[1]);
                    default -> throw new IllegalArgumentException("unknown statement '" + String.join(" ", w) + "'");
                }
            }
            if (runFor < 0) {
                throw new IllegalArgumentException("the scenario needs a 'run <duration>' statement");
            }
            net.start();
            long start = net.now();
            afterStart.forEach(Runnable::run);
            net.runUntil(start + runFor);
            ResultTable t = new ResultTable("flow", "generated", "delivered", "avg delay (ms)", "jitter (ms)",
                    "> 60 ms (%)", "> 100 ms (%)");
            for (int k = 0; k < flows.size(); k++) {
                Object f = flows.get(k);
                long generated = f instanceof TcpFlow tf ? tf.generated() : ((OverlayCbrFlow) f).generated();
                DelayStatistics d = f instanceof TcpFlow tf ? tf.delays() : ((OverlayCbrFlow) f).delays();
                t.add(flowNames.get(k), generated, d.count(), Report.f(d.meanMillis(), 2), Report.f(d.stdDevMillis(), 2),
                        Report.f(100 * d.fractionAbove(0), 2), Report.f(100 * d.fractionAbove(1), 2));
            }
            ResultTable links = new ResultTable("link", "packets sent", "queue drops", "wire losses", "failure drops",
                    "max queue");
            for (SimLink l : net.links()) {
                links.add(l.fromName() + "->" + l.toName(), l.packetsSent(), l.queueDrops(), l.wireLosses(),
                        l.failureDrops(), l.maxQueueLength());
            }
            String digest = net.trace().digest();
            out.println(t.toMarkdown());
            out.println(links.toMarkdown());
            out.printf(Locale.ROOT, "%d events, trace %s%n", net.simulator().eventsExecuted(), digest);
            return digest;
        }
    }

    private static void schedule(SimNetwork net, String[] w, List<String> names, List<Object> flows) {
        long start = net.now();
        switch (w[0]) {
            case "cbr" -> {
                Map<String, String> o = options(w, 3);
                int size = Integer.parseInt(o.getOrDefault("size", "1000"));
                OverlayCbrFlow f = new OverlayCbrFlow(net, flows.size() + 1, w[1], w[2], 7 + flows.size(), size,
                        RoutingMetric.valueOf(o.getOrDefault("metric", "latency").toUpperCase(Locale.ROOT)),
                        new DelayStatistics(THRESHOLDS));
                f.start(start + duration(o.getOrDefault("from", "0s")), interval(size, o.get("rate")),
                        start + duration(o.getOrDefault("to", "1000000s")));
                names.add("cbr " + w[1] + "->" + w[2]);
                flows.add(f);
            }
            case "tcp" -> {
                TcpVariant v = TcpVariant.parse(w[1]);
                String[] path = w[2].split(",");
                String[] back = new String[path.length];
                for (int k = 0; k < path.length; k++) {
                    back[k] = path[path.length - 1 - k];
                }
                Map<String, String> o = options(w, 3);
                int size = Integer.parseInt(o.getOrDefault("size", "1000"));
                TcpFlow f = new TcpFlow(net, flows.size() + 1, v, TcpConfig.builder().segmentBytes(size).build(),
                        net.path(path), net.path(back), new DelayStatistics(THRESHOLDS));
                if (o.containsKey("rate")) {
                    f.constantRate(start + duration(o.getOrDefault("from", "0s")), interval(size, o.get("rate")),
                            start + duration(o.getOrDefault("to", "1000000s")));
                } else {
                    f.bulk(start + duration(o.getOrDefault("from", "0s")));
                }
                names.add("tcp " + v.label() + " " + w[2]);
                flows.add(f);
            }
            case "at" -> {
                long at = start + duration(w[1]);
                String verb = w[2];
                net.at(at, now -> {
                    switch (verb) {
                        case "fail" -> net.failLink(w[3], w[4]);
                        case "restore" -> net.restoreLink(w[3], w[4]);
                        case "crash" -> net.crash(w[3]);
                        case "restart" -> net.restart(w[3]);
                        case "change" -> {
                            Map<String, String> o = options(w, 5);
                            net.changeLink(w[3], w[4], spec(net.direction(w[3], w[4]).spec().toBuilder(), o));
                            net.changeLink(w[4], w[3], spec(net.direction(w[4], w[3]).spec().toBuilder(), o));
                        }
                        default -> throw new IllegalArgumentException("unknown action " + verb);
                    }
                });
            }
            default -> throw new IllegalStateException(w[0]);
        }
    }

    static Map<String, String> options(String[] w, int from) {
        Map<String, String> o = new HashMap<>();
        for (int k = from; k < w.length; k++) {
            int eq = w[k].indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got '" + w[k] + "'");
            }
            o.put(w[k].substring(0, eq).toLowerCase(Locale.ROOT), w[k].substring(eq + 1));
        }
        return o;
    }

    static LinkSpec spec(LinkSpec.Builder b, Map<String, String> o) {
        for (Map.Entry<String, String> e : o.entrySet()) {
            String v = e.getValue();
            switch (e.getKey()) {
                case "delay" -> b.delay(java.time.Duration.ofNanos(duration(v)));
                case "jitter" -> b.jitter(java.time.Duration.ofNanos(duration(v)));
                case "bandwidth" -> b.bandwidthBitsPerSecond(bits(v));
                case "loss" -> b.loss(loss(v));
                case "queue" -> b.queue(queue(v));
                default -> throw new IllegalArgumentException("unknown link option " + e.getKey());
            }
        }
        return b.build();
    }

    static QueueDiscipline queue(String v) {
        String[] p = v.toLowerCase(Locale.ROOT).split(":");
        return switch (p[0]) {
            case "droptail" -> new QueueDiscipline.DropTail(p.length > 1 ? Integer.parseInt(p[1])
                    : QueueDiscipline.DEFAULT_LIMIT_PACKETS);
            case "red" -> QueueDiscipline.Red.recommended(p.length > 1 ? Integer.parseInt(p[1])
                    : QueueDiscipline.DEFAULT_LIMIT_PACKETS);
            case "fq" -> new QueueDiscipline.FairQueue(p.length > 1 ? Integer.parseInt(p[1])
                    : QueueDiscipline.DEFAULT_LIMIT_PACKETS, p.length > 2 ? Integer.parseInt(p[2]) : 1500);
            default -> throw new IllegalArgumentException("unknown queue " + v + ": droptail[:n], red[:n], fq[:n[:quantum]]");
        };
    }

    static LossModel loss(String v) {
        if (v.startsWith("ge:")) {
            String[] p = v.substring(3).split(",");
            return new LossModel.GilbertElliott(Double.parseDouble(p[0]), Double.parseDouble(p[1]),
                    Double.parseDouble(p[2]), Double.parseDouble(p[3]));
        }
        return new LossModel.Bernoulli(v.endsWith("%") ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100
                : Double.parseDouble(v));
    }

    static long duration(String v) {
        String s = v.toLowerCase(Locale.ROOT);
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
        for (String[] u : units) {
            if (s.endsWith(u[0]) && !(u[0].equals("s") && (s.endsWith("ms") || s.endsWith("us") || s.endsWith("ns")))) {
                return Math.round(Double.parseDouble(s.substring(0, s.length() - u[0].length())) * Long.parseLong(u[1]));
            }
        }
        throw new IllegalArgumentException("a duration needs a unit (ns, us, ms, s): " + v);
    }

    static long bits(String v) {
        String s = v.toLowerCase(Locale.ROOT).replace("bit/s", "bps");
        String[][] units = {{"gbps", "1000000000"}, {"mbps", "1000000"}, {"kbps", "1000"}, {"bps", "1"}};
        for (String[] u : units) {
            if (s.endsWith(u[0])) {
                return Math.round(Double.parseDouble(s.substring(0, s.length() - u[0].length())) * Long.parseLong(u[1]));
            }
        }
        throw new IllegalArgumentException("a rate needs a unit (bps, kbps, Mbps, Gbps): " + v);
    }

    private static long interval(int size, String rate) {
        if (rate == null) {
            throw new IllegalArgumentException("a cbr flow needs rate=");
        }
        return Math.round(size * 8.0 * 1e9 / bits(rate));
    }
}
