package net.hopwise.voip.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's figures rest on the capture analyser: a synthetic loopback capture with known
 * departures, arrivals, a loss and a duplicate must give exactly those back.
 */
class RtpCaptureTest {
    private static final int CALLER = 41000;
    private static final int CALLEE = 40000;
    private static final int RELAY_A = 30000;
    private static final int RELAY_B = 35000;

    @TempDir
    Path dir;

    @Test
    void matchesEachPacketAcrossTheRelaysAndCountsLossAndDuplicates() throws IOException {
        LoopbackPcap pcap = new LoopbackPcap();
        long ssrc = 0xca110003L;
        for (int seq = 0; seq < 10; seq++) {
            long sent = 1_000_000_000L + seq * 20_000_000L;
            pcap.rtp(sent, CALLER, RELAY_A, seq, seq * 160L, ssrc);
            // Sequence 4 never reaches the callee; 7 reaches it twice; the rest 300 microseconds later.
            if (seq != 4) {
                pcap.rtp(sent + 300_000, RELAY_B, CALLEE, seq, seq * 160L, ssrc);
            }
            if (seq == 7) {
                pcap.rtp(sent + 400_000, RELAY_B, CALLEE, seq, seq * 160L, ssrc);
            }
        }
        // Another program's RTP on the same ports is not SIPp's and must be ignored.
        pcap.rtp(2_000_000_000L, CALLER, RELAY_A, 99, 0, 0x12345678L);
        Path file = dir.resolve("probe.pcap");
        Files.write(file, pcap.bytes());

        RtpCapture.Direction forward = new RtpCapture.Direction();
        RtpCapture.Direction echo = new RtpCapture.Direction();
        long[] counts = RtpCapture.read(file, CALLER, CALLEE, forward, echo);

        assertThat(counts).containsExactly(21, 20);
        String report = forward.report("forward", 20);
        assertThat(report).contains("streams=1 sent=10 received=9 lost=1 duplicates=1 loss=10.000%")
                .contains("p50=300.0 p90=300.0 p99=300.0 max=300.0 mean=300.0")
                // Arrivals exactly 20 ms apart but around the lost one: the jitter stays zero.
                .contains("jitter_ms=0.000");
        assertThat(echo.report("echo", 20)).contains("streams=0 sent=0");
    }

    @Test
    void countsPacketsLaterThanAJitterBufferWouldPlayAsLostAtPlayout() throws IOException {
        LoopbackPcap pcap = new LoopbackPcap();
        long ssrc = 0xca110001L;
        for (int seq = 0; seq < 10; seq++) {
            long sent = 1_000_000_000L + seq * 20_000_000L;
            pcap.rtp(sent, CALLER, RELAY_A, seq, seq * 160L, ssrc);
            // The fastest packet takes 1 ms; sequence 3 waits 101.5 ms (later than a 100 ms buffer
            // plays it), 6 waits exactly 101 ms (just in time): only 3 is late.
            long delay = seq == 3 ? 101_500_000L : seq == 6 ? 101_000_000L : 1_000_000L;
            pcap.rtp(sent + delay, RELAY_B, CALLEE, seq, seq * 160L, ssrc);
        }
        Path file = dir.resolve("late.pcap");
        Files.write(file, pcap.bytes());
        RtpCapture.Direction forward = new RtpCapture.Direction();
        RtpCapture.read(file, CALLER, CALLEE, forward, new RtpCapture.Direction());

        String report = forward.report("forward", 20, 100);
        // Every packet arrived: no loss on the wire, one packet in ten lost to the phone.
        assertThat(report).contains("received=10 lost=0").contains("loss=0.000%")
                .contains("playout_ms=100 late_at_playout=1 loss_at_playout=10.000%");
        double mos = Double.parseDouble(report.replaceAll(".* mos=([0-9.]+) .*", "$1"));
        double playoutMos = Double.parseDouble(report.replaceAll(".*mos_at_playout=([0-9.]+).*", "$1"));
        assertThat(playoutMos).isLessThan(mos);
        // A deeper buffer plays every packet.
        assertThat(forward.report("forward", 20, 200)).contains("late_at_playout=0 loss_at_playout=0.000%");
    }
}
