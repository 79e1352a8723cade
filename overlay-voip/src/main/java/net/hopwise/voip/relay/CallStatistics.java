package net.hopwise.voip.relay;

import java.util.List;

/**
 * A call as one relay sees it, at one instant: what an admin list and detail view show, and what its
 * record at the end holds.
 *
 * @param state SETUP (INVITE not yet answered with 2xx), CONFIRMED, or ENDED (lingering)
 * @param caller where the INVITE came from (a phone's address or another relay's node)
 * @param callee where it went
 * @param durationMs time since the INVITE reached this relay (until the end for an ended call)
 * @param sinceEndMs time from the call's end to this instant, 0 while it has not ended: with the
 *     duration, what places the call on a wall clock read at the same instant
 * @param endReason why it ended ("bye", "rejected 486", "cancelled", "media timeout"...), or null
 */
public record CallStatistics(String callId, String from, String to, String state, String caller, String callee,
        long durationMs, long sinceEndMs, String endReason, List<StreamStatistics> streams) {

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

    /**
     * The E-model R of the same stream as {@link #mos} (the lowest R is the lowest MOS); 0 when no
     * stream carried media, as for the MOS.
     */
    public double rating(double accessDelayMs) {
        double worst = 0;
        boolean any = false;
        for (StreamStatistics s : streams) {
            if (s.toPhone().expected() > 0) {
                double r = s.rating(accessDelayMs);
                worst = any ? Math.min(worst, r) : r;
                any = true;
            }
        }
        return worst;
    }

    /** The lowest MOS over the streams whose phone reported, as the relay's figure takes the lowest; 0 without reports. */
    public double phoneMos(double accessDelayMs) {
        double worst = 0;
        for (StreamStatistics s : streams) {
            double m = s.phoneMos(accessDelayMs);
            if (m > 0) {
                worst = worst == 0 ? m : Math.min(worst, m);
            }
        }
        return worst;
    }

    /** The E-model R of the same stream as {@link #phoneMos}; 0 when no phone of the call reported. */
    public double phoneRating(double accessDelayMs) {
        double worst = 0;
        boolean any = false;
        for (StreamStatistics s : streams) {
            if (s.phoneReport() != null) {
                double r = s.phoneRating(accessDelayMs);
                worst = any ? Math.min(worst, r) : r;
                any = true;
            }
        }
        return worst;
    }

    /**
     * The longest phones' round trip over the streams that have one, as the call's MOS takes its worst
     * stream; -1 when none has. To a tenth of a millisecond: RTCP's own resolution is 1/65536 s.
     */
    public double phoneRttMs() {
        double longest = -1;
        for (StreamStatistics s : streams) {
            longest = Math.max(longest, s.phoneRttMs());
        }
        return longest < 0 ? -1 : Math.round(longest * 10) / 10.0;
    }
}
