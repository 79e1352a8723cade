package net.hopwise.voip.sip;

import static net.hopwise.voip.sip.SipSamples.buf;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class SipMessageEditorTest {
    private final SipParser parser = new SipParser();

    /** Parses {@code text}, applies {@code edit}, returns the output text and hands the reparsed output to {@code check}. */
    private String edit(String text, Function<SipMessageEditor, SipMessageEditor> edit, Consumer<SipMessage> check) {
        ByteBuf in = buf(text);
        SipParseResult r = parser.parseDatagram(in);
        ByteBuf out = null;
        try {
            assertThat(r.isMessage()).as("%s", r).isTrue();
            SipMessageEditor editor = edit.apply(SipMessageEditor.of(r.message()));
            out = editor.encode(PooledByteBufAllocator.DEFAULT);
            assertThat(out.readableBytes()).isEqualTo(editor.encodedLength());
            SipParseResult again = parser.parseDatagram(out);
            try {
                assertThat(again.isMessage()).as("%s", again).isTrue();
                check.accept(again.message());
            } finally {
                again.release();
            }
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            r.release();
            in.release();
            if (out != null) {
                out.release();
            }
        }
    }

    @Test
    void aProxyForwardingAnInviteChangesOnlyWhatItMust() {
        String invite = SipSamples.invite();
        String out = edit(invite, e -> e.pushVia("SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKrelay1")
                .decrementMaxForwards()
                .addRecordRoute("<sip:127.0.0.1:5060;lr>"), m -> {
                    assertThat(m.topVia().branch()).isEqualTo("z9hG4bKrelay1");
                    assertThat(m.vias()).hasSize(2);
                    assertThat(m.maxForwards()).isEqualTo(69);
                    assertThat(m.recordRoutes()).extracting(NameAddr::uri).containsExactly("sip:127.0.0.1:5060;lr");
                });
        String expected = invite
                .replace("Via: SIP/2.0/UDP 127.0.0.1:5080", "Via: SIP/2.0/UDP 127.0.0.1:5060;branch=z9hG4bKrelay1\r\nVia: SIP/2.0/UDP 127.0.0.1:5080")
                .replace("From: sipp", "Record-Route: <sip:127.0.0.1:5060;lr>\r\nFrom: sipp")
                .replace("Max-Forwards: 70", "Max-Forwards: 69");
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void poppingTheTopViaOfAResponseLeavesTheRest() {
        String out = edit(SipSamples.ok(), SipMessageEditor::popVia,
                m -> assertThat(m.topVia().branch()).isEqualTo("z9hG4bK-4242-1-0"));
        assertThat(out).isEqualTo(SipSamples.ok().replaceFirst("Via: [^\r]*relay1[^\r]*\r\n", ""));
    }

    @Test
    void poppingAViaFromACommaListKeepsTheOtherValuesAsWritten() {
        String text = SipSamples.ok().replace("rport=5060\r\nVia: ", "rport=5060 ,\r\n   ");
        String out = edit(text, SipMessageEditor::popVia, m -> assertThat(m.vias()).hasSize(1));
        assertThat(out).contains("Via: SIP/2.0/UDP 127.0.0.1:5080;branch=z9hG4bK-4242-1-0\r\n");
    }

    @Test
    void replacingTheBodyFixesContentLengthAndKeepsFoldedHeaders() {
        ByteBuf raw = TortureMessagesTest.load("wsinv");
        String wsinv = raw.toString(StandardCharsets.UTF_8);
        raw.release();
        String sdp = "v=0\r\no=- 1 2 IN IP4 203.0.113.9\r\ns=-\r\nc=IN IP4 203.0.113.9\r\nt=0 0\r\nm=audio 30000 RTP/AVP 0\r\n";
        String out = edit(wsinv, e -> e.replaceBody(sdp.getBytes(StandardCharsets.US_ASCII), null), m -> {
            assertThat(m.contentLength()).isEqualTo(sdp.length());
            assertThat(SipSamples.text(m.body())).isEqualTo(sdp);
            assertThat(m.vias()).hasSize(3);
        });
        int headEnd = wsinv.indexOf("\r\n\r\n");
        assertThat(out.substring(0, out.indexOf("\r\n\r\n")))
                .isEqualTo(wsinv.substring(0, headEnd).replace("Content-Length   : 150", "Content-Length   : " + sdp.length()));
    }

    @Test
    void addsWhatAStreamAndAProxyNeedWhenAbsent() {
        String noLength = SipSamples.invite().replaceFirst("Content-Length: \\d+\r\n", "").replace("Max-Forwards: 70\r\n", "");
        String out = edit(noLength, e -> e.ensureContentLength().decrementMaxForwards().requestUri("sip:service@127.0.0.1:5062"), m -> {
            assertThat(m.contentLength()).isEqualTo(SipSamples.SDP.length());
            assertThat(m.maxForwards()).isEqualTo(70);
            assertThat(m.requestUri()).isEqualTo("sip:service@127.0.0.1:5062");
        });
        assertThat(out).startsWith("INVITE sip:service@127.0.0.1:5062 SIP/2.0\r\nVia:");
    }

    @Test
    void aRouteNamingTheRelayIsPopped() {
        String text = SipSamples.register().replace("Expires: 3600", "Route: <sip:relay.example;lr>, <sip:next.example;lr>");
        edit(text, SipMessageEditor::popRoute,
                m -> assertThat(m.routes()).extracting(NameAddr::uri).containsExactly("sip:next.example;lr"));
    }
}
