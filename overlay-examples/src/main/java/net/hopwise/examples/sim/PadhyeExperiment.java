package net.hopwise.examples.sim;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.QueueDiscipline;
import net.hopwise.overlay.sim.SimNetwork;
import net.hopwise.overlay.sim.tcp.PadhyeModel;
import net.hopwise.overlay.sim.tcp.TcpConfig;
import net.hopwise.overlay.sim.tcp.TcpFlow;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/**
 * Fig. 2 of the hop-by-hop paper and the baseline's validation: bulk TCP throughput against loss on
 * one link, for the end-to-end round trip (100 ms) and one 10 ms hop (20 ms), simulated and from the
 * Padhye model (b = 1; T0 = RTT as in the paper's figure, and T0 = the simulated RTO floor of 200 ms).
 */
final class PadhyeExperiment {
    private PadhyeExperiment() {
    }

    static double measure(TcpVariant v, double loss, double oneWayMs, long seed, double seconds) {
        TcpConfig config = TcpConfig.builder().receiverWindow(1000).build();
        try (SimNetwork net = new SimNetwork(seed)) {
            net.plainNode("s");
            net.plainNode("r");
            LinkSpec clean = LinkSpec.builder().delayMillis(oneWayMs).bandwidthBitsPerSecond(1_000_000_000)
                    .queue(new QueueDiscipline.DropTail(10_000)).build();
            net.link("s", "r", clean.withLoss(new LossModel.Bernoulli(loss)), clean);
            net.start();
            TcpFlow flow = new TcpFlow(net, 1, v, config, net.path("s", "r"), net.path("r", "s"), new DelayStatistics());
            flow.bulk(net.now());
            net.runFor(Duration.ofSeconds(20));
            long before = flow.receiver().delivered();
            net.runFor(Duration.ofNanos(Math.round(seconds * 1e9)));
            return (flow.receiver().delivered() - before) * 1000 * 8 / seconds;
        }
    }

    static void run(Options o) throws IOException {
        double[] losses = {0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.10};
        double seconds = Math.min(o.seconds, 1000);
        record Point(double loss, double rtt, TcpVariant v, int seed) {
        }
        List<Point> points = new ArrayList<>();
        for (double p : losses) {
            for (double rtt : new double[] {100, 20}) {
                for (TcpVariant v : new TcpVariant[] {TcpVariant.RENO, TcpVariant.NEW_RENO, TcpVariant.SACK}) {
                    for (int s = 0; s < o.seeds; s++) {
                        points.add(new Point(p, rtt, v, 5000 + s));
                    }
                }
            }
        }
        List<Double> bps = Runs.all(points, pt -> measure(pt.v, pt.loss, pt.rtt / 2, pt.seed, seconds), o.threads,
                "padhye");
        ResultTable t = new ResultTable("loss (%)", "RTT (ms)", "model T0=RTT (Mbit/s)", "model T0=200 ms (Mbit/s)",
                "Reno (Mbit/s)", "NewReno (Mbit/s)", "SACK (Mbit/s)", "SACK / model(T0=200 ms)");
        SvgPlot plot = new SvgPlot("Bulk TCP throughput vs loss (Fig. 2)", "loss (%)", "throughput (Mbit/s)", true);
        SvgPlot.Series m100 = plot.series("model, RTT 100 ms");
        SvgPlot.Series s100 = plot.series("SACK sim, RTT 100 ms");
        SvgPlot.Series m20 = plot.series("model, RTT 20 ms");
        SvgPlot.Series s20 = plot.series("SACK sim, RTT 20 ms");
        List<String> repro = new ArrayList<>();
        int i = 0;
        for (double p : losses) {
            for (double rtt : new double[] {100, 20}) {
                Estimate[] byVariant = new Estimate[3];
                for (int v = 0; v < 3; v++) {
                    double[] vals = new double[o.seeds];
                    for (int s = 0; s < o.seeds; s++) {
                        vals[s] = bps.get(i++) / 1e6;
                    }
                    byVariant[v] = Estimate.of(vals);
                }
                double paper = PadhyeModel.bitsPerSecond(p, rtt / 1000, rtt / 1000, 1000) / 1e6;
                double floor = PadhyeModel.bitsPerSecond(p, rtt / 1000, Math.max(0.2, rtt / 1000 + 0.01), 1000) / 1e6;
                t.add(Report.f(p * 100, 1), Report.f(rtt, 0), Report.f(paper, 3), Report.f(floor, 3),
                        byVariant[0].format(3), byVariant[1].format(3), byVariant[2].format(3),
                        Report.f(byVariant[2].mean() / floor, 2));
                (rtt == 100 ? m100 : m20).point(p * 100, floor, Double.NaN);
                (rtt == 100 ? s100 : s20).point(p * 100, byVariant[2].mean(), byVariant[2].halfWidth());
                if (Math.abs(p - 0.01) < 1e-9) {
                    repro.add("| Fig. 2 (model), 1% loss, RTT " + Report.f(rtt, 0) + " ms | "
                            + (rtt == 100 ? "0.958" : "4.79") + " Mbit/s (digest, T0 = RTT) | model "
                            + Report.f(paper, 3) + " Mbit/s; simulated SACK " + byVariant[2].format(3)
                            + " Mbit/s (T0 floor 200 ms: model " + Report.f(floor, 3) + ") | `SimulatorCli "
                            + o.command + "` |");
                }
            }
        }
        Report.file(o, "padhye.csv", t.toCsv());
        Report.file(o, "padhye.svg", plot.render());
        String md = Report.header(o, "### Bulk TCP against the Padhye model (Fig. 2, baseline validation)")
                + String.format("%nOne link of 1 Gbit/s (so loss, not capacity, limits), Bernoulli loss on the data "
                + "direction, receiver window 1000 segments, %s s measured after 20 s of warm-up, %d seeds. "
                + "`PadhyeValidationTest` asserts Reno, NewReno and SACK within 20%% of the model (T0 = 200 ms) "
                + "from 0.5%% to 5%% loss. Plot: `docs/sim/padhye.svg`.%n%n", Report.f(seconds, 0), o.seeds)
                + t.toMarkdown();
        Report.publish(o, "padhye", md, repro);
    }
}
