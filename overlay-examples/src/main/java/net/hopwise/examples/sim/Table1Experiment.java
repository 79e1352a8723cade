package net.hopwise.examples.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Table 1 of the hop-by-hop paper: average delay of each end-to-end protocol at 1% loss, 500 Kbps. */
final class Table1Experiment {
    /** The paper's ns-2 and Emulab values (ms). */
    static final Map<Protocol, String> PAPER = Map.of(
            Protocol.TCP_TAHOE, "407.49",
            Protocol.TCP_RENO, "217.52",
            Protocol.TCP_NEW_RENO, "155.76",
            Protocol.TCP_SACK, "144.70",
            Protocol.LINK_END_TO_END, "117.55 ms (Emulab)",
            Protocol.HOP_BY_HOP, "not given as a number");

    private Table1Experiment() {
    }

    static void run(Options o) throws IOException {
        List<Protocol> protocols = List.of(Protocol.TCP_TAHOE, Protocol.TCP_RENO, Protocol.TCP_NEW_RENO,
                Protocol.TCP_SACK, Protocol.LINK_END_TO_END, Protocol.HOP_BY_HOP);
        List<ChainScenario> scenarios = new ArrayList<>();
        for (Protocol p : protocols) {
            for (int s = 0; s < o.seeds; s++) {
                scenarios.add(ChainScenario.chain5(0.01, 500, o.seconds, p, 2000 + s));
            }
        }
        List<ChainExperiment.Row> rows = ChainExperiment.measure(scenarios, o.threads, "table1");
        ResultTable t = new ResultTable("protocol (used end to end)", "paper (ms)", "ours: avg delay (ms)",
                "jitter (ms)", "> 60 ms (%)", "> 100 ms (%)");
        List<String> repro = new ArrayList<>();
        for (ChainExperiment.Row r : rows) {
            Protocol p = r.key().protocol();
            t.add(p.label, PAPER.getOrDefault(p, "-"), r.mean().format(1), r.jitter().format(1),
                    r.above60().format(1), r.above100().format(1));
            repro.add("| Table 1, " + p.label + " avg delay (Chain-5, 1%, 500 Kbps) | " + PAPER.get(p)
                    + (p.tcp != null ? " ms (ns-2)" : "") + " | "
                    + r.mean().format(1) + " ms | `SimulatorCli " + o.command + "` |");
        }
        t.add("Fack (ns-2)", "84.66", "not simulated", "", "", "");
        t.add("Vegas (ns-2)", "74.07", "not simulated", "", "", "");
        t.add("Red Hat 7.1 TCP (Emulab)", "90.06", "not simulated", "", "", "");
        Report.file(o, "table1.csv", t.toCsv());
        String md = Report.header(o, "### Table 1: end-to-end protocols on Chain-5, 1% loss on C-D, 500 Kbps")
                + String.format("%n%s s per run, %d seeds (mean ± 95%% CI). \"Hopwise link protocol e2e\" runs "
                + "overlay nodes only at A and F, joined by one overlay link with the path's 50 ms and the 1%% loss "
                + "(the paper's Spines row, measured on Emulab); \"Hopwise hop-by-hop\" runs a node at every "
                + "chain node, a reliable session over reliable links.%n%n", Report.f(o.seconds, 0), o.seeds)
                + t.toMarkdown();
        Report.publish(o, "table1", md, repro);
    }
}
