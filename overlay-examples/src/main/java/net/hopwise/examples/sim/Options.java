package net.hopwise.examples.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Command-line options shared by the experiments. */
final class Options {
    int seeds = 3;
    double seconds = 5000;
    int threads = 2;
    boolean writeDocs;
    Path root = checkoutTop();
    List<Double> losses = new ArrayList<>(List.of(0.0, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10));
    List<Integer> rates = new ArrayList<>(List.of(500, 1000));
    List<Protocol> protocols = new ArrayList<>(List.of(Protocol.TCP_RENO, Protocol.TCP_NEW_RENO, Protocol.TCP_SACK,
            Protocol.HOP_BY_HOP));
    int nodes = 1000;
    String command;

    /**
     * The top of the checkout (the folder holding mvnw and overlay-core), found upwards from the working
     * folder, because Maven runs the CLI inside overlay-examples.
     */
    static Path checkoutTop() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (java.nio.file.Files.exists(p.resolve("mvnw")) && java.nio.file.Files.isDirectory(p.resolve("overlay-core"))) {
                return p;
            }
        }
        return here;
    }

    static Options parse(String experiment, String[] args, int from) {
        Options o = new Options();
        for (int i = from; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--seeds" -> o.seeds = Integer.parseInt(args[++i]);
                case "--seconds" -> o.seconds = Double.parseDouble(args[++i]);
                case "--threads" -> o.threads = Integer.parseInt(args[++i]);
                case "--nodes" -> o.nodes = Integer.parseInt(args[++i]);
                case "--write-docs" -> o.writeDocs = true;
                case "--root" -> o.root = Path.of(args[++i]);
                case "--losses" -> {
                    o.losses.clear();
                    for (String p : args[++i].split(",")) {
                        o.losses.add(Double.parseDouble(p) / 100);
                    }
                }
                case "--rates" -> {
                    o.rates.clear();
                    for (String r : args[++i].split(",")) {
                        o.rates.add(Integer.parseInt(r));
                    }
                }
                case "--protocols" -> {
                    o.protocols.clear();
                    for (String p : args[++i].split(",")) {
                        o.protocols.add(Protocol.parse(p));
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + SimulatorCli.USAGE);
            }
        }
        o.command = rebuild(experiment, args, from);
        return o;
    }

    private static String rebuild(String experiment, String[] args, int from) {
        StringBuilder sb = new StringBuilder(experiment);
        for (int i = from; i < args.length; i++) {
            if (args[i].equals("--root")) {
                i++;
                continue;
            }
            sb.append(' ').append(args[i]);
        }
        return sb.toString();
    }
}
