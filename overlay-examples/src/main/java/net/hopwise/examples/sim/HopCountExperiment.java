package net.hopwise.examples.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fig. 7 of the hop-by-hop paper: 50 ms of one-way latency split into 1 to 10 equal hops, loss of
 * 1% and 2% on the middle hop, 500 Kbps: the share of messages later than 60 ms.
 */
final class HopCountExperiment {
    private HopCountExperiment() {
    }

    static void run(Options o) throws IOException {
        double[] losses = {0.01, 0.02};
        List<ChainScenario> scenarios = new ArrayList<>();
        for (double loss : losses) {
            for (Protocol p : o.protocols) {
                for (int hops = 1; hops <= 10; hops++) {
                    for (int s = 0; s < o.seeds; s++) {
                        scenarios.add(new ChainScenario(hops, 50, loss, false, 500, 1000, o.seconds, p, 3000 + s));
                    }
                }
            }
        }
        List<ChainResult> results = Runs.all(scenarios, ChainScenario::run, o.threads, "hops");
        Map<String, List<ChainResult>> groups = new LinkedHashMap<>();
        for (ChainResult r : results) {
            ChainScenario s = r.scenario();
            groups.computeIfAbsent(s.loss() + "|" + s.protocol() + "|" + s.hops(), k -> new ArrayList<>()).add(r);
        }
        ResultTable t = new ResultTable("loss (%)", "protocol", "hops", "lossy hop delay (ms)", "> 60 ms (%)",
                "avg delay (ms)");
        SvgPlot plot = new SvgPlot("Messages later than 60 ms vs hops (50 ms path, 500 Kbps)", "hops",
                "messages > 60 ms (%)", false);
        Map<String, SvgPlot.Series> series = new LinkedHashMap<>();
        for (List<ChainResult> g : groups.values()) {
            ChainScenario s = g.get(0).scenario();
            Estimate late = ChainExperiment.est(g, ChainResult::percentAbove60);
            Estimate mean = ChainExperiment.est(g, ChainResult::meanMillis);
            t.add(Report.f(s.loss() * 100, 0), s.protocol().label, s.hops(), Report.f(50.0 / s.hops(), 2),
                    late.format(2), mean.format(1));
            series.computeIfAbsent(s.protocol().label + " " + Report.f(s.loss() * 100, 0) + "%", plot::series)
                    .point(s.hops(), late.mean(), late.halfWidth());
        }
        List<String> repro = new ArrayList<>();
        for (double loss : losses) {
            for (Protocol p : o.protocols) {
                StringBuilder values = new StringBuilder();
                for (int hops : new int[] {1, 2, 3, 4, 5, 10}) {
                    List<ChainResult> g = groups.get(loss + "|" + p + "|" + hops);
                    if (g != null) {
                        values.append(values.length() == 0 ? "" : ", ").append("n=").append(hops).append(": ")
                                .append(Report.f(ChainExperiment.est(g, ChainResult::percentAbove60).mean(), 1)).append('%');
                    }
                }
                repro.add("| Fig. 7, " + Report.f(loss * 100, 0) + "% loss, messages > 60 ms by hop count, " + p.label
                        + " | " + (p == Protocol.HOP_BY_HOP ? "2-4 hops capture almost all of the benefit (at 1%: n=1 ≈ 27%, "
                                + "n=5 ≈ 3%)" : "end to end: independent of overlay hops") + " | " + values
                        + " | `SimulatorCli " + o.command + "` |");
            }
        }
        Report.file(o, "hops.csv", t.toCsv());
        Report.file(o, "hops-late60.svg", plot.render());
        String md = Report.header(o, "### Hop count (Fig. 7)")
                + String.format("%n%s s per run, %d seeds (mean ± 95%% CI); plot `docs/sim/hops-late60.svg`.%n%n",
                        Report.f(o.seconds, 0), o.seeds)
                + t.toMarkdown();
        Report.publish(o, "hops", md, repro);
    }
}
