package net.hopwise.voip.sip;

import static net.hopwise.voip.sip.SipSamples.buf;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SipResponsesTest {
    private final SipParser parser = new SipParser();

    /** Parses {@code request} (valid or not), builds the response and hands its reparsed form to {@code check}. */
    private void respond(String request, int status, String toTag, Consumer<SipMessage> check) {
        ByteBuf in = buf(request);
        SipParseResult r = parser.parseDatagram(in);
        try {
            assertThat(r.message()).as("%s", r).isNotNull();
            ByteBuf response = SipResponses.response(r.message(), status, toTag, PooledByteBufAllocator.DEFAULT);
            SipParseResult parsed = parser.parseDatagram(response);
            try {
                assertThat(parsed.isMessage()).as("%s", parsed).isTrue();
                check.accept(parsed.message());
            } finally {
                parsed.release();
                response.release();
            }
        } finally {
            r.release();
            in.release();
        }
    }

    @Test
    void aMalformedRequestIsAnsweredFromItsOwnHeaders() {
        respond(SipSamples.invite().replace("CSeq: 1 INVITE", "CSeq: 1 BYE"), 400, "relay1", m -> {
            assertThat(m.statusCode()).isEqualTo(400);
            assertThat(m.reasonPhrase()).isEqualTo("Bad Request");
            assertThat(m.topVia().branch()).isEqualTo("z9hG4bK-4242-1-0");
            assertThat(m.fromTag()).isEqualTo("4242SIPpTag001");
            assertThat(m.toTag()).isEqualTo("relay1");
            assertThat(m.callId()).isEqualTo("1-4242@127.0.0.1");
            assertThat(m.cseq()).isEqualTo(new CSeq(1, "BYE"));
            assertThat(m.bodyLength()).isZero();
            assertThat(m.contentLength()).isZero();
        });
    }

    @Test
    void trying() {
        respond(SipSamples.invite(), 100, null, m -> {
            assertThat(m.reasonPhrase()).isEqualTo("Trying");
            assertThat(m.toTag()).isNull();
            assertThat(m.indexOf(SipHeaderName.CONTACT)).isNegative();
        });
    }

    @Test
    void everyViaOfATortuousRequestIsCopiedAsWritten() {
        ByteBuf raw = TortureMessagesTest.load("wsinv");
        String wsinv = raw.toString(StandardCharsets.UTF_8);
        raw.release();
        respond(wsinv, 483, "x", m -> {
            assertThat(m.vias()).extracting(Via::branch).containsExactly("390skdjuw", "z9hG4bK9ikj8", "z9hG4bK30239");
            assertThat(m.toTag()).as("an existing To tag is kept").isEqualTo("1918181833n");
            assertThat(m.content().toString(StandardCharsets.UTF_8)).contains("Via  : SIP  /   2.0\r\n /UDP\r\n");
        });
    }

    @Test
    void withoutTheHeadersToCopyThereIsNoResponse() {
        ByteBuf in = buf(SipSamples.invite().replace("Call-ID: 1-4242@127.0.0.1\r\n", ""));
        SipParseResult r = parser.parseDatagram(in);
        try {
            assertThat(r.error()).isEqualTo(SipParseError.MISSING_HEADER);
            assertThat(SipResponses.response(r.message(), 400, "t", PooledByteBufAllocator.DEFAULT)).isNull();
        } finally {
            r.release();
            in.release();
        }
    }

    @Test
    void markReceivedFillsRportAndReceivedPerRfc3581() {
        String register = SipSamples.register();
        ByteBuf in = buf(register);
        SipParseResult r = parser.parseDatagram(in);
        ByteBuf out = SipMessageEditor.of(r.message()).markReceived("198.51.100.7", 40000).encode(PooledByteBufAllocator.DEFAULT);
        try {
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(register.replace(
                    "v: SIP/2.0/UDP 192.0.2.10:5060;rport;branch=z9hG4bKreg1",
                    "v: SIP/2.0/UDP 192.0.2.10:5060;rport=40000;branch=z9hG4bKreg1;received=198.51.100.7"));
        } finally {
            out.release();
            r.release();
            in.release();
        }
    }

    @Test
    void markReceivedLeavesASentByThatMatchesAloneApartFromNormalising() {
        String ok = SipSamples.invite();
        ByteBuf in = buf(ok);
        SipParseResult r = parser.parseDatagram(in);
        ByteBuf same = SipMessageEditor.of(r.message()).markReceived("127.0.0.1", 5080).encode(PooledByteBufAllocator.DEFAULT);
        ByteBuf moved = SipMessageEditor.of(r.message()).markReceived("203.0.113.5", 5080).encode(PooledByteBufAllocator.DEFAULT);
        try {
            assertThat(same.toString(StandardCharsets.UTF_8)).isEqualTo(ok);
            assertThat(moved.toString(StandardCharsets.UTF_8))
                    .contains("Via: SIP/2.0/UDP 127.0.0.1:5080;branch=z9hG4bK-4242-1-0;received=203.0.113.5\r\n");
        } finally {
            same.release();
            moved.release();
            r.release();
            in.release();
        }
    }
}
