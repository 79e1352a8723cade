package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.hopwise.voip.body.SipBody;
import net.hopwise.voip.relay.SipUri;
import net.hopwise.voip.sdp.Connection;
import net.hopwise.voip.sdp.MediaDescription;
import net.hopwise.voip.sdp.SdpParseResult;
import net.hopwise.voip.sdp.SessionDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RFC 5118 messages (IPv6 torture tests; see src/test/resources/rfc5118/README.md) and the
 * codec's verdict on each. The files are the RFC's Appendix A archive as it is: bare LF line ends,
 * the two section 4.10 messages without the empty line that closes a header section, and two
 * Content-Length values larger than their bodies. {@link #wire} turns each into the message it
 * describes (CRLF, header section closed, Content-Length counted from the body) and touches nothing
 * else; {@link #archivedBytesAsTheyAre} pins what the codec does with the unconverted bytes.
 */
class Rfc5118MessagesTest {
    private static final List<String> ALL = List.of(
            "ipv6-good", "ipv6-bad", "port-ambiguous", "port-unambiguous", "via-received-param-with-delim",
            "via-received-param-no-delim", "ipv6-in-sdp", "mult-ip-in-header", "mult-ip-in-sdp", "ipv4-mapped-ipv6",
            "ipv6-bug-abnf-3-colons", "ipv6-correct-abnf-2-colons");

    static Stream<Arguments> valid() {
        return Stream.of(
                // 4.1: an IPv6 reference in the Request-URI, the Via and the Contact
                Arguments.of("ipv6-good", "4.1", (Consumer<SipMessage>) m -> {
                    assertThat(m.method()).isEqualTo("REGISTER");
                    assertThat(m.requestUri()).isEqualTo("sip:[2001:db8::10]");
                    SipUri uri = SipUri.parse(m.requestUri());
                    assertThat(uri.host()).isEqualTo("2001:db8::10");
                    assertThat(uri.port()).isEqualTo(-1);
                    assertIpv6(uri.host());
                    assertThat(m.vias()).singleElement().satisfies(v -> {
                        assertThat(v.host()).isEqualTo("[2001:db8::9:1]");
                        assertThat(v.port()).isEqualTo(-1);
                        assertThat(v.branch()).isEqualTo("z9hG4bKas3-111");
                        assertIpv6(v.host());
                    });
                    assertThat(m.contacts()).singleElement().satisfies(c -> {
                        assertThat(c.displayName()).isEqualTo("\"Caller\"");
                        assertThat(c.uri()).isEqualTo("sip:caller@[2001:db8::1]");
                    });
                    assertThat(SipUri.parse(m.contactUri()).host()).isEqualTo("2001:db8::1");
                }),
                // 4.3: well-formed; the brackets hold the whole address, so there is no port
                Arguments.of("port-ambiguous", "4.3", (Consumer<SipMessage>) m -> {
                    SipUri uri = SipUri.parse(m.requestUri());
                    assertThat(uri.host()).isEqualTo("2001:db8::10:5070");
                    assertThat(uri.port()).isEqualTo(-1);
                    assertIpv6(uri.host());
                }),
                // 4.4: the port outside the closing "]"
                Arguments.of("port-unambiguous", "4.4", (Consumer<SipMessage>) m -> {
                    SipUri uri = SipUri.parse(m.requestUri());
                    assertThat(uri.host()).isEqualTo("2001:db8::10");
                    assertThat(uri.port()).isEqualTo(5070);
                    assertThat(uri.hostPort()).isEqualTo("[2001:db8::10]:5070");
                }),
                // 4.5: "received" with the "[" "]" a strict reading of RFC 3261 does not allow;
                // the topmost Via must still be read and the request processed
                Arguments.of("via-received-param-with-delim", "4.5", (Consumer<SipMessage>) m -> {
                    assertThat(m.method()).isEqualTo("BYE");
                    Via top = m.topVia();
                    assertThat(top.host()).isEqualTo("[2001:db8::9:1]");
                    assertThat(top.received()).isEqualTo("[2001:db8::9:255]");
                    assertThat(top.branch()).isEqualTo("z9hG4bKas3-111");
                    assertIpv6(top.received());
                }),
                // 4.5: "received" without them, as the RFC 3261 grammar has it; the parameter after
                // the colons of the address is still read
                Arguments.of("via-received-param-no-delim", "4.5", (Consumer<SipMessage>) m -> {
                    Via top = m.topVia();
                    assertThat(top.host()).isEqualTo("[2001:db8::9:1]");
                    assertThat(top.received()).isEqualTo("2001:db8::9:255");
                    assertThat(top.branch()).isEqualTo("z9hG4bKas3");
                    assertIpv6(top.received());
                    assertThat(m.contactUri()).isEqualTo("sip:caller@[2001:db8::9:1]");
                }),
                // 4.6: IPv6 in the headers and, without brackets, in the SDP o= and c= lines
                Arguments.of("ipv6-in-sdp", "4.6", (Consumer<SipMessage>) m -> {
                    assertThat(SipUri.parse(m.requestUri()).host()).isEqualTo("2001:db8::10");
                    assertThat(m.topVia().host()).isEqualTo("[2001:db8::20]");
                    assertThat(m.contactUri()).isEqualTo("sip:caller@[2001:db8::20]");
                    SessionDescription sdp = sdp(m);
                    assertThat(sdp.origin().address()).isEqualTo(Connection.ip6("2001:db8::20"));
                    assertThat(sdp.connection()).isEqualTo(Connection.ip6("2001:db8::20"));
                    assertThat(sdp.media()).extracting(MediaDescription::port).containsExactly(6000, 6024);
                    for (int i = 0; i < sdp.media().size(); i++) {
                        assertThat(sdp.connection(i)).isEqualTo(Connection.ip6("2001:db8::20"));
                    }
                }),
                // 4.7: a Via list mixing IPv6 references (one with a port) and IPv4
                Arguments.of("mult-ip-in-header", "4.7", (Consumer<SipMessage>) m -> {
                    List<Via> vias = m.vias();
                    assertThat(vias).extracting(Via::transport).containsExactly("UDP", "UDP", "TCP");
                    assertThat(vias).extracting(Via::host).containsExactly("[2001:db8::9:1]", "192.0.2.1", "[2001:db8::9:255]");
                    assertThat(vias).extracting(Via::port).containsExactly(6050, -1, -1);
                    assertThat(vias).extracting(Via::branch)
                            .containsExactly("z9hG4bKas3-111", "z9hG4bKjhja8781hjuaij65144", "z9hG4bK451jj");
                    assertThat(vias.get(2).received()).isEqualTo("192.0.2.200");
                    assertThat(SipUri.parse(m.requestUri()).host()).isEqualTo("host.example.net");
                }),
                // 4.8: no session c=; one stream on IPv4, the other on IPv6
                Arguments.of("mult-ip-in-sdp", "4.8", (Consumer<SipMessage>) m -> {
                    assertThat(m.topVia().host()).isEqualTo("[2001:db8::9:1]");
                    assertThat(m.contactUri()).isEqualTo("sip:caller@[2001:db8::9:1]");
                    SessionDescription sdp = sdp(m);
                    assertThat(sdp.origin().address()).isEqualTo(Connection.ip4("host.example.com"));
                    assertThat(sdp.connection()).isNull();
                    assertThat(sdp.media()).extracting(MediaDescription::port).containsExactly(22334, 6024);
                    assertThat(sdp.connection(0)).isEqualTo(Connection.ip4("192.0.2.1"));
                    assertThat(sdp.connection(1)).isEqualTo(Connection.ip6("2001:db8::1"));
                }),
                // 4.9: IPv4-mapped IPv6 addresses in both Vias (the top one with a port), the
                // Contact and the SDP
                Arguments.of("ipv4-mapped-ipv6", "4.9", (Consumer<SipMessage>) m -> {
                    List<Via> vias = m.vias();
                    assertThat(vias).extracting(Via::host).containsExactly("[::ffff:192.0.2.10]", "[::ffff:192.0.2.2]");
                    assertThat(vias).extracting(Via::port).containsExactly(19823, -1);
                    vias.forEach(v -> assertIpv6(v.host()));
                    assertThat(m.contacts()).singleElement().satisfies(c -> {
                        assertThat(c.displayName()).isEqualTo("\"T. desk phone\"");
                        assertThat(c.uri()).isEqualTo("sip:ted@[::ffff:192.0.2.2]");
                    });
                    SessionDescription sdp = sdp(m);
                    assertThat(sdp.origin().address()).isEqualTo(Connection.ip6("::ffff:192.0.2.2"));
                    assertThat(sdp.connection()).isEqualTo(Connection.ip6("::ffff:192.0.2.2"));
                    assertThat(sdp.media()).extracting(MediaDescription::port).containsExactly(6000, 6024);
                }),
                // 4.10: the three-colon reference the RFC 3261 ABNF admits; a robust implementation
                // may parse it. The codec accepts the message and hands the reference on as written.
                Arguments.of("ipv6-bug-abnf-3-colons", "4.10", (Consumer<SipMessage>) m -> {
                    assertThat(m.method()).isEqualTo("OPTIONS");
                    assertThat(m.requestUri()).isEqualTo("sip:user@[2001:db8:::192.0.2.1]");
                    assertThat(SipUri.parse(m.requestUri()).host()).isEqualTo("2001:db8:::192.0.2.1");
                    assertThat(m.to().uri()).isEqualTo("sip:user@[2001:db8:::192.0.2.1]");
                    assertThat(m.topVia().host()).isEqualTo("lab1.east.example.com");
                    // Not an address under RFC 4291: what the RFC calls the ABNF bug.
                    assertThat(ipv6Literal("2001:db8:::192.0.2.1")).isNull();
                }),
                // 4.10: the same message with the reference written correctly
                Arguments.of("ipv6-correct-abnf-2-colons", "4.10", (Consumer<SipMessage>) m -> {
                    SipUri uri = SipUri.parse(m.requestUri());
                    assertThat(uri.user()).isEqualTo("user");
                    assertThat(uri.host()).isEqualTo("2001:db8::192.0.2.1");
                    assertIpv6(uri.host());
                    assertThat(m.to().uri()).isEqualTo("sip:user@[2001:db8::192.0.2.1]");
                }));
    }

    @ParameterizedTest(name = "{0} (RFC 5118 {1}) parses")
    @MethodSource("valid")
    void validMessagesParse(String name, String section, Consumer<SipMessage> check) {
        ByteBuf in = buffer(wire(archived(name)));
        SipParser parser = new SipParser();
        SipParseResult r = parser.parseDatagram(in);
        try {
            assertThat(r.kind()).as("%s: %s", name, r).isEqualTo(SipParseResult.Kind.MESSAGE);
            assertThat(r.frameLength()).isEqualTo(in.readableBytes());
            check.accept(r.message());
            assertThat(parser.faults()).isZero();
        } finally {
            r.release();
            in.release();
        }
    }

    @ParameterizedTest(name = "{0} (RFC 5118 {1}) frames on a stream")
    @MethodSource("valid")
    void validMessagesFrameOnAStream(String name, String section, Consumer<SipMessage> check) {
        ByteBuf in = buffer(wire(archived(name)));
        SipParser parser = new SipParser();
        SipParseResult r = parser.parseStream(in, in.readerIndex(), in.readableBytes());
        try {
            assertThat(r.kind()).as("%s: %s", name, r).isEqualTo(SipParseResult.Kind.MESSAGE);
            assertThat(r.frameLength()).isEqualTo(in.readableBytes());
            check.accept(r.message());
        } finally {
            r.release();
            in.release();
        }
    }

    /** 4.2: an IPv6 address in the Request-URI without "[" "]"; the RFC: respond 400 Bad Request. */
    @Test
    void ipv6BadIsRefusedWith400() {
        ByteBuf in = buffer(wire(archived("ipv6-bad")));
        SipParser parser = new SipParser();
        SipParseResult r = parser.parseDatagram(in);
        ByteBuf response = null;
        try {
            assertThat(r.kind()).isEqualTo(SipParseResult.Kind.ERROR);
            assertThat(r.error()).isEqualTo(SipParseError.BAD_REQUEST_URI);
            assertThat(r.error().status()).isEqualTo(400);
            assertThat(r.isRequest()).isTrue();
            assertThat(parser.faults()).isZero();
            // What the relay needs to send its 400 is there, and the 400 goes back over the IPv6 Via.
            assertThat(r.message().requestUri()).isEqualTo("sip:2001:db8::10");
            response = SipResponses.response(r.message(), r.error().status(), "t5118", PooledByteBufAllocator.DEFAULT);
            assertThat(response).isNotNull();
            SipParseResult answer = new SipParser().parseDatagram(response);
            try {
                assertThat(answer.kind()).isEqualTo(SipParseResult.Kind.MESSAGE);
                assertThat(answer.message().statusCode()).isEqualTo(400);
                assertThat(answer.message().topVia().host()).isEqualTo("[2001:db8::9:1]");
                assertThat(answer.message().cseq()).isEqualTo(new CSeq(98176, "REGISTER"));
            } finally {
                answer.release();
            }
        } finally {
            if (response != null) {
                response.release();
            }
            r.release();
            in.release();
        }
    }

    /** The Request-URI rule 4.2 needs, around its edges: the host ends at a port of digits, an IPv6 host in brackets. */
    @ParameterizedTest(name = "Request-URI {0}: accepted {1}")
    @CsvSource(delimiter = '|', value = {
        "sip:[2001:db8::10]:5070;transport=tcp | true",
        "sip:user@[2001:db8::10] | true",
        "sip:example.com | true",
        "sips:user@example.com:5061;lr | true",
        "sip:user;par=u%40example.net@example.com | true",
        "tel:+1-201-555-0123 | true",
        "sip:2001:db8::10 | false",
        "sip:user@2001:db8::10;transport=udp | false",
        "sip:user@[2001:db8::10 | false",
        "sip:user@[2001:db8::10]5070 | false",
        "sip:user@[] | false",
        "sip:user@example.com:506000 | false",
        "sip:user@example.com:005060 | true",
        "sip:user@example.com:65536 | false",
        "sip:user@example.com: | false",
        "sip:user@ | false"})
    void requestUriHostPort(String uri, boolean accepted) {
        String invite = SipSamples.invite().replace("INVITE sip:service@127.0.0.1:5070 SIP/2.0", "INVITE " + uri + " SIP/2.0");
        ByteBuf in = buffer(invite.getBytes(StandardCharsets.UTF_8));
        SipParser parser = new SipParser();
        SipParseResult r = parser.parseDatagram(in);
        try {
            if (accepted) {
                assertThat(r.kind()).as("%s: %s", uri, r).isEqualTo(SipParseResult.Kind.MESSAGE);
                assertThat(r.message().requestUri()).isEqualTo(uri);
            } else {
                assertThat(r.error()).as(uri).isEqualTo(SipParseError.BAD_REQUEST_URI);
            }
            assertThat(parser.faults()).isZero();
        } finally {
            r.release();
            in.release();
        }
    }

    /**
     * The archive's own bytes, unconverted, as one datagram each: bare LF and a missing closing
     * empty line are accepted, and the two messages whose Content-Length says more than their body
     * holds (4.6: 268 for 242 octets, 4.8: 181 for 180) are refused as RFC 3261 section 18.3
     * requires. Never a fault.
     */
    @ParameterizedTest(name = "{0} as archived")
    @MethodSource("names")
    void archivedBytesAsTheyAre(String name) {
        Map<String, SipParseError> refused = new LinkedHashMap<>();
        refused.put("ipv6-bad", SipParseError.BAD_REQUEST_URI);
        refused.put("ipv6-in-sdp", SipParseError.CONTENT_LENGTH_MISMATCH);
        refused.put("mult-ip-in-sdp", SipParseError.CONTENT_LENGTH_MISMATCH);
        ByteBuf in = buffer(archived(name));
        SipParser parser = new SipParser();
        SipParseResult r = parser.parseDatagram(in);
        try {
            if (refused.containsKey(name)) {
                assertThat(r.kind()).as(name).isEqualTo(SipParseResult.Kind.ERROR);
                assertThat(r.error()).as(name).isEqualTo(refused.get(name));
                assertThat(r.message().indexOf(SipHeaderName.VIA)).isNotNegative();
            } else {
                assertThat(r.kind()).as("%s: %s", name, r).isEqualTo(SipParseResult.Kind.MESSAGE);
            }
            assertThat(parser.faults()).isZero();
        } finally {
            r.release();
            in.release();
        }
    }

    /** The files are the archive's bytes: SHA256SUMS pins them, and an editor that adds CRs fails here. */
    @Test
    void filesAreTheArchivedBytes() throws NoSuchAlgorithmException {
        String sums = new String(resource("SHA256SUMS"), StandardCharsets.US_ASCII);
        Map<String, String> expected = new LinkedHashMap<>();
        for (String line : sums.split("\n")) {
            if (!line.isBlank()) {
                String[] parts = line.split(" +", 2);
                expected.put(parts[1], parts[0]);
            }
        }
        assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(ALL.stream().map(n -> n + ".dat").toList());
        for (String name : ALL) {
            byte[] bytes = archived(name);
            String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            assertThat(sha).as(name).isEqualTo(expected.get(name + ".dat"));
            assertThat(bytes).as(name).doesNotContain((byte) '\r');
        }
    }

    @Test
    void wireChangesOnlyLineEndsTheClosingLineAndContentLength() {
        for (String name : ALL) {
            String archived = new String(archived(name), StandardCharsets.US_ASCII);
            String wire = new String(wire(archived(name)), StandardCharsets.US_ASCII);
            assertThat(wire).as(name).endsWith("\r\n").doesNotContain("\r\r").contains("\r\n\r\n");
            assertThat(wire.replace("\r\n", "\n").replaceAll("Content-Length: \\d+", "Content-Length: N"))
                    .as(name)
                    .isEqualTo((archived.contains("\n\n") ? archived : archived + "\n")
                            .replaceAll("Content-Length: \\d+", "Content-Length: N"));
        }
    }

    static Stream<String> names() {
        return ALL.stream();
    }

    /** A message of the archive as sent: CRLF line ends, the header section closed, Content-Length the body's length. */
    static byte[] wire(byte[] archived) {
        String text = new String(archived, StandardCharsets.US_ASCII);
        int blank = text.indexOf("\n\n");
        String head = blank < 0 ? text : text.substring(0, blank + 1);
        String body = blank < 0 ? "" : text.substring(blank + 2).replace("\n", "\r\n");
        StringBuilder out = new StringBuilder();
        for (String line : head.split("\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                line = "Content-Length: " + body.length();
            }
            out.append(line).append("\r\n");
        }
        out.append("\r\n").append(body);
        return out.toString().getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] archived(String name) {
        return resource(name + ".dat");
    }

    private static byte[] resource(String file) {
        try (InputStream in = Rfc5118MessagesTest.class.getResourceAsStream("/rfc5118/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing test vector " + file);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ByteBuf buffer(byte[] bytes) {
        // Pooled heap: tracked by the leak detector and read through the backing array.
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length);
        buf.writeBytes(bytes);
        return buf;
    }

    private static SessionDescription sdp(SipMessage m) {
        assertThat(m.contentType()).isEqualTo("application/sdp");
        SipBody body = SipBody.of(m);
        assertThat(body.hasSdp()).isTrue();
        SdpParseResult r = SessionDescription.parse(body.sdp());
        assertThat(r.isOk()).as("%s", r).isTrue();
        return r.description();
    }

    /**
     * An IPv6 address (RFC 4291 section 2.2), with or without the brackets of an IPv6 reference.
     * Read by the JDK as a bracketed literal, which never resolves a name; an IPv4-mapped address
     * comes back as the IPv4 address it maps.
     */
    private static void assertIpv6(String address) {
        assertThat(ipv6Literal(address)).as(address).isNotNull();
    }

    private static InetAddress ipv6Literal(String address) {
        String bare = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
        try {
            InetAddress parsed = InetAddress.getByName("[" + bare + "]");
            return parsed instanceof Inet6Address || bare.startsWith("::ffff:") ? parsed : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
