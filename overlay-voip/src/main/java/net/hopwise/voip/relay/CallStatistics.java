package net.hopwise.voip.relay;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

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
        return lowest(CallStatistics::carried, s -> s.mos(accessDelayMs));
    }

    /**
     * The E-model R of the same stream as {@link #mos} (the lowest R is the lowest MOS); 0 when no
     * stream carried media, as for the MOS.
     */
    public double rating(double accessDelayMs) {
        return lowest(CallStatistics::carried, s -> s.rating(accessDelayMs));
    }

    /** The lowest MOS over the streams whose phone reported, as the relay's figure takes the lowest; 0 without reports. */
    public double phoneMos(double accessDelayMs) {
        return lowest(CallStatistics::reported, s -> s.phoneMos(accessDelayMs));
    }

    /** The E-model R of the same stream as {@link #phoneMos}; 0 when no phone of the call reported. */
    public double phoneRating(double accessDelayMs) {
        return lowest(CallStatistics::reported, s -> s.phoneRating(accessDelayMs));
    }

    private static boolean carried(StreamStatistics s) {
        return s.toPhone().expected() > 0;
    }

    private static boolean reported(StreamStatistics s) {
        return s.phoneReport() != null;
    }

    /** The lowest {@code figure} over the streams {@code counted} takes; 0 when it takes none. */
    private double lowest(Predicate<StreamStatistics> counted, ToDoubleFunction<StreamStatistics> figure) {
        return streams.stream().filter(counted).mapToDouble(figure).min().orElse(0);
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
