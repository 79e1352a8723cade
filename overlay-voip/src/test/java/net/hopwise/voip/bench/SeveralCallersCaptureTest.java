package net.hopwise.voip.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's callers may be several SIPp processes, each numbering its calls from the same SSRC
 * and Call-ID counter: the analysers must keep two processes' calls apart, on the callee's leg behind a
 * relay too, where only the payload tells them apart.
 */
class SeveralCallersCaptureTest {
    private static final int[] CALLERS = {42000, 42010};
    private static final int CALLEE = 40000;
    private static final int RELAY_A = 30000;
    private static final int RELAY_B = 35000;

    @TempDir
    Path dir;

    @Test
    void keepsTwoCallersStreamsWithTheSameSsrcApart() throws IOException {
        LoopbackPcap pcap = new LoopbackPcap();
        long ssrc = 0xca110000L;
        for (int seq = 0; seq < 10; seq++) {
            long sent = 1_000_000_000L + seq * 20_000_000L;
            // The first process's packet crosses in 300 microseconds, the second's, sent 5 ms later,
            // in 700 (it arrives after the first's second packet would be due: no ordering helps).
            pcap.rtp(sent, CALLERS[0], RELAY_A, seq, seq * 160L, ssrc, 0xff);
            pcap.rtp(sent + 300_000, RELAY_B, CALLEE, seq, seq * 160L, ssrc, 0xff);
            pcap.rtp(sent + 5_000_000, CALLERS[1], RELAY_A + 2, seq, seq * 160L, ssrc, 0xfe);
            if (seq != 6) {
                pcap.rtp(sent + 5_700_000, RELAY_B + 2, CALLEE, seq, seq * 160L, ssrc, 0xfe);
            }
            // The callee's echo of each, back 100 microseconds after it arrived.
            pcap.rtp(sent + 400_000, CALLEE, RELAY_B, seq, seq * 160L, ssrc, 0xff);
            pcap.rtp(sent + 700_000, RELAY_A, CALLERS[0], seq, seq * 160L, ssrc, 0xff);
            if (seq != 6) {
                pcap.rtp(sent + 5_800_000, CALLEE, RELAY_B + 2, seq, seq * 160L, ssrc, 0xfe);
                pcap.rtp(sent + 6_100_000, RELAY_A + 2, CALLERS[1], seq, seq * 160L, ssrc, 0xfe);
            }
        }
        Path file = dir.resolve("probe.pcap");
        Files.write(file, pcap.bytes());

        RtpCapture.Direction forward = new RtpCapture.Direction();
        RtpCapture.Direction echo = new RtpCapture.Direction();
        RtpCapture.read(file, CALLERS, CALLEE, forward, echo);

        // Taken for one stream, the second process's packets would be duplicates and none lost.
        assertThat(forward.report("forward", 20))
                .contains("streams=2 sent=20 received=19 lost=1 duplicates=0 loss=5.000%")
                .contains("p50=300.0 p90=700.0 p99=700.0 max=700.0");
        assertThat(echo.report("echo", 20))
                .contains("streams=2 sent=19 received=19 lost=0 duplicates=0")
                .contains("p50=300.0 p90=300.0 p99=300.0 max=300.0 mean=300.0");
    }

    @Test
    void oneCallerPortReadsOnlyItsOwnCalls() throws IOException {
        LoopbackPcap pcap = new LoopbackPcap();
        pcap.rtp(1_000_000_000L, CALLERS[0], RELAY_A, 0, 0, 0xca110000L, 0xff);
        pcap.rtp(1_000_000_000L, CALLERS[1], RELAY_A + 2, 0, 0, 0xca110000L, 0xfe);
        Path file = dir.resolve("one.pcap");
        Files.write(file, pcap.bytes());
        RtpCapture.Direction forward = new RtpCapture.Direction();
        RtpCapture.read(file, CALLERS[0], CALLEE, forward, new RtpCapture.Direction());
        assertThat(forward.report("forward", 20)).contains("streams=1 sent=1 received=0 lost=1");
    }

    @Test
    void pairsEachInviteWithTheAnswerToTheSameCaller() throws IOException {
        // Two processes whose Call-IDs coincide (SIPp's counter restarts in each): each 200 answers
        // the INVITE its own port sent. A message to a port not among the callers is not a call of theirs.
        LoopbackPcap pcap = new LoopbackPcap();
        pcap.udp(1_000_000_000L, 15200, 15070, invite("1-100@127.0.0.1"));
        pcap.udp(1_001_000_000L, 15201, 15070, invite("1-100@127.0.0.1"));
        pcap.udp(1_002_000_000L, 15070, 15200, ok("1-100@127.0.0.1"));
        pcap.udp(1_005_000_000L, 15070, 15201, ok("1-100@127.0.0.1"));
        pcap.udp(1_006_000_000L, 15070, 15300, ok("1-100@127.0.0.1"));
        Path file = dir.resolve("sip.pcap");
        Files.write(file, pcap.bytes());

        assertThat(SipCapture.report(file, 15200, 15201))
                .isEqualTo("PDD calls=2 answered=2 ms p50=2.000 p90=4.000 p99=4.000 max=4.000 mean=3.000");
        assertThat(SipCapture.report(file, 15201))
                .isEqualTo("PDD calls=1 answered=1 ms p50=4.000 p90=4.000 p99=4.000 max=4.000 mean=4.000");
    }

    private static byte[] invite(String callId) {
        return ("INVITE sip:bob@127.0.0.1:15070 SIP/2.0\r\nCall-ID: " + callId + "\r\nCSeq: 1 INVITE\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] ok(String callId) {
        return ("SIP/2.0 200 OK\r\nCall-ID: " + callId + "\r\nCSeq: 1 INVITE\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }
}
