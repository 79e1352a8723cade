package net.hopwise.voip.relay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
        LoadRun.Result r = LoadRun.run(dir, calls, rate, seconds);
        System.out.printf(Locale.ROOT, "load: %d calls at %d/s with %d s of RTP each way: SIPp uac exit %d, uas exit"
                + " %d (0: every call successful), %.1f s; both relays idle %.1f s after SIPp ended%n", calls, rate,
                seconds, r.uacExit(), r.uasExit(), r.sippSeconds(), r.idleSeconds());
        System.out.printf(Locale.ROOT, "calls ended at a %d, at b %d, end reasons at a %s, calls without media %d%n",
                r.endedA(), r.endedB(), r.endReasonsA(), r.callsWithoutMedia());
        System.out.printf(Locale.ROOT, "media: %d RTP packets from the caller at a, %d delivered to the callee by b,"
                + " lost %d, late %d, duplicates %d; %d echo packets delivered to the caller by a%n", r.fromCaller(),
                r.toCallee(), r.lost(), r.late(), r.duplicates(), r.echoed());
        System.out.println("relay a " + r.stateA() + " " + r.countersA());
        System.out.println("relay b " + r.stateB() + " " + r.countersB());
        if (r.uacExit() != 0 || r.uasExit() != 0) {
            System.out.println("SIPp's logs and -trace_err files are in " + dir);
            System.out.println(r.sippOutput());
        }
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
