package net.hopwise.examples.sim;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.impair.LossModel;
import net.hopwise.overlay.realtime.RealTimeConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.sim.DelayStatistics;
import net.hopwise.overlay.sim.LinkSpec;
import net.hopwise.overlay.sim.OverlayCbrFlow;
import net.hopwise.overlay.sim.SimNetwork;

/**
 * The real-time recovery protocol of the thesis (section 6.2.1, Figs. 6.3-6.6): one or two 10 ms
 * links with Bernoulli loss in both directions, carrying the aggregate of ten G.711 streams (160-byte
 * packets, 50 per second each), sent with the production real-time service of the node engine.
 * Measured: residual loss against the thesis' 2p^2 - 3p^3 per lossy link, and the delay of what
 * arrives, with recovery on and off.
 */
final class RealTimeExperiment {
    private static final long MS = 1_000_000L;
    private static final int STREAMS = 10;
    private static final long STREAM_INTERVAL = 20 * MS;

    private RealTimeExperiment() {
    }

    record Point(int lossyLinks, double loss, boolean recovery, long seed, double seconds) {
    }

    record Outcome(Point point, long generated, long delivered, DelayStatistics delays) {
        double residual() {
            return 1 - (double) delivered / generated;
        }
    }

    static Outcome measure(Point pt) {
        try (SimNetwork net = new SimNetwork(pt.seed,
                b -> b.realTime(RealTimeConfig.builder().recovery(pt.recovery).build()))) {
            int hops = pt.lossyLinks;
            String[] names = new String[hops + 1];
            for (int i = 0; i <= hops; i++) {
                names[i] = String.valueOf((char) ('A' + i));
                net.node(names[i]);
            }
            LinkSpec lossy = LinkSpec.builder().delayMillis(10).bandwidthBitsPerSecond(10_000_000)
                    .loss(new LossModel.Bernoulli(pt.loss)).build();
            for (int i = 0; i < hops; i++) {
                net.link(names[i], names[i + 1], lossy);
            }
            net.start();
            net.runFor(Duration.ofSeconds(5));
            DelayStatistics delays = new DelayStatistics(100 * MS);
            List<OverlayCbrFlow> flows = new ArrayList<>();
            long start = net.now();
            long stop = start + Math.round(pt.seconds * 1e9);
            for (int s = 0; s < STREAMS; s++) {
                OverlayCbrFlow f = new OverlayCbrFlow(net, s + 1, names[0], names[hops], 100 + s, 160,
                        RoutingMetric.EXPECTED_LATENCY, delays,
                        OverlayCbrFlow.Service.REAL_TIME);
                // Streams start 2 ms apart: the aggregate is one packet every 2 ms, the thesis' delta.
                f.start(start + s * STREAM_INTERVAL / STREAMS, STREAM_INTERVAL, stop);
                flows.add(f);
            }
            net.runUntil(stop + 2_000 * MS);
            long generated = flows.stream().mapToLong(OverlayCbrFlow::generated).sum();
            long delivered = flows.stream().mapToLong(OverlayCbrFlow::delivered).sum();
            return new Outcome(pt, generated, delivered, delays);
        }
    }

    static double thesis(double p) {
        return 2 * p * p - 3 * p * p * p;
    }

    static void run(Options o) throws IOException {
        double[] losses = {0.01, 0.02, 0.03, 0.05, 0.07, 0.10};
        double seconds = Math.min(o.seconds, 400);
        List<Point> points = new ArrayList<>();
        for (int links = 1; links <= 2; links++) {
            for (double p : losses) {
                for (boolean recovery : new boolean[] {true, false}) {
                    for (int s = 0; s < o.seeds; s++) {
                        points.add(new Point(links, p, recovery, 6000 + s, seconds));
                    }
                }
            }
        }
        List<Outcome> outcomes = Runs.all(points, RealTimeExperiment::measure, o.threads, "realtime");
        ResultTable t = new ResultTable("lossy links", "loss per link (%)", "thesis 2p²-3p³ (%)",
                "with next-packet losses 2p²-p³ (%)",
                "residual, recovery (%)", "residual, no recovery (%)", "mean delay (ms)", "p99 delay (ms)",
                "> 100 ms (%)");
        SvgPlot plot = new SvgPlot("Residual loss of the real-time link protocol", "loss per link (%)",
                "residual loss (%)", true);
        SvgPlot.Series th1 = plot.series("thesis 2p²-3p³, 1 link");
        SvgPlot.Series sim1 = plot.series("simulated, 1 link");
        SvgPlot.Series th2 = plot.series("thesis, 2 links");
        SvgPlot.Series sim2 = plot.series("simulated, 2 links");
        List<String> repro = new ArrayList<>();
        int i = 0;
        for (int links = 1; links <= 2; links++) {
            for (double p : losses) {
                double[] withR = new double[o.seeds];
                double[] without = new double[o.seeds];
                DelayStatistics all = new DelayStatistics(100 * MS);
                for (boolean recovery : new boolean[] {true, false}) {
                    for (int s = 0; s < o.seeds; s++) {
                        Outcome out = outcomes.get(i++);
                        if (recovery) {
                            withR[s] = 100 * out.residual();
                            all.merge(out.delays());
                        } else {
                            without[s] = 100 * out.residual();
                        }
                    }
                }
                double r = thesis(p);
                double expected = 100 * (1 - Math.pow(1 - r, links));
                Estimate e = Estimate.of(withR);
                double whole = 100 * (1 - Math.pow(1 - (2 * p * p - p * p * p), links));
                t.add(links, Report.f(p * 100, 0), Report.f(expected, 3), Report.f(whole, 3), e.format(3), Estimate.of(without).format(2),
                        Report.f(all.meanMillis(), 2), Report.f(all.quantileMillis(0.99), 1),
                        Report.f(100 * all.fractionAbove(0), 3));
                (links == 1 ? th1 : th2).point(p * 100, expected, Double.NaN);
                (links == 1 ? sim1 : sim2).point(p * 100, e.mean(), e.halfWidth());
                if (Math.abs(p - 0.05) < 1e-9) {
                    repro.add("| Thesis Fig. 6.5/6.6: residual loss at 5% per link, " + links + " link"
                            + (links == 1 ? "" : "s") + " | ≈ " + (links == 1 ? "0.5" : "1") + "% (2p²-3p³: "
                            + Report.f(expected, 2) + "%) | " + e.format(3) + "% | `SimulatorCli " + o.command + "` |");
                }
            }
        }
        Report.file(o, "realtime.csv", t.toCsv());
        Report.file(o, "realtime-residual.svg", plot.render());
        String md = Report.header(o, "### Real-time recovery (thesis Figs. 6.3-6.6)")
                + String.format("%nThe production real-time service (`NodeStack.sendRealTime`: NACK on the first "
                + "gap, one request per loss, 100 ms history, 20%% retransmission budget) over one or two 10 ms, "
                + "10 Mbit/s links with Bernoulli loss in both directions; ten 160-byte streams at 50 packets/s "
                + "(one packet every 2 ms on the link), %s s per run, %d seeds. The thesis' residual loss per "
                + "link is 2p²-3p³, composed over links as 1-(1-r)^n; counting also the losses of the packet "
                + "after a loss (which reveals it) gives 2p²-p³ (see `ResidualLossTest`). Plot: `docs/sim/realtime-residual.svg`.%n%n",
                Report.f(seconds, 0), o.seeds)
                + t.toMarkdown();
        Report.publish(o, "realtime", md, repro);
    }
}
