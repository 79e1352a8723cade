package net.hopwise.voip.sip;

import static net.hopwise.voip.sip.SipSamples.buf;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SipParserTest {
    private final SipParser parser = new SipParser();

    private void parsed(String text, Consumer<SipMessage> check) {
        ByteBuf in = buf(text);
        SipParseResult r = parser.parseDatagram(in);
        try {
            assertThat(r.kind()).as("%s", r).isEqualTo(SipParseResult.Kind.MESSAGE);
            check.accept(r.message());
        } finally {
            r.release();
            in.release();
        }
        assertThat(in.refCnt()).isZero();
        assertThat(parser.faults()).isZero();
    }

    private SipParseError error(String text) {
        ByteBuf in = buf(text);
        SipParseResult r = parser.parseDatagram(in);
        r.release();
        in.release();
        assertThat(in.refCnt()).isZero();
        assertThat(r.kind()).as("%s", r).isEqualTo(SipParseResult.Kind.ERROR);
        return r.error();
    }

    @Test
    void readsTheFieldsARelayNeedsFromAnInvite() {
        parsed(SipSamples.invite(), m -> {
            assertThat(m.isRequest()).isTrue();
            assertThat(m.method()).isEqualTo("INVITE");
            assertThat(m.requestUri()).isEqualTo("sip:service@127.0.0.1:5070");
            assertThat(m.callId()).isEqualTo("1-4242@127.0.0.1");
            assertThat(m.cseq()).isEqualTo(new CSeq(1, "INVITE"));
            assertThat(m.fromTag()).isEqualTo("4242SIPpTag001");
            assertThat(m.toTag()).isNull();
            assertThat(m.to().uri()).isEqualTo("sip:service@127.0.0.1:5070");
            assertThat(m.to().displayName()).isEqualTo("service");
            assertThat(m.topVia().branch()).isEqualTo("z9hG4bK-4242-1-0");
            assertThat(m.topVia().host()).isEqualTo("127.0.0.1");
            assertThat(m.topVia().port()).isEqualTo(5080);
            assertThat(m.topVia().hasRfc3261Branch()).isTrue();
            assertThat(m.maxForwards()).isEqualTo(70);
            assertThat(m.contentType()).isEqualTo("application/sdp");
            assertThat(m.contentLength()).isEqualTo(SipSamples.SDP.length());
            assertThat(m.contactUri()).isEqualTo("sip:sipp@127.0.0.1:5080");
            assertThat(SipSamples.text(m.body())).isEqualTo(SipSamples.SDP);
            assertThat(m.header("subject")).isEqualTo("Performance Test");
            assertThat(m.header("s")).isEqualTo("Performance Test");
        });
    }

    @Test
    void readsAResponseWithViasRouteAndTags() {
        parsed(SipSamples.ok(), m -> {
            assertThat(m.isRequest()).isFalse();
            assertThat(m.statusCode()).isEqualTo(200);
            assertThat(m.reasonPhrase()).isEqualTo("OK");
            assertThat(m.vias()).hasSize(2);
            assertThat(m.topVia().received()).isEqualTo("127.0.0.1");
            assertThat(m.topVia().rport()).isEqualTo(5060);
            assertThat(m.toTag()).isEqualTo("4243SIPpTag011");
            assertThat(m.recordRoutes()).extracting(NameAddr::uri).containsExactly("sip:127.0.0.1:5060;lr");
            assertThat(m.contactUri()).isEqualTo("sip:127.0.0.1:5070;transport=UDP");
        });
    }

    @Test
    void understandsCompactFormsAndAnEmptyRport() {
        parsed(SipSamples.register(), m -> {
            assertThat(m.callId()).isEqualTo("1j9FpLxk3uxtm8tn@192.0.2.10");
            assertThat(m.topVia().hasRport()).isTrue();
            assertThat(m.topVia().rport()).isEqualTo(-1);
            assertThat(m.fromTag()).isEqualTo("a73kszlfl");
            assertThat(m.contacts()).singleElement().satisfies(c -> {
                assertThat(c.uri()).isEqualTo("sip:alice@192.0.2.10:5060;ob");
                assertThat(c.params()).containsEntry("reg-id", "1");
            });
            assertThat(m.contentLength()).isZero();
            assertThat(m.bodyLength()).isZero();
        });
    }

    @Test
    void splitsCommaListsAndUnfoldsContinuationLines() {
        String text = SipSamples.register().replace("Expires: 3600\r\n",
                "Expires: 3600\r\nRoute: <sip:a.example;lr>,\r\n <sip:b.example;lr>\r\nRoute: <sip:c.example;lr>\r\n"
                        + "Via: SIP/2.0/TCP [2001:db8::1]:5061;branch=z9hG4bKv6;received=[2001:db8::9], SIP/2.0/UDP h.example\r\n");
        parsed(text, m -> {
            assertThat(m.routes()).extracting(NameAddr::uri)
                    .containsExactly("sip:a.example;lr", "sip:b.example;lr", "sip:c.example;lr");
            assertThat(m.vias()).extracting(Via::host).containsExactly("192.0.2.10", "[2001:db8::1]", "h.example");
            assertThat(m.vias().get(1).received()).isEqualTo("[2001:db8::9]");
            assertThat(m.vias().get(1).port()).isEqualTo(5061);
        });
    }

    @Test
    void missingContentLengthOnADatagramMeansTheRestAndExtraBytesAreIgnored() {
        String noLength = SipSamples.invite().replaceFirst("Content-Length: \\d+\r\n", "");
        parsed(noLength, m -> assertThat(m.bodyLength()).isEqualTo(SipSamples.SDP.length()));
        parsed(SipSamples.invite() + "junk after the body", m -> assertThat(m.bodyLength()).isEqualTo(SipSamples.SDP.length()));
    }

    @Test
    void typedErrors() {
        String invite = SipSamples.invite();
        assertThat(error(invite.substring(0, 40))).isEqualTo(SipParseError.TRUNCATED);
        assertThat(error(invite.replace("INVITE sip:service@127.0.0.1:5070 SIP/2.0", "INVITE  sip:x@y SIP/2.0")))
                .isEqualTo(SipParseError.BAD_START_LINE);
        assertThat(error(invite.replace("SIP/2.0\r\nVia", "SIP/3.0\r\nVia"))).isEqualTo(SipParseError.UNSUPPORTED_VERSION);
        assertThat(error(invite.replace("INVITE sip:service@127.0.0.1:5070", "INVITE <sip:service@127.0.0.1:5070>")))
                .isEqualTo(SipParseError.BAD_REQUEST_URI);
        assertThat(error(invite.replace("Subject: Performance Test", "Subject Performance Test")))
                .isEqualTo(SipParseError.BAD_HEADER);
        assertThat(error(invite.replace("Subject: Performance", "Subject: Perf\0ormance"))).isEqualTo(SipParseError.BAD_HEADER);
        assertThat(error(invite.replace("Call-ID: 1-4242@127.0.0.1\r\n", ""))).isEqualTo(SipParseError.MISSING_HEADER);
        assertThat(error(invite.replace("CSeq: 1 INVITE", "CSeq: 1 INVITE\r\nCSeq: 2 INVITE")))
                .isEqualTo(SipParseError.DUPLICATE_HEADER);
        assertThat(error(invite.replace("CSeq: 1 INVITE", "CSeq: 2147483648 INVITE"))).isEqualTo(SipParseError.BAD_CSEQ);
        assertThat(error(invite.replace("CSeq: 1 INVITE", "CSeq: 1 BYE"))).isEqualTo(SipParseError.CSEQ_METHOD_MISMATCH);
        assertThat(error(invite.replace("Max-Forwards: 70", "Max-Forwards: 256"))).isEqualTo(SipParseError.BAD_MAX_FORWARDS);
        assertThat(error(invite.replaceFirst("Content-Length: \\d+", "Content-Length: -1")))
                .isEqualTo(SipParseError.BAD_CONTENT_LENGTH);
        assertThat(error(invite.replaceFirst("Content-Length: \\d+", "Content-Length: 500")))
                .isEqualTo(SipParseError.CONTENT_LENGTH_MISMATCH);
        assertThat(error("\u0080\u0001binary")).isEqualTo(SipParseError.NOT_SIP);
        assertThat(error("SIP/2.0 2000 OK\r\n\r\n")).isEqualTo(SipParseError.BAD_START_LINE);
    }

    @Test
    void limitsGiveTooLarge() {
        SipParser small = new SipParser(new SipLimits(256, 8, 64));
        ByteBuf in = buf(SipSamples.invite());
        SipParseResult r = small.parseDatagram(in);
        assertThat(r.error()).isEqualTo(SipParseError.TOO_LARGE);
        r.release();
        in.release();
    }

    @Test
    void anErrorFoundAfterTheHeadersKeepsTheMessageSoARelayCanAnswer() {
        ByteBuf in = buf(SipSamples.invite().replace("CSeq: 1 INVITE", "CSeq: 1 BYE"));
        SipParseResult r = parser.parseDatagram(in);
        try {
            assertThat(r.isRequest()).isTrue();
            assertThat(r.error().status()).isEqualTo(400);
            assertThat(r.message().topVia().branch()).isEqualTo("z9hG4bK-4242-1-0");
            assertThat(r.message().fromTag()).isEqualTo("4242SIPpTag001");
        } finally {
            r.release();
            in.release();
        }
    }

    @Test
    void aBrokenResponseIsNeverMarkedAnswerable() {
        for (String text : new String[] {
            SipSamples.ok().replace("Record-Route: ", "Record-Route "),
            SipSamples.ok().substring(0, 60),
            SipSamples.ok().replace("CSeq: 1 INVITE", "CSeq: x INVITE")}) {
            ByteBuf in = buf(text);
            SipParseResult r = parser.parseDatagram(in);
            assertThat(r.kind()).isEqualTo(SipParseResult.Kind.ERROR);
            assertThat(r.isRequest()).as(r.error().toString()).isFalse();
            r.release();
            in.release();
        }
    }

    @Test
    void aDatagramOfLineBreaksIsAKeepAlive() {
        ByteBuf in = buf("\r\n\r\n");
        SipParseResult r = parser.parseDatagram(in);
        assertThat(r.kind()).isEqualTo(SipParseResult.Kind.KEEPALIVE);
        in.release();
    }
}
