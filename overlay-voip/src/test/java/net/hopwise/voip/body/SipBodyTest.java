package net.hopwise.voip.body;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import net.hopwise.voip.sip.SipMessage;
import net.hopwise.voip.sip.SipMessageEditor;
import net.hopwise.voip.sip.SipParseResult;
import net.hopwise.voip.sip.SipParser;
import org.junit.jupiter.api.Test;

class SipBodyTest {
    private static final String SDP = "v=0\r\no=- 1 1 IN IP4 192.0.2.1\r\ns=-\r\nc=IN IP4 192.0.2.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0\r\n";
    private static final String PIDF = "<?xml version=\"1.0\"?>\r\n<presence entity=\"pres:alice@example.com\"/>\r\n";

    /** An INVITE carrying SDP and a PIDF-LO location, the shape of SIPp's multipart regression case. */
    private static String multipartInvite() {
        String body = "--boundary1\r\nContent-Type: application/sdp\r\n\r\n" + SDP
                + "\r\n--boundary1\r\nContent-Type: application/pidf+xml\r\nContent-ID: <alice@example.com>\r\n\r\n" + PIDF
                + "\r\n--boundary1--\r\n";
        return "INVITE sip:bob@example.com SIP/2.0\r\n"
                + "Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKmp1\r\n"
                + "From: <sip:alice@example.com>;tag=1\r\nTo: <sip:bob@example.com>\r\nCall-ID: mp1@192.0.2.1\r\n"
                + "CSeq: 1 INVITE\r\nMax-Forwards: 70\r\n"
                + "Content-Type: multipart/mixed;boundary=\"boundary1\"\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static void withMessage(byte[] bytes, Consumer<SipMessage> check) {
        ByteBuf in = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        SipParseResult r = new SipParser().parseDatagram(in);
        try {
            assertThat(r.isMessage()).as("%s", r).isTrue();
            check.accept(r.message());
        } finally {
            r.release();
            in.release();
        }
    }

    @Test
    void findsAndReplacesTheSdpPartKeepingTheOtherPartExactly() {
        String original = multipartInvite();
        String newSdp = SDP.replace("192.0.2.1", "203.0.113.7").replace("4000", "30000");
        withMessage(original.getBytes(StandardCharsets.US_ASCII), m -> {
            SipBody body = SipBody.of(m);
            assertThat(body.kind()).isEqualTo(SipBody.Kind.MULTIPART_WITH_SDP);
            assertThat(new String(body.sdp(), StandardCharsets.US_ASCII)).isEqualTo(SDP);
            byte[] replaced = body.withSdp(newSdp.getBytes(StandardCharsets.US_ASCII));
            String expectedBody = original.substring(original.indexOf("\r\n\r\n") + 4).replace(SDP, newSdp);
            assertThat(new String(replaced, StandardCharsets.US_ASCII)).isEqualTo(expectedBody);
            ByteBuf out = SipMessageEditor.of(m).replaceBody(replaced, null).encode(PooledByteBufAllocator.DEFAULT);
            try {
                byte[] bytes = new byte[out.readableBytes()];
                out.getBytes(0, bytes);
                withMessage(bytes, again -> {
                    assertThat(again.contentLength()).isEqualTo(expectedBody.length());
                    assertThat(SipBody.of(again).sdp()).isEqualTo(newSdp.getBytes(StandardCharsets.US_ASCII));
                });
            } finally {
                out.release();
            }
        });
    }

    @Test
    void aPlainSdpBodyIsTheWholeBody() {
        String invite = multipartInvite();
        String head = invite.substring(0, invite.indexOf("Content-Type:"));
        String plain = head + "Content-Type: application/sdp\r\nContent-Length: " + SDP.length() + "\r\n\r\n" + SDP;
        withMessage(plain.getBytes(StandardCharsets.US_ASCII), m -> {
            SipBody body = SipBody.of(m);
            assertThat(body.kind()).isEqualTo(SipBody.Kind.SDP);
            assertThat(body.withSdp(new byte[] {'v'})).containsExactly('v');
        });
    }

    @Test
    void rfc4475MultipartHasNoSdpButSplitsIntoItsTwoParts() throws IOException {
        byte[] bytes;
        try (InputStream in = getClass().getResourceAsStream("/rfc4475/mpart01.dat")) {
            bytes = in.readAllBytes();
        }
        withMessage(bytes, m -> {
            assertThat(SipBody.of(m).kind()).isEqualTo(SipBody.Kind.OTHER);
            byte[] body = new byte[m.bodyLength()];
            m.content().getBytes(m.bodyIndex(), body);
            MultipartBody.Result parts = MultipartBody.parse(body, m.header("Content-Type"));
            assertThat(parts.isOk()).isTrue();
            assertThat(parts.body().parts()).extracting(MultipartBody.Part::contentType)
                    .containsExactly("text/plain", "application/octet-stream");
            assertThat(new String(parts.body().content(0), StandardCharsets.US_ASCII)).isEqualTo("Hello");
        });
    }

    @Test
    void malformedMultipartBodiesGiveTypedErrors() {
        byte[] body = "--b\r\nContent-Type: application/sdp\r\n\r\nv=0\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(MultipartBody.parse(body, "multipart/mixed").error()).isEqualTo(MultipartError.NO_BOUNDARY);
        assertThat(MultipartBody.parse(body, "multipart/mixed;boundary=zz").error()).isEqualTo(MultipartError.NO_DELIMITER);
        assertThat(MultipartBody.parse(body, "multipart/mixed;boundary=b").error()).isEqualTo(MultipartError.UNTERMINATED);
        byte[] noBlank = "--b\r\nContent-Type: application/sdp\r\n--b--\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(MultipartBody.parse(noBlank, "multipart/mixed;boundary=b").error()).isEqualTo(MultipartError.BAD_PART);
    }
}
