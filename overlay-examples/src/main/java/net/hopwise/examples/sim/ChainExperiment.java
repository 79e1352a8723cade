package net.hopwise.examples.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Figures 3-6 of the hop-by-hop paper: Chain-5, loss on C-D swept, 500 and 1000 Kbps of 1000-byte
 * messages: average delay, jitter and the share of messages later than 60 and 100 ms, for each
 * protocol, with 95% confidence intervals over seeds.
 */
final class ChainExperiment {
    private ChainExperiment() {
    }

    record Key(int rate, double loss, Protocol protocol) {
    }

    record Row(Key key, Estimate mean, Estimate jitter, Estimate above60, Estimate above100, Estimate undelivered) {
    }

    static List<Row> measure(List<ChainScenario> scenarios, int threads, String what) {
        List<ChainResult> results = Runs.all(scenarios, ChainScenario::run, threads, what);
        Map<Key, List<ChainResult>> groups = new LinkedHashMap<>();
        for (ChainResult r : results) {
            ChainScenario s = r.scenario();
            groups.computeIfAbsent(new Key(s.rateKbps(), s.loss(), s.protocol()), k -> new ArrayList<>()).add(r);
        }
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<Key, List<ChainResult>> e : groups.entrySet()) {
            List<ChainResult> g = e.getValue();
            rows.add(new Row(e.getKey(), est(g, ChainResult::meanMillis), est(g, ChainResult::jitterMillis),
                    est(g, ChainResult::percentAbove60), est(g, ChainResult::percentAbove100),
                    est(g, r -> r.undelivered())));
        }
        return rows;
    }

    static Estimate est(List<ChainResult> g, ToDoubleFunction<ChainResult> f) {
        return Estimate.of(g.stream().mapToDouble(f).toArray());
    }

    static ResultTable table(List<Row> rows) {
        ResultTable t = new ResultTable("rate (Kbps)", "loss C-D (%)", "protocol", "avg delay (ms)", "jitter (ms)",
                "> 60 ms (%)", "> 100 ms (%)", "undelivered");
        for (Row r : rows) {
            t.add(r.key.rate(), Report.f(r.key.loss() * 100, 1), r.key.protocol().label, r.mean.format(1),
                    r.jitter.format(1), r.above60.format(2), r.above100.format(2), r.undelivered.format(0));
        }
        return t;
    }

    static void run(Options o) throws IOException {
        List<ChainScenario> scenarios = new ArrayList<>();
        for (int rate : o.rates) {
            for (double loss : o.losses) {
                for (Protocol p : o.protocols) {
                    for (int s = 0; s < o.seeds; s++) {
                        scenarios.add(ChainScenario.chain5(loss, rate, o.seconds, p, 1000 + s));
                    }
                }
            }
        }
        List<Row> rows = measure(scenarios, o.threads, "chain");
        ResultTable table = table(rows);
        Report.file(o, "chain.csv", table.toCsv());
        for (int rate : o.rates) {
            Report.file(o, "chain-delay-" + rate + ".svg", plot(rows, rate, "Average delay, Chain-5, " + rate + " Kbps",
                    "average delay (ms)", Row::mean, true));
            Report.file(o, "chain-jitter-" + rate + ".svg", plot(rows, rate, "Jitter, Chain-5, " + rate + " Kbps",
                    "standard deviation of delay (ms)", Row::jitter, true));
            Report.file(o, "chain-late60-" + rate + ".svg", plot(rows, rate,
                    "Messages later than 60 ms, Chain-5, " + rate + " Kbps", "messages > 60 ms (%)", Row::above60, false));
        }
        StringBuilder md = new StringBuilder();
        md.append(Report.header(o, "### Chain-5 loss sweep (Figs. 3, 4, 5, 6)"));
        md.append(String.format("%nFive 10 ms links of 10 Mbit/s, loss on C-D, %s s of 1000-byte messages per run, "
                + "%d seeds per point (mean ± 95%% CI). Plots: `docs/sim/chain-delay-*.svg`, "
                + "`chain-jitter-*.svg`, `chain-late60-*.svg`; data: `docs/sim/chain.csv`.%n%n",
                Report.f(o.seconds, 0), o.seeds));
        md.append(table.toMarkdown());
        List<String> repro = new ArrayList<>();
        for (Row r : rows) {
            if (r.key.rate() == 500 && Math.abs(r.key.loss() - 0.01) < 1e-9
                    && r.key.protocol() != Protocol.OVERLAY_BEST_EFFORT
                    && r.key.protocol() != Protocol.LINK_END_TO_END) {
                repro.add("| Fig. 6, 500 Kbps, 1% loss: messages > 60 ms / > 100 ms, " + r.key.protocol().label
                        + (r.key.protocol() == Protocol.HOP_BY_HOP ? " | ≈ 3% / 1% (ns-2 hop-by-hop) | "
                                : " | > 27% / ≈ 18% (ns-2 TCP-Fack e2e) | ") + r.above60.format(1) + "% / "
                        + r.above100.format(1) + "% | `SimulatorCli " + o.command + "` |");
            }
        }
        Report.publish(o, "chain", md.toString(), repro);
    }

    static String plot(List<Row> rows, int rate, String title, String yLabel,
            java.util.function.Function<Row, Estimate> measure, boolean logY) {
        SvgPlot plot = new SvgPlot(title, "loss on C-D (%)", yLabel, logY);
        Map<Protocol, SvgPlot.Series> series = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.key.rate() != rate) {
                continue;
            }
            Estimate e = measure.apply(r);
            series.computeIfAbsent(r.key.protocol(), p -> plot.series(p.label))
                    .point(r.key.loss() * 100, e.mean(), e.halfWidth());
        }
        return plot.render();
    }
}
