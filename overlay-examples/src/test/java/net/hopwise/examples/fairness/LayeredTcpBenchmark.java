package net.hopwise.examples.fairness;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.hopwise.examples.reliable.BenchmarkSection;

/**
 * One layered-multicast session beside one kernel TCP flow through a token-bucket bottleneck in
 * network namespaces ({@link Dumbbell}, as {@link FairnessBenchmark} runs the reliable links): the
 * layered source and the TCP sender in {@code hwf-left}, the ERA receiver and the TCP receiver in
 * {@code hwf-right}, the bucket on the middle namespace's link towards them. Each run starts one
 * flow, the other a quarter of the run later, and averages both over the last half; Jain's index of
 * the two and F = layered / TCP. Needs root (ip netns, tc).
 *
 * <p>Arguments: {@code --rate-mbit} (2), {@code --buffer-ms} (50), {@code --seconds} (60), {@code
 * --runs} (3), {@code --rules thesis|fair} (fair), {@code --first multicast|tcp|both} (both),
 * {@code --layers} (40), {@code --layer-bps} (100000).
 */
public final class LayeredTcpBenchmark {
    private LayeredTcpBenchmark() {}

    public static void main(String[] args) throws Exception {
        double rate = Double.parseDouble(BenchmarkSection.argument(args, "--rate-mbit", "2"));
        double bufferMs = Double.parseDouble(BenchmarkSection.argument(args, "--buffer-ms", "50"));
        int seconds = Integer.parseInt(BenchmarkSection.argument(args, "--seconds", "60"));
        int runs = Integer.parseInt(BenchmarkSection.argument(args, "--runs", "3"));
        String rules = BenchmarkSection.argument(args, "--rules", "fair");
        String first = BenchmarkSection.argument(args, "--first", "both");
        String layers = BenchmarkSection.argument(args, "--layers", "40");
        String layerBps = BenchmarkSection.argument(args, "--layer-bps", "100000");
        Bottleneck bottleneck = Bottleneck.of(rate, bufferMs, 2 * Bottleneck.FRAME_BYTES);
        System.out.printf("tbf %.1f Mbit/s, queue %.0f ms, burst 2 frames; %s x %s bit/s layers of %d bytes in bunches of %d;"
                + " ERA rules %s; %d s runs, last half%n", rate, bufferMs, layers, layerBps, LayeredTcpPeer.PACKET,
                LayeredTcpPeer.BUNCH, rules, seconds);
        System.out.println("| first | run | layered (Mbit/s) | TCP (Mbit/s) | F | Jain | level at the end |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String order : first.equals("both") ? List.of("multicast", "tcp") : List.of(first)) {
            for (int run = 1; run <= runs; run++) {
                double second = seconds / 4.0;
                double[] r = run(bottleneck, seconds, rules, order.equals("tcp") ? second : 0,
                        order.equals("tcp") ? 0 : second, layers, layerBps);
                System.out.printf("| %s | %d | %.3f | %.3f | %.2f | %.3f | %d |%n", order, run, r[0] / 1e6, r[1] / 1e6,
                        r[0] / r[1], (r[0] + r[1]) * (r[0] + r[1]) / (2 * (r[0] * r[0] + r[1] * r[1])), (int) r[2]);
            }
        }
    }

    /** @return layered and TCP bit/s over the last half, and the receiver's last level */
    private static double[] run(Bottleneck bottleneck, int seconds, String rules, double layeredAt, double tcpAt,
            String layers, String layerBps) throws Exception {
        try (Dumbbell d = Dumbbell.create(Dumbbell.QueueAt.ROUTER)) {
            d.limit(bottleneck);
            Process receiver = peer(Dumbbell.RIGHT, "receiver", List.of("--bind", Dumbbell.RIGHT_ADDRESS, "--peer",
                    Dumbbell.LEFT_ADDRESS, "--seconds", String.valueOf(seconds + 2), "--rules", rules));
            BufferedReader out = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("@ready")) {
                // Anything before the receiver is ready is not for us.
            }
            Process sender = peer(Dumbbell.LEFT, "sender", List.of("--bind", Dumbbell.LEFT_ADDRESS, "--peer",
                    Dumbbell.RIGHT_ADDRESS, "--seconds", String.valueOf(seconds), "--layered-at", String.valueOf(layeredAt),
                    "--tcp-at", String.valueOf(tcpAt), "--layers", layers, "--layer-bps", layerBps));
            List<Map<String, String>> samples = new ArrayList<>();
            while ((line = out.readLine()) != null) {
                if (line.startsWith("@sample")) {
                    samples.add(PeerProcess.parse(line));
                }
            }
            receiver.waitFor();
            sender.waitFor();
            if (samples.size() < seconds) {
                throw new IllegalStateException("the receiver gave " + samples.size() + " samples of " + seconds);
            }
            Map<String, String> from = samples.get(seconds / 2 - 1);
            Map<String, String> to = samples.get(seconds - 1);
            double span = Long.parseLong(to.get("t")) - Long.parseLong(from.get("t"));
            double layered = (Long.parseLong(to.get("layered")) - Long.parseLong(from.get("layered"))) * 8 / span;
            double tcp = (Long.parseLong(to.get("tcp")) - Long.parseLong(from.get("tcp"))) * 8 / span;
            return new double[] {layered, tcp, Integer.parseInt(to.get("level"))};
        }
    }

    private static Process peer(String namespace, String role, List<String> args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace, java, "-Xmx256m",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), LayeredTcpPeer.class.getName(), role));
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
