package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.impair.ImpairmentConfig;

/**
 * The loss-recovery figures of record (docs/benchmarks.md, "SIP relay: loss recovery and faults"):
 * SIPp calls streaming RTP each way through two relays whose overlay links are impaired, beside the
 * same calls forwarded as plain UDP across the same impairment ({@link PlainUdpForwarder}) at the same
 * time. Per condition it prints the residual loss the phones see, the thesis' model for it and the
 * E-model MOS of both columns; with several runs, each run and the median.
 *
 * <p>{@link #run} is also the suite's: {@code SippOverLossyOverlayTest} runs it per condition with fewer
 * packets and checks the outcome against the model.
 *
 * <p>Arguments: {@code --runs N} (3), {@code --seconds S} of RTP per call (15), {@code --calls C} at
 * once per column (4), {@code --seed N} (1; run r uses seed + r), {@code --only uniform|bursty|chain}
 * (all by default).
 */
public final class LossRecoveryExperiment {
    /** Gilbert model bursts: a bad state that loses every packet and lasts 2.5 packets on average. */
    static final double BURST_EXIT = 0.4;
    static final Duration LINK_DELAY = Duration.ofMillis(10);
    /** Packetisation and the access legs, which the relay does not see (as in the suite's figures). */
    static final double ACCESS_MS = 20;

    record Condition(String name, String family, double p, boolean bursty, int links) {
        ImpairmentConfig impairment() {
            ImpairmentConfig.Builder b = ImpairmentConfig.builder().delay(LINK_DELAY);
            if (bursty) {
                // Stationary loss p with lossInGood 0 and lossInBad 1: pGoodToBad / (pGoodToBad + exit) = p.
                b.gilbertElliottLoss(p * BURST_EXIT / (1 - p), BURST_EXIT, 0, 1);
            } else {
                b.bernoulliLoss(p);
            }
            return b.build();
        }

        /** The thesis' residual loss per recovering link, 2p^2 - 3p^3, compounded over the links. */
        double modelPercent() {
            double perLink = 2 * p * p - 3 * p * p * p;
            return 100 * (1 - Math.pow(1 - perLink, links));
        }

        /** What plain UDP loses across the links, with nothing recovered: 1 - (1 - p)^links. */
        double plainPercent() {
            return 100 * (1 - Math.pow(1 - p, links));
        }

        /**
         * How much wider than a binomial's the spread of the count of packets one link loses is: 1 for
         * uniform loss; for the bursty two-state chain, which steps once per packet, (1 + l) / (1 - l)
         * with l = 1 - pGoodToBad - pBadToGood its second eigenvalue (about 3.7 at 5%).
         */
        double lossCountDispersion() {
            if (!bursty) {
                return 1;
            }
            double l = 1 - p * BURST_EXIT / (1 - p) - BURST_EXIT;
            return (1 + l) / (1 - l);
        }
    }

    /**
     * One column's outcome: packets that should have reached the phones, those that did not (lost, or
     * later than the deadline: {@code late} of them), those the overlay recovered on the way (the
     * calls' own count, from the mark a resending link puts on a packet), and MOS.
     */
    record Column(long expected, long missed, long late, long recovered, double delayMs, double mos, boolean callsOk) {
        double residualPercent() {
            return expected == 0 ? 0 : 100.0 * missed / expected;
        }

        /** Packets lost on the way before any recovery: those that never came and those a resend brought. */
        long lostBeforeRecovery() {
            return missed - late + recovered;
        }

        /** @param counts per direction of a call: expected, lost, late, recovered */
        static Column of(List<long[]> counts, List<Double> delays, boolean callsOk) {
            long expected = counts.stream().mapToLong(c -> c[0]).sum();
            long late = counts.stream().mapToLong(c -> c[2]).sum();
            long missed = counts.stream().mapToLong(c -> c[1]).sum() + late;
            long recovered = counts.stream().mapToLong(c -> c[3]).sum();
            double delay = delays.stream().mapToDouble(Double::doubleValue).average().orElse(0) + ACCESS_MS;
            double loss = expected == 0 ? 0 : 100.0 * missed / expected;
            double mos = EModel.mos(EModel.rating(EModel.G711_PLC, delay, loss, 1));
            return new Column(expected, missed, late, recovered, delay, mos, callsOk);
        }
    }

    /** @param sippLogs the output of each SIPp that reported a failed call, empty when none did */
    record Outcome(Condition condition, long seed, Column overlay, Column plain, String sippLogs) {}

    static final List<Condition> CONDITIONS = List.of(
            new Condition("uniform 1%", "uniform", 0.01, false, 1),
            new Condition("uniform 5%", "uniform", 0.05, false, 1),
            new Condition("uniform 10%", "uniform", 0.10, false, 1),
            new Condition("bursty 1%", "bursty", 0.01, true, 1),
            new Condition("bursty 5%", "bursty", 0.05, true, 1),
            new Condition("bursty 10%", "bursty", 0.10, true, 1),
            new Condition("two links 5% each", "chain", 0.05, false, 2),
            new Condition("two links 5% each, bursty", "chain", 0.05, true, 2));

    private LossRecoveryExperiment() {}

    public static void main(String[] args) throws IOException {
        int runs = intArg(args, "--runs", 3);
        int seconds = intArg(args, "--seconds", 15);
        int calls = intArg(args, "--calls", 4);
        long seed = intArg(args, "--seed", 1);
        String only = stringArg(args, "--only", null);
        List<Condition> conditions = CONDITIONS.stream().filter(c -> only == null || c.family().equals(only)).toList();
        Path dir = Files.createTempDirectory("voip-loss");
        prepare(dir, seconds);
        System.out.printf(Locale.ROOT, "loss recovery: %d run(s), %d calls at once per column, %d s of RTP each way"
                + " per call, links with %d ms delay, bursts of mean %.1f packets%n", runs, calls, seconds,
                LINK_DELAY.toMillis(), 1 / BURST_EXIT);
        List<List<Outcome>> byCondition = new ArrayList<>();
        conditions.forEach(c -> byCondition.add(new ArrayList<>()));
        for (int r = 0; r < runs; r++) {
            for (int i = 0; i < conditions.size(); i++) {
                Outcome o = run(dir, conditions.get(i), seed + r, calls, seconds);
                byCondition.get(i).add(o);
                print("run " + (r + 1), o);
            }
        }
        System.out.println();
        System.out.println("| condition | model 2p^2-3p^3 | overlay residual (runs) | overlay median | overlay MOS"
                + " (median) | plain UDP residual (runs) | plain UDP median | plain UDP MOS (median) |");
        System.out.println("|---|---:|---|---:|---:|---|---:|---:|");
        for (List<Outcome> outcomes : byCondition) {
            Condition c = outcomes.get(0).condition();
            System.out.printf(Locale.ROOT, "| %s | %.2f %% | %s | %.2f %% | %.2f | %s | %.2f %% | %.2f |%n", c.name(),
                    c.modelPercent(), list(outcomes, true), median(outcomes, o -> o.overlay().residualPercent()),
                    median(outcomes, o -> o.overlay().mos()), list(outcomes, false),
                    median(outcomes, o -> o.plain().residualPercent()), median(outcomes, o -> o.plain().mos()));
        }
        // Leaks are FaultExperiment's and the suite's concern: tracking every buffer would tax the timing here.
        System.exit(0);
    }

    /** Writes the caller's A-law file and the scenarios SIPp reads from its working directory. */
    static void prepare(Path dir, int seconds) throws IOException {
        byte[] alaw = new byte[8000 * seconds];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), alaw);
        for (String scenario : List.of("uac_rtp.xml", "uas_echo.xml")) {
            try (InputStream in = LossRecoveryExperiment.class.getResourceAsStream("/sipp/" + scenario)) {
                Files.copy(in, dir.resolve(scenario), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** One condition: the overlay column and the plain UDP column at the same time. */
    static Outcome run(Path dir, Condition c, long seed, int calls, int seconds) {
        ImpairmentConfig impairment = c.impairment();
        List<RelaySites.Link> links = c.links() == 1
                ? List.of(new RelaySites.Link("a", "b", impairment))
                : List.of(new RelaySites.Link("a", "m", impairment), new RelaySites.Link("m", "b", impairment));
        int plainUasMedia = Sipp.freeMediaPort();
        try (RelaySites sites = new RelaySites(links, seed * 100, 34000);
                PlainUdpForwarder plain = new PlainUdpForwarder(
                        c.links() == 1 ? List.of(impairment) : List.of(impairment, impairment), seed,
                        new InetSocketAddress("127.0.0.1", plainUasMedia))) {
            String limit = Integer.toString(seconds + 60) + "s";
            String pause = Integer.toString(seconds * 1000 + 500);
            int overlayUas = Sipp.freeUdpPort();
            int plainUas = Sipp.freeUdpPort();
            // Both callees are SIPp's uas as built in but for a 1 s time-wait after the last BYE instead of 4 s;
            // the overlay's names its own media port in its SDP, the plain column's the forwarder's.
            String overlayUasMedia = Integer.toString(Sipp.freeMediaPort());
            Sipp uasOverlay = Sipp.start(dir, "uas-overlay", "-sf", "uas_echo.xml", "-key", "sdp_port", overlayUasMedia,
                    "-i", "127.0.0.1", "-p", Integer.toString(overlayUas), "-mi", "127.0.0.1", "-mp", overlayUasMedia,
                    "-rtp_echo", "-m", Integer.toString(calls), "-nostdin", "-timeout", limit, "-timeout_error");
            Sipp uasPlain = Sipp.start(dir, "uas-plain", "-sf", "uas_echo.xml", "-key", "sdp_port",
                    Integer.toString(plain.port()), "-i", "127.0.0.1", "-p", Integer.toString(plainUas),
                    "-mi", "127.0.0.1", "-mp", Integer.toString(plainUasMedia), "-rtp_echo",
                    "-m", Integer.toString(calls), "-nostdin", "-timeout", limit, "-timeout_error");
            Sipp uacOverlay = uac(dir, "uac-overlay", overlayUas, sites.relayA.sipAddress().getPort(), calls, pause,
                    limit);
            Sipp uacPlain = uac(dir, "uac-plain", plainUas, 0, calls, pause, limit);
            StringBuilder sippLogs = new StringBuilder();
            boolean overlayOk = completed(uacOverlay, sippLogs) & completed(uasOverlay, sippLogs);
            boolean plainOk = completed(uacPlain, sippLogs) & completed(uasPlain, sippLogs);
            try {
                // Ended calls carry the counts; the transactions that outlive them are the signalling tests' concern.
                sites.awaitCallsGone(calls);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; SIPp's overlay column " + (overlayOk
                        ? "completed its calls" : "reported a failed call") + "\n" + sippLogs, e);
            }
            plain.close();
            List<long[]> counts = new ArrayList<>();
            List<Double> delays = new ArrayList<>();
            for (StreamStatistics.Direction d : sites.deliveredToPhones()) {
                counts.add(new long[] {d.expected(), d.lost(), d.late(), d.recovered()});
                delays.add(d.meanTransitMs() + 2 * d.jitterMs());
            }
            Column overlay = Column.of(counts, delays, overlayOk);
            counts.clear();
            delays.clear();
            for (PlainUdpForwarder.Leg leg : plain.legs()) {
                for (ReceptionStats s : List.of(leg.toCallee, leg.toCaller)) {
                    counts.add(new long[] {s.expected(), s.lost(), s.late(), 0});
                    delays.add(s.meanTransitNanos() / 1e6 + 2 * s.jitterNanos() / 1e6);
                }
            }
            return new Outcome(c, seed, overlay, Column.of(counts, delays, plainOk), sippLogs.toString());
        }
    }

    /** Waits for SIPp to end; true when every call of its scenario succeeded, else its output added to logs. */
    private static boolean completed(Sipp sipp, StringBuilder logs) {
        if (sipp.await() == 0) {
            return true;
        }
        logs.append(sipp.output()).append('\n');
        return false;
    }

    private static Sipp uac(Path dir, String name, int uasPort, int proxyPort, int calls, String pause, String limit) {
        List<String> args = new ArrayList<>(List.of("127.0.0.1:" + uasPort));
        if (proxyPort != 0) {
            args.addAll(List.of("-rsa", "127.0.0.1:" + proxyPort));
        }
        args.addAll(List.of("-sf", "uac_rtp.xml", "-s", "bob", "-i", "127.0.0.1",
                "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1", "-mp", Integer.toString(Sipp.freeMediaPort()),
                "-d", pause, "-m", Integer.toString(calls), "-r", Integer.toString(calls), "-l", Integer.toString(calls),
                "-nostdin", "-timeout", limit, "-timeout_error"));
        return Sipp.start(dir, name, args.toArray(String[]::new));
    }

    static void print(String label, Outcome o) {
        System.out.printf(Locale.ROOT, "%s seed %d, %s: overlay %d/%d missed (%d late, %d recovered), residual %.2f %%, MOS %.2f"
                + " (delay %.1f ms)%s | plain UDP %d/%d missed, residual %.2f %%, MOS %.2f (delay %.1f ms)%s"
                + " | model %.2f %%%n", label,
                o.seed(), o.condition().name(), o.overlay().missed(), o.overlay().expected(), o.overlay().late(), o.overlay().recovered(),
                o.overlay().residualPercent(), o.overlay().mos(), o.overlay().delayMs(),
                o.overlay().callsOk() ? "" : " CALLS FAILED", o.plain().missed(), o.plain().expected(),
                o.plain().residualPercent(), o.plain().mos(), o.plain().delayMs(),
                o.plain().callsOk() ? "" : " CALLS FAILED", o.condition().modelPercent());
    }

    private static String list(List<Outcome> outcomes, boolean overlay) {
        StringBuilder sb = new StringBuilder();
        for (Outcome o : outcomes) {
            Column col = overlay ? o.overlay() : o.plain();
            sb.append(sb.length() == 0 ? "" : ", ")
                    .append(String.format(Locale.ROOT, "%.2f", col.residualPercent()))
                    .append(col.callsOk() ? "" : " (calls failed)");
        }
        return sb.toString();
    }

    static double median(List<Outcome> outcomes, java.util.function.ToDoubleFunction<Outcome> f) {
        double[] v = outcomes.stream().mapToDouble(f).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static int intArg(String[] args, String name, int fallback) {
        String v = stringArg(args, name, null);
        try {
            return v == null ? fallback : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " takes a whole number, got " + v, e);
        }
    }

    private static String stringArg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }
}
