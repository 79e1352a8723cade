package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.testing.Eventually;
import net.hopwise.overlay.testing.LeakDetection;

/**
 * The fault and load figures of record (docs/benchmarks.md, "SIP relay: loss recovery and faults"),
 * with Netty's leak detector at PARANOID throughout (every buffer tracked, with its last accesses), unless
 * {@code -Dio.netty.leakDetection.level} names another level.
 *
 * <ul>
 *   <li>{@code link-kill [--runs 3] [--seconds 6]}: {@link LinkFailureRun} again and again; the media
 *       gap against the hello dead interval.</li>
 *   <li>{@code load [--calls 1000] [--rate 20] [--seconds 1]}: SIPp calls streaming RTP each way through
 *       two relays at a steady rate; every call must complete, and both relays must end idle with
 *       nothing dropped.</li>
 * </ul>
 */
public final class FaultExperiment {
    private FaultExperiment() {}

    public static void main(String[] args) throws IOException {
        System.setProperty("io.netty.leakDetection.level", System.getProperty("io.netty.leakDetection.level", "paranoid"));
        LeakDetection.install();
        String mode = args.length == 0 ? "link-kill" : args[0];
        Path dir = Files.createTempDirectory("voip-faults");
        switch (mode) {
            case "link-kill" -> linkKill(dir, intArg(args, "--runs", 3), intArg(args, "--seconds", 6));
            case "load" -> load(dir, intArg(args, "--calls", 1000), intArg(args, "--rate", 20),
                    intArg(args, "--seconds", 1));
            default -> throw new IllegalArgumentException("mode is link-kill or load, got " + mode);
        }
        LeakDetection.assertNoLeaks();
        System.out.println("no Netty buffer leak (" + io.netty.util.ResourceLeakDetector.getLevel() + ", every buffer tracked)");
        System.exit(0);
    }

    private static void linkKill(Path dir, int runs, int seconds) throws IOException {
        List<Double> gaps = new ArrayList<>();
        LinkFailureRun.Result last = null;
        for (int r = 1; r <= runs; r++) {
            LinkFailureRun.Result res = LinkFailureRun.run(dir, 100L * r, seconds);
            last = res;
            gaps.add(res.gapMs());
            System.out.printf(Locale.ROOT, "run %d: gap %.0f ms (%d packets missing at the callee, %d at the caller),"
                    + " %d packets after the kill, SIPp %s, path after %s, relay counters moved %s%n", r, res.gapMs(),
                    res.callerToCallee(), res.calleeToCaller(), res.receivedAfterKill(),
                    res.sippOk() ? "completed" : "FAILED", res.pathAfter(), res.signallingAfterKill());
        }
        double[] sorted = gaps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        System.out.printf(Locale.ROOT, "link kill: gaps %s ms, median %.0f ms; hello dead interval %.0f ms, one flood"
                + " %.0f ms%n", gaps, sorted[sorted.length / 2], last.deadIntervalMs(), last.floodMs());
    }

    private static void load(Path dir, int calls, int rate, int seconds) throws IOException {
        byte[] alaw = new byte[8000 * seconds];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), alaw);
        for (String scenario : List.of("uac_rtp.xml", "uas_echo.xml")) {
            try (InputStream in = FaultExperiment.class.getResourceAsStream("/sipp/" + scenario)) {
                Files.copy(in, dir.resolve(scenario), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        long started = System.nanoTime();
        // RelaySites' relays keep RFC 3261's T1: SIPp's uas aborts a call when a retransmitted INVITE
        // reaches it after its 200, which a 50 ms T1 provoked whenever SIPp was slow to answer.
        try (RelaySites sites = new RelaySites(List.of(new RelaySites.Link("a", "b", ImpairmentConfig.none())), 7,
                39000, b -> b)) {
            int uasPort = Sipp.freeUdpPort();
            String uasMedia = Integer.toString(Sipp.freeMediaPort());
            String limit = (calls / rate + 120) + "s";
            Sipp uas = Sipp.start(dir, "uas-load", "-sf", "uas_echo.xml", "-key", "sdp_port", uasMedia, "-i",
                    "127.0.0.1", "-p", Integer.toString(uasPort), "-mi", "127.0.0.1", "-mp", uasMedia, "-rtp_echo",
                    "-m", Integer.toString(calls), "-nostdin", "-timeout", limit, "-timeout_error", "-trace_err");
            Sipp uac = Sipp.start(dir, "uac-load", "127.0.0.1:" + uasPort, "-rsa",
                    "127.0.0.1:" + sites.relayA.sipAddress().getPort(), "-sf", "uac_rtp.xml", "-s", "bob", "-i",
                    "127.0.0.1", "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1",
                    "-mp", Integer.toString(Sipp.freeMediaPort()), "-d", Integer.toString(seconds * 1000 + 500),
                    "-m", Integer.toString(calls), "-r", Integer.toString(rate), "-l", "200", "-nostdin",
                    "-timeout", limit, "-timeout_error", "-trace_err");
            int uacExit = uac.awaitFor(calls / rate + 180);
            int uasExit = uas.awaitFor(60);
            long sippDone = System.nanoTime();
            awaitIdle(sites);
            long idle = System.nanoTime();
            long[] media = new long[7];
            for (CallStatistics c : sites.endedA) {
                StreamStatistics s = c.streams().get(0);
                media[0] += s.fromPhone().received();
                media[2] += s.deliveredToPhone();
            }
            for (CallStatistics c : sites.endedB) {
                StreamStatistics s = c.streams().get(0);
                media[1] += s.deliveredToPhone();
                media[3] += s.toPhone().lost();
                media[4] += s.toPhone().late();
                media[5] += s.toPhone().duplicates();
            }
            Map<String, String> endReasons = new TreeMap<>();
            sites.endedA.forEach(c -> endReasons.merge(c.endReason(), "1", (x, y) -> Integer.toString(
                    Integer.parseInt(x) + 1)));
            System.out.printf(Locale.ROOT, "load: %d calls at %d/s with %d s of RTP each way: SIPp uac exit %d, uas exit"
                    + " %d (0: every call successful), %.1f s; both relays idle %.1f s after SIPp ended%n", calls, rate,
                    seconds, uacExit, uasExit, (sippDone - started) / 1e9, (idle - sippDone) / 1e9);
            System.out.printf(Locale.ROOT, "calls ended at a %d, at b %d, end reasons at a %s%n", sites.endedA.size(),
                    sites.endedB.size(), endReasons);
            System.out.printf(Locale.ROOT, "media: %d RTP packets from the caller at a, %d delivered to the callee by b,"
                    + " lost %d, late %d, duplicates %d; %d echo packets delivered to the caller by a%n", media[0],
                    media[1], media[3], media[4], media[5], media[2]);
            System.out.println("relay a " + sites.relayA.state() + " " + nonZero(sites.relayA.counters()));
            System.out.println("relay b " + sites.relayB.state() + " " + nonZero(sites.relayB.counters()));
            if (uacExit != 0 || uasExit != 0) {
                System.out.println("SIPp's logs and -trace_err files are in " + dir);
                System.out.println(uac.output());
            }
        }
    }

    private static void awaitIdle(RelaySites sites) {
        // Eventually gives up after 30 s; transactions live 64 T1 = 32 s after the last call.
        for (int i = 0; ; i++) {
            try {
                Eventually.await("both relays idle", () -> sites.relayA.state().idle() && sites.relayB.state().idle());
                return;
            } catch (AssertionError e) {
                if (i == 2) {
                    throw e;
                }
            }
        }
    }

    private static Map<String, Long> nonZero(Map<String, Long> counters) {
        Map<String, Long> out = new TreeMap<>(counters);
        out.values().removeIf(v -> v == 0);
        return out;
    }

    private static int intArg(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
