package net.hopwise.voip.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Post-dial delay from a tcpdump capture (nanosecond pcap, loopback) of the caller's SIP port: per
 * Call-ID, from the caller's first INVITE leaving its socket to the first 200 for that INVITE reaching
 * it. SIPp's own response times are whole milliseconds, too coarse for what a relay adds. Several
 * callers (comma-separated SIP ports, one per SIPp process) are told apart by their port as well as the
 * Call-ID, so that two processes' calls are never taken for one.
 *
 * <pre>
 * java -cp ... net.hopwise.voip.bench.SipCapture sip.pcap CALLER_SIP_PORT[,PORT...]
 * </pre>
 */
public final class SipCapture {
    private SipCapture() {}

    public static void main(String[] args) throws IOException {
        int[] callerPorts = CallerPorts.parse(args[1]);
        System.out.println(report(Path.of(args[0]), callerPorts));
    }

    /** The PDD line for a capture of the callers' SIP ports. */
    static String report(Path capture, int... callerPorts) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(capture)).order(ByteOrder.LITTLE_ENDIAN);
        boolean nanos = b.getInt(0) == 0xa1b23c4d;
        int linkHeader = b.getInt(20) == 1 ? 14 : 16;
        Map<String, Long> invited = new HashMap<>();
        Map<String, Long> answered = new HashMap<>();
        int off = 24;
        while (off + 16 <= b.limit()) {
            long t = (b.getInt(off) & 0xffffffffL) * 1_000_000_000L
                    + (b.getInt(off + 4) & 0xffffffffL) * (nanos ? 1 : 1000);
            int captured = b.getInt(off + 8);
            int p = off + 16 + linkHeader;
            int end = off + 16 + captured;
            off = end;
            if (end > b.limit() || (b.get(p) & 0xf0) != 0x40 || b.get(p + 9) != 17) {
                continue;
            }
            int udp = p + (b.get(p) & 0x0f) * 4;
            int src = ((b.get(udp) & 0xff) << 8) | (b.get(udp + 1) & 0xff);
            int dst = ((b.get(udp + 2) & 0xff) << 8) | (b.get(udp + 3) & 0xff);
            String text = new String(b.array(), udp + 8, end - udp - 8, StandardCharsets.ISO_8859_1);
            String callId = header(text, "Call-ID", "i");
            String cseq = header(text, "CSeq", null);
            if (callId == null || cseq == null || !cseq.endsWith("INVITE")) {
                continue;
            }
            if (CallerPorts.contains(callerPorts, src) && text.startsWith("INVITE ")) {
                invited.putIfAbsent(src + " " + callId, t);
            } else if (CallerPorts.contains(callerPorts, dst) && text.startsWith("SIP/2.0 200")) {
                answered.putIfAbsent(dst + " " + callId, t);
            }
        }
        double[] pdd = invited.entrySet().stream().filter(e -> answered.containsKey(e.getKey()))
                .mapToDouble(e -> (answered.get(e.getKey()) - e.getValue()) / 1e6).sorted().toArray();
        return String.format(Locale.ROOT, "PDD calls=%d answered=%d ms p50=%.3f p90=%.3f p99=%.3f max=%.3f mean=%.3f",
                invited.size(), pdd.length, percentile(pdd, 50), percentile(pdd, 90), percentile(pdd, 99),
                pdd.length == 0 ? 0 : pdd[pdd.length - 1], Arrays.stream(pdd).average().orElse(0));
    }

    private static String header(String text, String name, String compact) {
        for (String line : text.split("\r?\n")) {
            if (line.isEmpty()) {
                return null;
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                String n = line.substring(0, colon).trim();
                if (n.equalsIgnoreCase(name) || (compact != null && n.equalsIgnoreCase(compact))) {
                    return line.substring(colon + 1).trim();
                }
            }
        }
        return null;
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
