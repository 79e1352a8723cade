package net.hopwise.voip.sip;

import static net.hopwise.voip.sip.SipSamples.buf;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class SipRequestsTest {
    private final SipParser parser = new SipParser();

    /** The SIPp INVITE as the relay forwards it: its own Via on top and a Route set. */
    private static String forwardedInvite() {
        return SipSamples.invite().replace("Via: SIP/2.0/UDP 127.0.0.1:5080",
                "Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKrelayA, SIP/2.0/UDP 127.0.0.1:5080")
                .replace("Max-Forwards: 70", "Route: <sip:127.0.0.1:5062;lr>\r\nMax-Forwards: 69");
    }

    private void build(Function<SipMessage, ByteBuf> make, Consumer<SipMessage> check) {
        ByteBuf in = buf(forwardedInvite());
        SipParseResult invite = parser.parseDatagram(in);
        ByteBuf out = make.apply(invite.message());
        SipParseResult r = parser.parseDatagram(out);
        try {
            assertThat(r.isMessage()).as("%s", r).isTrue();
            check.accept(r.message());
        } finally {
            r.release();
            out.release();
            invite.release();
            in.release();
        }
    }

    @Test
    void cancelMatchesTheForwardedInvitesClientTransaction() {
        build(invite -> SipRequests.cancel(invite, PooledByteBufAllocator.DEFAULT), m -> {
            assertThat(m.method()).isEqualTo("CANCEL");
            assertThat(m.requestUri()).isEqualTo("sip:service@127.0.0.1:5070");
            assertThat(m.vias()).extracting(Via::branch).containsExactly("z9hG4bKrelayA");
            assertThat(m.cseq()).isEqualTo(new CSeq(1, "CANCEL"));
            assertThat(m.fromTag()).isEqualTo("4242SIPpTag001");
            assertThat(m.toTag()).isNull();
            assertThat(m.routes()).extracting(NameAddr::uri).containsExactly("sip:127.0.0.1:5062;lr");
        });
    }

    @Test
    void ackOfAFailureTakesToFromTheResponse() {
        String busy = SipSamples.ok().replace("SIP/2.0 200 OK", "SIP/2.0 486 Busy Here");
        ByteBuf responseBytes = buf(busy);
        SipParseResult response = parser.parseDatagram(responseBytes);
        try {
            build(invite -> SipRequests.ackForFailure(invite, response.message(), PooledByteBufAllocator.DEFAULT), m -> {
                assertThat(m.method()).isEqualTo("ACK");
                assertThat(m.cseq()).isEqualTo(new CSeq(1, "ACK"));
                assertThat(m.toTag()).isEqualTo("4243SIPpTag011");
                assertThat(m.vias()).hasSize(1);
            });
        } finally {
            response.release();
            responseBytes.release();
        }
    }
}
