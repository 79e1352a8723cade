package net.hopwise.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's account of the messages it lost: how lossy the lossy link was (as configured, as
 * counted, as the hellos estimated it), and per kind of message how many were sent, delivered and
 * lost, with the reason each kind loses what it loses.
 */
final class LossSummary {
    /**
     * One direction of the lossy link: datagrams one end sent on it and the other end received, and
     * the loss the sender's hellos learnt of (the receiver's estimate over its last loss events).
     */
    record Direction(String from, String to, long packetsSent, long packetsReceived, double helloEstimate) {
        long lost() {
            return Math.max(0, packetsSent - packetsReceived);
        }

        double lossRate() {
            return packetsSent == 0 ? 0 : (double) lost() / packetsSent;
        }
    }

    /** Messages of one kind: sent (taken by the node), delivered, and delivered too late to be of use. */
    record Tally(long sent, long delivered, long late) {
        long lost() {
            return Math.max(0, sent - delivered);
        }

        double lossRate() {
            return sent == 0 ? 0 : (double) lost() / sent;
        }
    }

    /** How the overlay repaired losses on the lossy link. */
    record Recovery(long reliableLinkRetransmissions, long reliableLinkProbes, long sessionResends,
            long realTimeRequests, long realTimeRecovered) {}

    private LossSummary() {}

    /**
     * The summary's lines.
     *
     * @param link the lossy link's two ends, as "a-c"
     * @param configuredLoss the loss each direction of it was given
     * @param directions what each direction dropped
     * @param bestEffortAcross best-effort messages whose route crossed the lossy link
     * @param bestEffortElsewhere best-effort messages on routes that did not
     * @param refused best-effort sends the node refused (no route yet while the overlay formed)
     * @param reliable messages of the reliable session over the lossy link
     * @param realTime packets of the real-time flow over the lossy link
     */
    static List<String> lines(String link, double configuredLoss, List<Direction> directions, Tally bestEffortAcross,
            Tally bestEffortElsewhere, long refused, Tally reliable, Tally realTime, Recovery recovery) {
        List<String> out = new ArrayList<>();
        out.add("Lossy link " + link + ": configured " + percent(configuredLoss) + " loss each way");
        for (Direction d : directions) {
            out.add(String.format(Locale.ROOT, "  %s -> %s: %d of %d packets lost (%s); hello estimate %s",
                    d.from(), d.to(), d.lost(), d.packetsSent(), percent(d.lossRate()), percent(d.helloEstimate())));
        }
        out.add(String.format(Locale.ROOT, "  %-34s %8s %10s %6s %8s %7s", "messages", "sent", "delivered", "late",
                "lost", "loss"));
        row(out, "best effort, route across " + link, bestEffortAcross, bestEffortAcross.sent() == 0
                ? "no route crossed the lossy link"
                : "best effort is never resent, by design: what the link drops stays lost (expect about "
                        + percent(configuredLoss) + ")");
        row(out, "best effort, other routes", bestEffortElsewhere, bestEffortElsewhere.lost() == 0
                ? "routes without the lossy link lose nothing"
                : "lost without crossing the lossy link: in flight on a route that changed, or dropped by a node");
        if (refused > 0) {
            out.add("    (" + refused + " best-effort sends refused before routes existed: never sent, not counted)");
        }
        row(out, "reliable session over " + link, reliable, reliable.lost() == 0
                ? "none lost: the link repaired its losses hop by hop (" + recovery.reliableLinkRetransmissions()
                        + " packets resent, " + recovery.reliableLinkProbes() + " lone last packets sent twice at once)"
                        + (recovery.sessionResends() == 0 ? "" : ", the session resent " + recovery.sessionResends()
                                + " end to end")
                : reliable.lost() + " still on their way when the demo stopped: reliable messages are resent until"
                        + " they arrive");
        row(out, "real-time flow over " + link, realTime, realTime.sent() == 0
                ? "no packets sent"
                : "residual after recovery: " + recovery.realTimeRecovered() + " losses repaired in time after "
                        + recovery.realTimeRequests() + " requests (one per gap); a packet whose request or repair is"
                        + " lost too stays lost (expect about " + percent(residual(configuredLoss)) + ")");
        return out;
    }

    private static void row(List<String> out, String kind, Tally t, String why) {
        out.add(String.format(Locale.ROOT, "  %-34s %8d %10d %6d %8d %7s", kind, t.sent(), t.delivered(), t.late(),
                t.lost(), t.sent() == 0 ? "-" : percent(t.lossRate())));
        out.add("    why: " + why);
    }

    /** A loss repaired by one request and one resend across the same lossy link, both of which may be lost. */
    static double residual(double loss) {
        return loss * (1 - (1 - loss) * (1 - loss));
    }

    static String percent(double rate) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * rate);
    }
}
