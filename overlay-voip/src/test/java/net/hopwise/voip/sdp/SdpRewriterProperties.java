package net.hopwise.voip.sdp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** Rewrite-then-parse gives what was asked, and every line not rewritten survives byte for byte. */
class SdpRewriterProperties {
    private static final String NASTY = " \r\n0/:=x\u00ff";

    @Property(tries = 3000)
    void rewrittenDescriptionsCarryTheRequestedEndpointsAndKeepEverythingElse(@ForAll long seed) {
        Random random = new Random(seed);
        int mediaCount = 1 + random.nextInt(4);
        byte[] body = randomDescription(random, mediaCount);
        SdpParseResult parsed = SessionDescription.parse(body);
        assertThat(parsed.isOk()).as("generated description %s: %s", new String(body, StandardCharsets.UTF_8), parsed).isTrue();
        SessionDescription in = parsed.description();

        Connection address = random.nextBoolean() ? Connection.ip4("203.0.113." + random.nextInt(256))
                : Connection.ip6("2001:db8::" + Integer.toHexString(random.nextInt(65536)));
        SdpRewrite rewrite = new SdpRewrite().connection(address).originVersion(random.nextInt(Integer.MAX_VALUE))
                .stripIce(random.nextBoolean());
        int[] ports = new int[mediaCount];
        int[] rtcp = new int[mediaCount];
        for (int i = 0; i < mediaCount; i++) {
            ports[i] = 2 * (15000 + random.nextInt(10000));
            rtcp[i] = ports[i] + 1;
            rewrite.mediaPort(i, ports[i]).rtcpPort(i, rtcp[i]);
        }

        byte[] outBytes = SdpRewriter.rewrite(in, rewrite);
        SdpParseResult reparsed = SessionDescription.parse(outBytes);
        assertThat(reparsed.isOk()).isTrue();
        SessionDescription out = reparsed.description();

        assertThat(out.origin().version()).isEqualTo(rewrite.originVersion());
        assertThat(out.media()).hasSameSizeAs(in.media());
        for (int i = 0; i < mediaCount; i++) {
            MediaDescription before = in.media().get(i);
            MediaDescription after = out.media().get(i);
            assertThat(after.port()).isEqualTo(before.port() == 0 ? 0 : ports[i]);
            assertThat(after.portCount()).isEqualTo(before.portCount());
            assertThat(after.formats()).isEqualTo(before.formats());
            if (in.connection(i) != null) {
                assertThat(out.connection(i)).isEqualTo(in.connection(i).isUnspecified() ? in.connection(i) : address);
            }
            if (before.rtcpPort() >= 0) {
                assertThat(after.rtcpPort()).isEqualTo(rtcp[i]);
                assertThat(after.rtcpAddress()).isEqualTo(before.rtcpAddress() == null ? null : address);
            }
            assertThat(out.direction(i)).isEqualTo(in.direction(i));
        }
        if (rewrite.stripIce()) {
            assertThat(out.hasIce()).isFalse();
        }
        assertThat(untouched(out, rewrite.stripIce())).isEqualTo(untouched(in, rewrite.stripIce()));
    }

    @Property(tries = 3000)
    void arbitraryBytesGiveADescriptionOrATypedError(@ForAll @Size(max = 600) byte[] body) {
        SdpParseResult r = SessionDescription.parse(body);
        assertThat(r.isOk() ^ r.error() != null).isTrue();
        if (r.isOk()) {
            SessionDescription sdp = r.description();
            sdp.onHold();
            sdp.hasIce();
            SdpRewrite rewrite = new SdpRewrite().connection(Connection.ip4("192.0.2.1")).stripIce(true).originVersion(1);
            for (int i = 0; i < sdp.media().size(); i++) {
                rewrite.mediaPort(i, 4000).rtcpPort(i, 4001);
            }
            assertThat(SessionDescription.parse(SdpRewriter.rewrite(sdp, rewrite)).isOk()).isTrue();
        }
    }

    @Property(tries = 2000)
    void mutatedRealDescriptionsNeverThrow(@ForAll long seed) {
        Random random = new Random(seed);
        String[] samples = {SdpSamples.SIPP_UAC, SdpSamples.BARESIP_ICE, SdpSamples.IPV6_VIDEO};
        byte[] body = SdpSamples.bytes(samples[random.nextInt(samples.length)]);
        for (int k = 1 + random.nextInt(6); k > 0; k--) {
            int at = random.nextInt(body.length);
            switch (random.nextInt(3)) {
                case 0 -> body[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> body = Arrays.copyOf(body, at);
                default -> body[at] = (byte) NASTY.charAt(random.nextInt(NASTY.length()));
            }
            if (body.length == 0) {
                break;
            }
        }
        SdpParseResult r = SessionDescription.parse(body);
        if (r.isOk()) {
            SdpRewriter.rewrite(r.description(), new SdpRewrite().connection(Connection.ip6("::1")).stripIce(true));
        }
    }

    /** The bytes, terminators included, of every line a rewrite leaves alone, in order. */
    private static List<String> untouched(SessionDescription sdp, boolean iceStripped) {
        byte[] b = sdp.bytes();
        List<String> kept = new ArrayList<>();
        for (SdpLine line : sdp.lines()) {
            char t = line.type();
            String text = new String(b, line.start(), line.next() - line.start(), StandardCharsets.UTF_8);
            boolean heldAddress = t == 'c' && text.contains(" 0.0.0.0");
            boolean rewritten = t == 'o' || (t == 'c' && !heldAddress) || t == 'm'
                    || (t == 'a' && line.media() >= 0 && text.startsWith("a=rtcp:"))
                    || (iceStripped && t == 'a' && SdpAttributes.isIce(b, line));
            if (!rewritten) {
                kept.add(text);
            }
        }
        return kept;
    }

    private static byte[] randomDescription(Random r, int mediaCount) {
        StringBuilder s = new StringBuilder();
        line(s, r, "v=0");
        line(s, r, "o=" + pick(r, "-", "alice", "user1") + " " + r.nextInt(1_000_000) + " " + r.nextInt(1_000_000) + " " + address(r));
        line(s, r, "s=" + pick(r, "-", "call", "SIP Call"));
        boolean sessionConnection = r.nextBoolean();
        if (sessionConnection) {
            line(s, r, "c=" + address(r));
        }
        line(s, r, "t=0 0");
        unknown(s, r);
        if (r.nextInt(4) == 0) {
            line(s, r, "a=" + pick(r, "sendonly", "recvonly", "inactive", "sendrecv"));
        }
        if (r.nextBoolean()) {
            line(s, r, "a=ice-ufrag:" + Long.toHexString(r.nextLong()));
            line(s, r, "a=ice-pwd:" + Long.toHexString(r.nextLong()) + Long.toHexString(r.nextLong()));
        }
        for (int i = 0; i < mediaCount; i++) {
            int port = r.nextInt(5) == 0 ? 0 : 1024 + r.nextInt(60000);
            line(s, r, "m=" + pick(r, "audio", "video") + " " + port + (r.nextInt(6) == 0 ? "/2" : "") + " "
                    + pick(r, "RTP/AVP", "RTP/SAVP", "UDP/TLS/RTP/SAVPF") + " " + (r.nextInt(128)) + (r.nextBoolean() ? " 101" : ""));
            if (!sessionConnection || r.nextBoolean()) {
                line(s, r, "c=" + address(r));
            }
            if (r.nextBoolean()) {
                line(s, r, "a=rtcp:" + (port + 1) + (r.nextBoolean() ? " " + address(r) : ""));
            }
            if (r.nextBoolean()) {
                line(s, r, "a=candidate:1 1 UDP 2113932031 192.168.1.20 " + port + " typ host");
                line(s, r, "a=end-of-candidates");
            }
            if (r.nextBoolean()) {
                line(s, r, "a=" + pick(r, "sendonly", "recvonly", "inactive", "sendrecv"));
            }
            unknown(s, r);
        }
        if (r.nextInt(4) == 0 && s.charAt(s.length() - 1) == '\n') {
            s.setLength(s.length() - (s.charAt(s.length() - 2) == '\r' ? 2 : 1));
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void unknown(StringBuilder s, Random r) {
        for (int k = r.nextInt(3); k > 0; k--) {
            line(s, r, pick(r, "a=x-vendor:" + r.nextInt(), "b=AS:" + r.nextInt(512), "i=\u00e9t\u00e9 info", "a=rtpmap:101 telephone-event/8000",
                    "a=fmtp:101 0-16", "a=ptime:20", "a=ssrc:" + (r.nextInt() & 0x7fffffff) + " cname:x", "y=unknown type", "a=rtcp-mux", ""));
        }
    }

    private static String address(Random r) {
        return r.nextBoolean() ? "IN IP4 " + (r.nextInt(4) == 0 ? "0.0.0.0" : "192.168." + r.nextInt(256) + "." + r.nextInt(256))
                : "IN IP6 2001:db8::" + Integer.toHexString(r.nextInt(65536));
    }

    private static void line(StringBuilder s, Random r, String text) {
        s.append(text).append(r.nextInt(5) == 0 ? "\n" : "\r\n");
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }
}
