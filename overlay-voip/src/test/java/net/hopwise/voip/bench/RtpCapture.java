package net.hopwise.voip.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.hopwise.voip.relay.EModel;

/**
 * Reads a tcpdump capture of loopback (nanosecond pcap) and measures, for the RTP that SIPp's
 * {@code rtp_stream} sends (SSRC 0xca11 followed by the call's number) and SIPp's echo returns, what the
 * phones see whatever relays the media crossed: per direction the packets each phone sent and the
 * other received, duplicates, the one-way delay from the packet leaving one phone's socket to the
 * same packet (SSRC and sequence number) reaching the other's, RFC 3550 jitter at the receiver, and an
 * E-model MOS from them. Relays that pass RTP byte for byte (Hopwise, rtpengine without transcoding)
 * keep SSRC and sequence, which is what makes the match possible; a direct call shows the same packet
 * on both legs, so its delay is zero and the figure is the delay the relays add.
 *
 * <p>Several SIPp callers (comma-separated media ports) number their calls from the same SSRC each, so a
 * stream is keyed by its SSRC and the first byte of its payload, which each caller process streams a
 * value of its own for (calls.sh with {@code UACS}): on the callee's leg behind a relay the caller's
 * port is not seen, the payload is, as relays pass it unchanged and SIPp echoes it.
 *
 * <pre>
 * java -cp ... net.hopwise.voip.bench.RtpCapture probe.pcap CALLER_MEDIA_PORT[,PORT...] CALLEE_MEDIA_PORT [ACCESS_MS [PLAYOUT_MS]]
 * </pre>
 *
 * Prints one line per direction ({@code forward}: caller to callee; {@code echo}: back).
 */
public final class RtpCapture {
    private static final int SIPP_SSRC_PREFIX = 0xca11;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int LINKTYPE_LINUX_SLL = 113;
    /**
     * The jitter buffer the phones are taken to have: the relay's default media deadline
     * ({@code RelayConfig.DEFAULT_MEDIA_DEADLINE}), so that what the relay drops as late and what a phone
     * behind rtpengine would discard are judged alike.
     */
    static final double DEFAULT_PLAYOUT_MS = 100;

    /** One direction of every captured call: per SSRC, when each sequence number left and arrived. */
    static final class Direction {
        final Map<Long, long[]> sent = new HashMap<>();
        final Map<Long, long[]> arrived = new HashMap<>();
        final Map<Long, double[]> jitter = new HashMap<>();
        long duplicates;

        void leave(long ssrc, int seq, long t) {
            long[] times = sent.computeIfAbsent(ssrc, k -> new long[65536]);
            if (times[seq] == 0) {
                times[seq] = t;
            }
        }

        void arrive(long ssrc, int seq, long rtpTimestamp, long t) {
            long[] times = arrived.computeIfAbsent(ssrc, k -> new long[65536]);
            if (times[seq] != 0) {
                duplicates++;
                return;
            }
            times[seq] = t;
            // RFC 3550 A.8, in nanoseconds; state: last arrival, last RTP timestamp, jitter.
            double[] j = jitter.computeIfAbsent(ssrc, k -> new double[] {Double.NaN, 0, 0});
            if (!Double.isNaN(j[0])) {
                double transitChange = (t - j[0]) - (rtpTimestamp - j[1]) * 1e9 / 8000;
                j[2] += (Math.abs(transitChange) - j[2]) / 16;
            }
            j[0] = t;
            j[1] = rtpTimestamp;
        }

        String report(String name, double accessMs) {
            return report(name, accessMs, DEFAULT_PLAYOUT_MS);
        }

        /**
         * As {@link #report(String, double)}, and the packets that arrived but later than a phone's
         * jitter buffer of {@code playoutMs} would play them (more than that behind the stream's
         * fastest packet): a phone discards those, so they count with the lost ones in
         * {@code loss_at_playout} and its MOS, the same rule in every column whatever the relay did.
         */
        String report(String name, double accessMs, double playoutMs) {
            long sentCount = 0;
            long lost = 0;
            long late = 0;
            long playoutNanos = Math.round(playoutMs * 1e6);
            List<Long> delays = new ArrayList<>();
            for (Map.Entry<Long, long[]> e : sent.entrySet()) {
                long[] out = e.getValue();
                long[] in = arrived.getOrDefault(e.getKey(), new long[65536]);
                long fastest = Long.MAX_VALUE;
                for (int seq = 0; seq < 65536; seq++) {
                    if (out[seq] != 0 && in[seq] != 0) {
                        fastest = Math.min(fastest, in[seq] - out[seq]);
                    }
                }
                for (int seq = 0; seq < 65536; seq++) {
                    if (out[seq] == 0) {
                        continue;
                    }
                    sentCount++;
                    if (in[seq] == 0) {
                        lost++;
                    } else {
                        long delay = in[seq] - out[seq];
                        delays.add(delay);
                        if (delay - fastest > playoutNanos) {
                            late++;
                        }
                    }
                }
            }
            long[] d = delays.stream().mapToLong(Long::longValue).sorted().toArray();
            double meanUs = Arrays.stream(d).average().orElse(0) / 1e3;
            double jitterMs = jitter.values().stream().mapToDouble(j -> j[2] / 1e6).average().orElse(0);
            double lossPercent = sentCount == 0 ? 0 : 100.0 * lost / sentCount;
            double mouthToEarMs = meanUs / 1e3 + 2 * jitterMs + accessMs;
            double mos = EModel.mos(EModel.rating(EModel.G711_PLC, mouthToEarMs, lossPercent, 1));
            double playoutLossPercent = sentCount == 0 ? 0 : 100.0 * (lost + late) / sentCount;
            double playoutMos = EModel.mos(EModel.rating(EModel.G711_PLC, mouthToEarMs, playoutLossPercent, 1));
            return String.format(Locale.ROOT, "RTP %s streams=%d sent=%d received=%d lost=%d duplicates=%d"
                    + " loss=%.3f%% delay_us p50=%.1f p90=%.1f p99=%.1f max=%.1f mean=%.1f jitter_ms=%.3f"
                    + " mos=%.2f playout_ms=%.0f late_at_playout=%d loss_at_playout=%.3f%% mos_at_playout=%.2f",
                    name, sent.size(), sentCount, d.length, lost, duplicates, lossPercent,
                    percentile(d, 50), percentile(d, 90), percentile(d, 99), d.length == 0 ? 0 : d[d.length - 1] / 1e3,
                    meanUs, jitterMs, mos, playoutMs, late, playoutLossPercent, playoutMos);
        }
    }

    private RtpCapture() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: RtpCapture CAPTURE.pcap CALLER_MEDIA_PORT CALLEE_MEDIA_PORT [ACCESS_MS [PLAYOUT_MS]]");
            System.exit(2);
        }
        int[] callerPorts = CallerPorts.parse(args[1]);
        int calleePort = Integer.parseInt(args[2]);
        double accessMs = args.length > 3 ? Double.parseDouble(args[3]) : 20;
        double playoutMs = args.length > 4 ? Double.parseDouble(args[4]) : DEFAULT_PLAYOUT_MS;
        Direction forward = new Direction();
        Direction echo = new Direction();
        long[] counts = read(Path.of(args[0]), callerPorts, calleePort, forward, echo);
        System.out.printf(Locale.ROOT, "CAPTURE packets=%d rtp=%d%n", counts[0], counts[1]);
        System.out.println(forward.report("forward", accessMs, playoutMs));
        System.out.println(echo.report("echo", accessMs, playoutMs));
    }

    /** As {@link #read(Path, int[], int, Direction, Direction)} with one caller. */
    static long[] read(Path file, int callerPort, int calleePort, Direction forward, Direction echo)
            throws IOException {
        return read(file, new int[] {callerPort}, calleePort, forward, echo);
    }

    /**
     * Returns the number of captured packets and of SIPp RTP packets among them. Streams are keyed by
     * SSRC and, above it, the payload's first byte (the caller process's mark; 0 when not captured).
     */
    static long[] read(Path file, int[] callerPorts, int calleePort, Direction forward, Direction echo)
            throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        boolean nanos = magic == 0xa1b23c4d;
        if (!nanos && magic != 0xa1b2c3d4) {
            throw new IOException(file + " is not a little-endian pcap file (magic " + Integer.toHexString(magic) + ")");
        }
        int linkType = b.getInt(20);
        int linkHeader = linkType == LINKTYPE_ETHERNET ? 14 : linkType == LINKTYPE_LINUX_SLL ? 16 : -1;
        if (linkHeader < 0) {
            throw new IOException("link type " + linkType + " is not Ethernet or Linux cooked");
        }
        long packets = 0;
        long rtp = 0;
        int off = 24;
        while (off + 16 <= b.limit()) {
            long t = (b.getInt(off) & 0xffffffffL) * 1_000_000_000L
                    + (b.getInt(off + 4) & 0xffffffffL) * (nanos ? 1 : 1000);
            int captured = b.getInt(off + 8);
            int p = off + 16 + linkHeader;
            off += 16 + captured;
            if (off > b.limit()) {
                break;
            }
            packets++;
            if ((b.get(p) & 0xf0) != 0x40 || b.get(p + 9) != 17) {
                continue;
            }
            int udp = p + (b.get(p) & 0x0f) * 4;
            int rtpAt = udp + 8;
            if (rtpAt + 12 > off || (b.get(rtpAt) & 0xc0) != 0x80) {
                continue;
            }
            b.order(ByteOrder.BIG_ENDIAN);
            int src = b.getShort(udp) & 0xffff;
            int dst = b.getShort(udp + 2) & 0xffff;
            int seq = b.getShort(rtpAt + 2) & 0xffff;
            long ts = b.getInt(rtpAt + 4) & 0xffffffffL;
            long ssrc = b.getInt(rtpAt + 8) & 0xffffffffL;
            b.order(ByteOrder.LITTLE_ENDIAN);
            if ((ssrc >>> 16) != SIPP_SSRC_PREFIX) {
                continue;
            }
            rtp++;
            long mark = rtpAt + 12 < off ? b.get(rtpAt + 12) & 0xffL : 0;
            long stream = mark << 32 | ssrc;
            if (CallerPorts.contains(callerPorts, src)) {
                forward.leave(stream, seq, t);
            }
            if (dst == calleePort) {
                forward.arrive(stream, seq, ts, t);
            }
            if (src == calleePort) {
                echo.leave(stream, seq, t);
            }
            if (CallerPorts.contains(callerPorts, dst)) {
                echo.arrive(stream, seq, ts, t);
            }
        }
        return new long[] {packets, rtp};
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e3;
    }
}
