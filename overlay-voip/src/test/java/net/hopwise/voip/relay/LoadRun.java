package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.hopwise.overlay.impair.ImpairmentConfig;

/**
 * SIPp calls streaming RTP each way through two relays at a steady rate: SIPp's uac ({@code uac_rtp.xml},
 * {@code seconds} of A-law, BYE half a second after) behind relay a, its uas echoing the RTP
 * ({@code uas_echo.xml}, {@code -rtp_echo}) behind relay b. Run by {@code SippLoadTest} and, for the
 * figures of record, {@code FaultExperiment load}.
 */
final class LoadRun {
    private LoadRun() {}

    /**
     * What a load run left.
     *
     * @param uacExit SIPp uac's exit code: 0 when every call succeeded
     * @param uasExit SIPp uas's exit code
     * @param sippSeconds from the start until both SIPp ended
     * @param idleSeconds from SIPp's end until both relays held nothing
     * @param fromCaller RTP packets relay a received from the caller, over the ended calls
     * @param toCallee RTP packets relay b delivered to the callee
     * @param echoed echo packets relay a delivered back to the caller
     * @param lost packets towards the callee that never came, over relay b's calls
     * @param late packets towards the callee past the deadline
     * @param duplicates duplicate packets towards the callee
     * @param callsWithoutMedia calls, at either relay, that delivered no packet to their phone
     * @param endReasonsA relay a's ended calls by end reason
     */
    record Result(int calls, int uacExit, int uasExit, double sippSeconds, double idleSeconds, int endedA, int endedB,
            long fromCaller, long toCallee, long echoed, long lost, long late, long duplicates, int callsWithoutMedia,
            Map<String, Integer> endReasonsA, RelayState stateA, RelayState stateB, Map<String, Long> countersA,
            Map<String, Long> countersB, String sippOutput, Path logs) {
    }

    static Result run(Path dir, int calls, int rate, int seconds) throws IOException {
        byte[] alaw = new byte[8000 * seconds];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), alaw);
        for (String scenario : List.of("uac_rtp.xml", "uas_echo.xml")) {
            try (InputStream in = LoadRun.class.getResourceAsStream("/sipp/" + scenario)) {
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
            sites.awaitIdle(calls);
            long idle = System.nanoTime();
            long fromCaller = 0;
            long echoed = 0;
            int withoutMedia = 0;
            for (CallStatistics c : sites.endedA) {
                StreamStatistics s = c.streams().get(0);
                fromCaller += s.fromPhone().received();
                echoed += s.deliveredToPhone();
                withoutMedia += s.deliveredToPhone() == 0 ? 1 : 0;
            }
            long toCallee = 0;
            long lost = 0;
            long late = 0;
            long duplicates = 0;
            for (CallStatistics c : sites.endedB) {
                StreamStatistics s = c.streams().get(0);
                toCallee += s.deliveredToPhone();
                lost += s.toPhone().lost();
                late += s.toPhone().late();
                duplicates += s.toPhone().duplicates();
                withoutMedia += s.deliveredToPhone() == 0 ? 1 : 0;
            }
            Map<String, Integer> endReasons = new TreeMap<>();
            sites.endedA.forEach(c -> endReasons.merge(c.endReason(), 1, Integer::sum));
            return new Result(calls, uacExit, uasExit, (sippDone - started) / 1e9, (idle - sippDone) / 1e9,
                    sites.endedA.size(), sites.endedB.size(), fromCaller, toCallee, echoed, lost, late, duplicates,
                    withoutMedia, endReasons, sites.relayA.state(), sites.relayB.state(),
                    nonZero(sites.relayA.counters()), nonZero(sites.relayB.counters()),
                    uacExit != 0 || uasExit != 0 ? uac.output() : "", dir);
        }
    }

    private static Map<String, Long> nonZero(Map<String, Long> counters) {
        Map<String, Long> out = new TreeMap<>(counters);
        out.values().removeIf(v -> v == 0);
        return out;
    }
}
