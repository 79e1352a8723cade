package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** The round-trip reader takes any bytes a phone or the far side sends, and never makes a negative round trip. */
class RtcpRoundTripProperties {
    @Property(tries = 2000)
    void anyBytesEitherWayAreReadWithoutFailureOrANegativeRoundTrip(@ForAll @Size(max = 120) byte[] out,
            @ForAll @Size(max = 120) byte[] back, @ForAll boolean rtcpVersion, @ForAll long dt) {
        if (rtcpVersion && out.length > 0) {
            out[0] = (byte) (0x80 | (out[0] & 0x3f));
        }
        if (rtcpVersion && back.length > 0) {
            back[0] = (byte) (0x80 | (back[0] & 0x3f));
        }
        RtcpRoundTrip rtt = new RtcpRoundTrip();
        ByteBuf a = Unpooled.wrappedBuffer(out);
        ByteBuf b = Unpooled.wrappedBuffer(back);
        rtt.passedOut(a, 1_000_000_000L);
        rtt.cameBack(b, 1_000_000_000L + (dt & 0xffffffffL));
        assertThat(rtt.lastMs() == -1 || rtt.lastMs() >= 0).isTrue();
        // Only read: the relay forwards the packets as they were.
        assertThat(a.readerIndex()).isZero();
        assertThat(b.readerIndex()).isZero();
    }
}
