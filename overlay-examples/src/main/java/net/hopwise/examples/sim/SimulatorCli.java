package net.hopwise.examples.sim;

import java.io.IOException;
import java.util.List;

/**
 * The simulator's command line: one command per experiment of the papers, each printing a Markdown
 * table and, with {@code --write-docs}, writing its block of docs/benchmarks.md and its CSV and SVG
 * files under docs/sim/.
 */
public final class SimulatorCli {
    static final String USAGE = """
            usage: SimulatorCli <experiment> [options]
            experiments:
              chain     Chain-5 loss sweep at 500 and 1000 Kbps (Figs. 3-6)
              table1    Table 1: each TCP variant end to end at 1% loss, 500 Kbps
              hops      hop-count sweep, 1-10 equal hops at 1% and 2% loss (Fig. 7)
              realtime  real-time recovery: residual loss and delay vs loss, one and two lossy links
              padhye    bulk TCP throughput vs the Padhye model on one lossy link (Fig. 2)
              scale     1000-node Waxman: convergence after link and node failure, control bytes, route computation
              speed     events/s and speed-up of the 5000-s 500 Kbps chain, memory over the run
              scenario  run a scenario file: scenario <file>
            options:
              --seeds N          seeds per point (default 3)
              --seconds S        simulated seconds of traffic per run (default 5000)
              --threads T        runs in parallel (default 2)
              --losses a,b,...   loss rates in percent (chain)
              --rates a,b,...    stream rates in Kbps (chain)
              --protocols a,...  tahoe, reno, newreno, sack, besteffort, hopbyhop, linke2e
              --nodes N          nodes of the scale experiment (default 1000)
              --write-docs       write docs/benchmarks.md and docs/sim/ (under --root, default .)
            """;

    private SimulatorCli() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.print(USAGE);
            return;
        }
        String experiment = args[0];
        if (experiment.equals("scenario")) {
            if (args.length < 2) {
                System.err.print(USAGE);
                System.exit(2);
            }
            ScenarioFile.run(java.nio.file.Path.of(args[1]), System.out);
            return;
        }
        Options o = Options.parse(experiment, args, 1);
        switch (experiment) {
            case "chain" -> ChainExperiment.run(o);
            case "table1" -> {
                if (o.seeds == 3 && !List.of(args).contains("--seeds")) {
                    o.seeds = 5;
                }
                Table1Experiment.run(o);
            }
            case "hops" -> {
                if (!List.of(args).contains("--protocols")) {
                    o.protocols = new java.util.ArrayList<>(List.of(Protocol.TCP_SACK, Protocol.HOP_BY_HOP));
                }
                HopCountExperiment.run(o);
            }
            case "padhye" -> PadhyeExperiment.run(o);
            case "realtime" -> RealTimeExperiment.run(o);
            case "scale" -> ScaleExperiment.run(o);
            case "speed" -> {
                if (!List.of(args).contains("--protocols")) {
                    o.protocols = new java.util.ArrayList<>(List.of(Protocol.TCP_SACK, Protocol.HOP_BY_HOP,
                            Protocol.OVERLAY_BEST_EFFORT));
                }
                SpeedExperiment.run(o);
            }
            default -> {
                System.err.println("unknown experiment " + experiment);
                System.err.print(USAGE);
                System.exit(2);
            }
        }
    }
}
