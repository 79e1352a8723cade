package net.hopwise.examples.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/** The pieces experiments are made of: confidence intervals, plots, topologies, one short chain run. */
class ExperimentPartsTest {
    @Test
    void confidenceIntervalsUseStudentsT() {
        Estimate e = Estimate.of(new double[] {10, 12, 14});
        assertThat(e.mean()).isEqualTo(12.0);
        // s = 2, t(0.975, 2) = 4.303: half-width 4.303 * 2 / sqrt(3).
        assertThat(e.halfWidth()).isCloseTo(4.303 * 2 / Math.sqrt(3), within(1e-9));
        assertThat(Estimate.of(new double[] {5}).format(1)).isEqualTo("5.0");
    }

    @Test
    void plotsAreWellFormedSvg() throws Exception {
        SvgPlot plot = new SvgPlot("delay <vs> loss & more", "loss (%)", "delay (ms)", true);
        plot.series("a").point(0, 50, 1).point(5, 500, 40);
        plot.series("b").point(0, 51, Double.NaN).point(5, 60, 2);
        String svg = plot.render();
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getElementsByTagName("circle").getLength()).isEqualTo(4);
        assertThat(doc.getElementsByTagName("path").getLength()).isEqualTo(2);
    }

    @Test
    void waxmanTopologiesAreConnectedReproducibleAndOfMeanDegreeFour() {
        WaxmanTopology a = new WaxmanTopology(300, 2, 0.15, 0.2, 4000, 7);
        WaxmanTopology b = new WaxmanTopology(300, 2, 0.15, 0.2, 4000, 7);
        assertThat(a.edges).hasSize(2 * 300 - 3);
        assertThat(a.connectedWithout(-1, -1)).isTrue();
        for (int i = 0; i < a.edges.size(); i++) {
            assertThat(a.edges.get(i)).containsExactly(b.edges.get(i));
        }
    }

    @Test
    void aLosslessChainDeliversEverythingAtThePropagationDelay() {
        for (Protocol p : new Protocol[] {Protocol.TCP_SACK, Protocol.OVERLAY_BEST_EFFORT}) {
            ChainResult r = ChainScenario.chain5(0, 500, 20, p, 1).run();
            assertThat(r.generated()).isEqualTo(1250);
            assertThat(r.delivered()).as(p.label).isEqualTo(1250);
            // 50 ms of propagation plus five serialisations of about 1 KB at 10 Mbit/s; TCP's first
            // messages also wait for slow start to open the window.
            assertThat(r.delays().minMillis()).as(p.label).isBetween(54.0, 55.0);
            assertThat(r.meanMillis()).as(p.label).isBetween(54.0, 60.0);
            assertThat(r.percentAbove60()).as(p.label).isLessThan(3.0);
        }
    }

    @Test
    void lossOnTheMiddleLinkDelaysTcpAndLosesBestEffortMessages() {
        ChainResult tcp = ChainScenario.chain5(0.02, 500, 60, Protocol.TCP_SACK, 3).run();
        ChainResult udp = ChainScenario.chain5(0.02, 500, 60, Protocol.OVERLAY_BEST_EFFORT, 3).run();
        assertThat(tcp.undelivered()).isZero();
        assertThat(tcp.percentAbove60()).isGreaterThan(5);
        assertThat(udp.undelivered()).isBetween(30L, 130L);
        assertThat(udp.percentAbove60()).isZero();
    }
}
