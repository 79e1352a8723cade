package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;

/**
 * A link killed mid-call: relays a and b joined by a direct link and by a second path through node
 * m (20 ms longer, so the direct link carries the call); one SIPp call streams RTP each way; once the
 * callee has received half a second of it, the direct link loses everything in both directions. The nodes
 * find the link dead after the hello dead interval and route the call's flows through m; the phones
 * see a gap in the media and nothing else. The gap is read from the relays' loss counts (20 ms per
 * missing packet), per direction.
 */
final class LinkFailureRun {
    /** RTP packetisation of SIPp's A-law stream. */
    static final double PACKET_MS = 20;
    /** Each link of the second path, a - m - b. */
    static final Duration DETOUR_LINK_DELAY = Duration.ofMillis(10);

    /**
     * @param callerToCallee missing packets at the callee's relay
     * @param calleeToCaller missing packets at the caller's relay
     * @param receivedAfterKill packets the callee's relay took from the overlay after the kill
     * @param sippOk both SIPp processes exited 0 (every call completed, no unexpected message)
     * @param pathAfter the caller's node's path to b once the call ended
     * @param signallingAfterKill relay counters that a SIP message towards a phone would move, as
     *     their change from the kill to the call's end, caller's relay then callee's
     * @param deadIntervalMs the nodes' hello dead interval: silence this long takes a link down
     * @param floodMs one flood: the longest from the link going down to every node on the second path
     *     routing by it (see {@link #oneFloodMs})
     */
    record Result(long callerToCallee, long calleeToCaller, long receivedAfterKill, boolean sippOk,
            List<String> pathAfter, Map<String, Long> signallingAfterKill, String sippOutput, double deadIntervalMs,
            double floodMs) {
        double gapMs() {
            return Math.max(callerToCallee, calleeToCaller) * PACKET_MS;
        }

        /**
         * The gap media may show: the dead interval plus one flood, plus one packet, since the gap is
         * counted in whole 20 ms packets and the packet on the wire when the link dies is lost with it.
         */
        double gapBoundMs() {
            return deadIntervalMs + floodMs + PACKET_MS;
        }
    }

    private LinkFailureRun() {}

    static Result run(Path dir, long seed, int seconds) throws IOException {
        byte[] alaw = new byte[8000 * seconds];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), alaw);
        for (String scenario : List.of("uac_rtp.xml", "uas_echo.xml")) {
            try (InputStream in = LinkFailureRun.class.getResourceAsStream("/sipp/" + scenario)) {
                Files.copy(in, dir.resolve(scenario), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        ImpairmentConfig slow = ImpairmentConfig.builder().delay(DETOUR_LINK_DELAY).build();
        List<RelaySites.Link> links = List.of(new RelaySites.Link("a", "b", ImpairmentConfig.none()),
                new RelaySites.Link("a", "m", slow), new RelaySites.Link("m", "b", slow));
        try (RelaySites sites = new RelaySites(links, seed, 36000)) {
            Eventually.await("the call's path is the direct link", () -> !sites.node("a")
                    .path("b", RoutingMetric.EXPECTED_LATENCY).contains(sites.node("m").id()));
            int uasPort = Sipp.freeUdpPort();
            String limit = (seconds + 60) + "s";
            String uasMedia = Integer.toString(Sipp.freeMediaPort());
            Sipp uas = Sipp.start(dir, "uas-kill", "-sf", "uas_echo.xml", "-key", "sdp_port", uasMedia, "-i", "127.0.0.1",
                    "-p", Integer.toString(uasPort), "-mi", "127.0.0.1", "-mp", uasMedia, "-rtp_echo", "-m", "1",
                    "-nostdin", "-timeout", limit, "-timeout_error");
            try {
                Sipp uac = Sipp.start(dir, "uac-kill", "127.0.0.1:" + uasPort, "-rsa",
                        "127.0.0.1:" + sites.relayA.sipAddress().getPort(), "-sf", "uac_rtp.xml", "-s", "bob",
                        "-i", "127.0.0.1", "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "127.0.0.1",
                        "-mp", Integer.toString(Sipp.freeMediaPort()), "-d", Integer.toString(seconds * 1000 + 500),
                        "-m", "1", "-nostdin", "-timeout", limit, "-timeout_error");
                Eventually.await("half a second of media at the callee", () -> received(sites.relayB) >= 25);
                Map<String, Long> beforeA = sites.relayA.counters();
                Map<String, Long> beforeB = sites.relayB.counters();
                long atKill = received(sites.relayB);
                sites.impair("a", "b", ImpairmentConfig.builder().bernoulliLoss(1.0).build());
                boolean ok = uac.await() == 0 & uas.await() == 0;
                sites.awaitCallsGone(1);
                StreamStatistics.Direction atB = sites.endedB.get(0).streams().get(0).toPhone();
                StreamStatistics.Direction atA = sites.endedA.get(0).streams().get(0).toPhone();
                Map<String, Long> moved = new java.util.LinkedHashMap<>();
                for (String counter : List.of("retransmissionsSent", "transactionTimeouts", "unknownDialog",
                        "nodeSendFailures", "requestsFromPhones", "responsesFromPhones")) {
                    moved.put("a." + counter, sites.relayA.counters().get(counter) - beforeA.get(counter));
                    moved.put("b." + counter, sites.relayB.counters().get(counter) - beforeB.get(counter));
                }
                List<String> path = sites.node("a").path("b", RoutingMetric.EXPECTED_LATENCY).stream()
                        .map(id -> sites.nodes.values().stream().filter(n -> n.id().equals(id)).findFirst()
                                .map(n -> n.name()).orElse(id.toString())).toList();
                return new Result(atB.lost() + atB.late(), atA.lost() + atA.late(), atB.received() - atKill, ok, path,
                        moved, uac.output(), sites.node("a").config().hello().deadInterval().toNanos() / 1e6,
                        oneFloodMs(sites.node("a").config().routing()));
            } finally {
                uas.kill();
            }
        }
    }

    /**
     * One flood on this overlay: the link-state update leaves within the flood pacing interval, crosses
     * at most the two links of the second path, and each node routes by it within the minimum
     * recompute interval (which also holds back the two ends' own reroute).
     */
    static double oneFloodMs(RoutingConfig routing) {
        return (routing.floodPacingInterval().toNanos() + 2 * DETOUR_LINK_DELAY.toNanos()
                + routing.minRecomputeInterval().toNanos()) / 1e6;
    }

    private static long received(SipRelay relay) {
        return relay.calls().stream().filter(c -> !c.streams().isEmpty())
                .mapToLong(c -> c.streams().get(0).toPhone().received()).sum();
    }
}
