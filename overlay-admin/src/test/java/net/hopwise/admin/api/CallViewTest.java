package net.hopwise.admin.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.hopwise.voip.relay.CallStatistics;
import net.hopwise.voip.relay.StreamStatistics;
import org.junit.jupiter.api.Test;

/** The call as GET /api/calls shows it: its E-model R and MOS, and the phones' round trip from their RTCP timing. */
class CallViewTest {
    private static final StreamStatistics.Direction NONE = new StreamStatistics.Direction(0, 0, 0, 0, 0, 0, 0, 0, 0);

    private static StreamStatistics stream(int index, double accessRttMs, double farRttMs) {
        return new StreamStatistics(index, 30000 + 2 * index, 5000 + index, null, null, "b", 6000, false, NONE, NONE,
                0, 0, null, accessRttMs, farRttMs);
    }

    private static CallStatistics call(StreamStatistics... streams) {
        return new CallStatistics("c1", "sip:a@x", "sip:b@y", "CONFIRMED", "a", "b", 1000, 0, null, List.of(streams));
    }

    @Test
    void thePhonesRoundTripIsTheAccessAndFarPartsOfTheLongestStream() {
        CallsController.CallView view = CallsController.CallView.of(call(stream(0, 3.04, 40.0), stream(1, 2.0, 80.36)), 0);
        assertThat(view.phoneRttMs()).isEqualTo(82.4);
    }

    @Test
    void theRatingIsTheWorstStreamsRBesideItsMos() {
        StreamStatistics.Direction clean = new StreamStatistics.Direction(100, 100, 0, 0, 0, 0, 0, 1.0, 10.0);
        StreamStatistics.Direction lossy = new StreamStatistics.Direction(95, 100, 5, 0, 0, 0, 0, 1.0, 10.0);
        StreamStatistics good = new StreamStatistics(0, 30000, 5000, null, null, "b", 6000, false, NONE, clean, 0, 0,
                null, -1, -1);
        StreamStatistics bad = new StreamStatistics(1, 30002, 5001, null, null, "b", 6001, false, NONE, lossy, 0, 0,
                null, -1, -1);
        CallsController.CallView view = CallsController.CallView.of(call(good, bad), 20);
        assertThat(view.rating()).isEqualTo(Math.round(bad.rating(20) * 100) / 100.0).isLessThan(good.rating(20));
        assertThat(view.mos()).isEqualTo(Math.round(net.hopwise.voip.relay.EModel.mos(bad.rating(20)) * 100) / 100.0);
        // No phone reported, and a call without media has neither figure.
        assertThat(view.phoneRating()).isZero();
        assertThat(CallsController.CallView.of(call(stream(0, -1, -1)), 20).rating()).isZero();
    }

    @Test
    void withoutReportsBothWaysThereIsNoRoundTrip() {
        assertThat(CallsController.CallView.of(call(stream(0, 3.0, -1)), 0).phoneRttMs()).isEqualTo(-1);
        assertThat(CallsController.CallView.of(call(stream(0, -1, 40)), 0).phoneRttMs()).isEqualTo(-1);
        assertThat(CallsController.CallView.of(call(), 0).phoneRttMs()).isEqualTo(-1);
        // One stream with a round trip is enough.
        assertThat(CallsController.CallView.of(call(stream(0, -1, 40), stream(1, 1.0, 9.0)), 0).phoneRttMs())
                .isEqualTo(10.0);
    }
}
