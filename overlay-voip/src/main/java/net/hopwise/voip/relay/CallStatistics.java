package net.hopwise.voip.relay;

import java.util.List;

/**
 * A call as one relay sees it, at one instant: what an admin list and detail view show.
 *
 * @param state SETUP (INVITE not yet answered with 2xx), CONFIRMED, or ENDED (lingering)
 * @param caller where the INVITE came from (a phone's address or another relay's node)
 * @param callee where it went
 * @param durationMs time since the INVITE reached this relay (until the end for an ended call)
 * @param endReason why it ended ("bye", "rejected 486", "cancelled", "media timeout"...), or null
 */
public record CallStatistics(String callId, String from, String to, String state, String caller, String callee,
        long durationMs, String endReason, List<StreamStatistics> streams) {

    /** The lowest estimated MOS over the call's streams towards the phone; 0 when no stream carried media. */
    public double mos(double accessDelayMs) {
        double worst = 0;
        for (StreamStatistics s : streams) {
            if (s.toPhone().expected() > 0) {
                double m = s.mos(accessDelayMs);
                worst = worst == 0 ? m : Math.min(worst, m);
            }
        }
        return worst;
    }
}
