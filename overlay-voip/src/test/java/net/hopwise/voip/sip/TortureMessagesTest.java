package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The RFC 4475 messages (see src/test/resources/rfc4475/README.md) and the codec's verdict on each. */
class TortureMessagesTest {
    private static final Consumer<SipMessage> ANY = m -> {};

    static Stream<Arguments> valid() {
        return Stream.of(
                // 3.1.1 valid messages
                Arguments.of("wsinv", "3.1.1.1", (Consumer<SipMessage>) m -> {
                    assertThat(m.method()).isEqualTo("INVITE");
                    assertThat(m.toTag()).isEqualTo("1918181833n");
                    assertThat(m.fromTag()).isEqualTo("98asjd8");
                    assertThat(m.from().displayName()).isEqualTo("\"J Rosenberg \\\\\\\"\"");
                    assertThat(m.maxForwards()).isEqualTo(68);
                    assertThat(m.cseq()).isEqualTo(new CSeq(9, "INVITE"));
                    assertThat(m.vias()).extracting(Via::transport).containsExactly("UDP", "TCP", "UDP");
                    assertThat(m.vias()).extracting(Via::branch).containsExactly("390skdjuw", "z9hG4bK9ikj8", "z9hG4bK30239");
                    assertThat(m.header("NewFangledHeader")).isEqualTo("newfangled value continued newfangled value");
                    assertThat(m.header("s")).isEmpty();
                    assertThat(m.routes()).extracting(NameAddr::uri)
                            .containsExactly("sip:services.example.com;lr;unknownwith=value;unknown-no-value");
                    assertThat(m.contacts()).singleElement().satisfies(c -> assertThat(c.params())
                            .containsEntry("newparam", "newvalue").containsEntry("q", "0.33").containsKey("secondparam"));
                    assertThat(m.bodyLength()).isEqualTo(150);
                }),
                Arguments.of("intmeth", "3.1.1.2", (Consumer<SipMessage>) m ->
                        assertThat(m.method()).isEqualTo("!interesting-Method0123456789_*+`.%indeed'~")),
                Arguments.of("esc01", "3.1.1.3", ANY),
                Arguments.of("escnull", "3.1.1.4", (Consumer<SipMessage>) m -> assertThat(m.contacts()).hasSize(2)),
                Arguments.of("esc02", "3.1.1.5", ANY),
                Arguments.of("lwsdisp", "3.1.1.6", ANY),
                Arguments.of("longreq", "3.1.1.7", (Consumer<SipMessage>) m -> assertThat(m.vias()).hasSizeGreaterThan(5)),
                Arguments.of("dblreq", "3.1.1.8", (Consumer<SipMessage>) m -> {
                    assertThat(m.method()).isEqualTo("REGISTER");
                    assertThat(m.bodyLength()).isZero();
                }),
                Arguments.of("semiuri", "3.1.1.9", ANY),
                Arguments.of("transports", "3.1.1.10", (Consumer<SipMessage>) m ->
                        assertThat(m.vias()).extracting(Via::transport).contains("SCTP", "TLS", "UNKNOWN")),
                Arguments.of("mpart01", "3.1.1.11", (Consumer<SipMessage>) m -> assertThat(m.contentType()).isEqualTo("multipart/mixed")),
                Arguments.of("unreason", "3.1.1.12", (Consumer<SipMessage>) m -> {
                    assertThat(m.statusCode()).isEqualTo(200);
                    assertThat(m.reasonPhrase()).startsWith("= 2**3 * 5**2 ").matches(".*[\\u0400-\\u04FF].*");
                }),
                Arguments.of("noreason", "3.1.1.13", (Consumer<SipMessage>) m -> assertThat(m.reasonPhrase()).isEmpty()),
                // 3.1.2.12: invalid Date, forwarded by a proxy that does not interpret Date
                Arguments.of("baddate", "3.1.2.12", ANY),
                // 3.2.1: the bare magic cookie is not an RFC 3261 transaction id
                Arguments.of("badbranch", "3.2.1", (Consumer<SipMessage>) m -> assertThat(m.topVia().hasRfc3261Branch()).isFalse()),
                // 3.3: valid syntax, outcome decided by the relay from what the codec exposes
                Arguments.of("unkscm", "3.3.2", (Consumer<SipMessage>) m -> assertThat(m.requestUri()).startsWith("nobodyKnowsThisScheme:")),
                Arguments.of("novelsc", "3.3.3", (Consumer<SipMessage>) m -> assertThat(m.requestUri()).startsWith("soap.beep:")),
                Arguments.of("unksm2", "3.3.4", ANY),
                Arguments.of("bext01", "3.3.5", (Consumer<SipMessage>) m -> assertThat(m.values(SipHeaderName.PROXY_REQUIRE))
                        .containsExactly("noProxiesSupportThis", "norDoAnyProxiesSupportThis")),
                Arguments.of("invut", "3.3.6", (Consumer<SipMessage>) m -> assertThat(m.contentType()).isEqualTo("application/unknownformat")),
                Arguments.of("regaut01", "3.3.7", ANY),
                Arguments.of("bcast", "3.3.10", (Consumer<SipMessage>) m -> assertThat(m.vias().get(1).host()).isEqualTo("255.255.255.255")),
                Arguments.of("zeromf", "3.3.11", (Consumer<SipMessage>) m -> assertThat(m.maxForwards()).isZero()),
                Arguments.of("cparam01", "3.3.12", ANY),
                Arguments.of("cparam02", "3.3.13", ANY),
                Arguments.of("regescrt", "3.3.14", (Consumer<SipMessage>) m -> assertThat(m.contactUri()).contains("?Route=")),
                Arguments.of("sdp01", "3.3.15", ANY),
                // 3.4.1: RFC 2543 request: no branch, no Max-Forwards, no Content-Length
                Arguments.of("inv2543", "3.4.1", (Consumer<SipMessage>) m -> {
                    assertThat(m.topVia().branch()).isNull();
                    assertThat(m.maxForwards()).isEqualTo(-1);
                    assertThat(m.contentLength()).isEqualTo(-1);
                    assertThat(m.bodyLength()).isPositive();
                }));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("badinv01", "3.1.2.1", SipParseError.BAD_HEADER),
                Arguments.of("clerr", "3.1.2.2", SipParseError.CONTENT_LENGTH_MISMATCH),
                Arguments.of("ncl", "3.1.2.3", SipParseError.BAD_CONTENT_LENGTH),
                Arguments.of("scalar02", "3.1.2.4", SipParseError.BAD_CSEQ),
                Arguments.of("scalarlg", "3.1.2.5", SipParseError.BAD_CSEQ),
                Arguments.of("quotbal", "3.1.2.6", SipParseError.BAD_HEADER),
                Arguments.of("ltgtruri", "3.1.2.7", SipParseError.BAD_REQUEST_URI),
                Arguments.of("lwsruri", "3.1.2.8", SipParseError.BAD_START_LINE),
                Arguments.of("lwsstart", "3.1.2.9", SipParseError.BAD_START_LINE),
                Arguments.of("trws", "3.1.2.10", SipParseError.BAD_START_LINE),
                Arguments.of("escruri", "3.1.2.11", SipParseError.BAD_REQUEST_URI),
                Arguments.of("regbadct", "3.1.2.13", SipParseError.BAD_HEADER),
                Arguments.of("badaspec", "3.1.2.14", SipParseError.BAD_HEADER),
                Arguments.of("baddn", "3.1.2.15", SipParseError.BAD_HEADER),
                Arguments.of("badvers", "3.1.2.16", SipParseError.UNSUPPORTED_VERSION),
                Arguments.of("mismatch01", "3.1.2.17", SipParseError.CSEQ_METHOD_MISMATCH),
                Arguments.of("mismatch02", "3.1.2.18", SipParseError.CSEQ_METHOD_MISMATCH),
                Arguments.of("bigcode", "3.1.2.19", SipParseError.BAD_START_LINE),
                Arguments.of("insuf", "3.3.1", SipParseError.MISSING_HEADER),
                Arguments.of("multi01", "3.3.8", SipParseError.DUPLICATE_HEADER),
                Arguments.of("mcl01", "3.3.9", SipParseError.DUPLICATE_HEADER));
    }

    @ParameterizedTest(name = "{0} (RFC 4475 {1}) parses")
    @MethodSource("valid")
    void validMessagesParse(String name, String section, Consumer<SipMessage> check) {
        ByteBuf in = load(name);
        SipParseResult r = new SipParser().parseDatagram(in);
        try {
            assertThat(r.kind()).as("%s: %s", name, r).isEqualTo(SipParseResult.Kind.MESSAGE);
            check.accept(r.message());
        } finally {
            r.release();
            in.release();
        }
    }

    @ParameterizedTest(name = "{0} (RFC 4475 {1}) gives {2}")
    @MethodSource("invalid")
    void invalidMessagesGiveTheirError(String name, String section, SipParseError expected) {
        ByteBuf in = load(name);
        SipParser parser = new SipParser();
        SipParseResult r = parser.parseDatagram(in);
        try {
            assertThat(r.kind()).isEqualTo(SipParseResult.Kind.ERROR);
            assertThat(r.error()).as(name).isEqualTo(expected);
            if (r.isRequest() && r.message() != null) {
                // What the relay needs to send its 400 or 505 is there.
                assertThat(r.message().indexOf(SipHeaderName.VIA)).isNotNegative();
            }
            assertThat(parser.faults()).isZero();
        } finally {
            r.release();
            in.release();
        }
    }

    static ByteBuf load(String name) {
        try (InputStream in = TortureMessagesTest.class.getResourceAsStream("/rfc4475/" + name + ".dat")) {
            if (in == null) {
                throw new IllegalStateException("missing test vector " + name);
            }
            byte[] bytes = in.readAllBytes();
            // Pooled heap: tracked by the leak detector and read through the backing array.
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length);
            buf.writeBytes(bytes);
            return buf;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
