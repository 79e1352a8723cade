package net.hopwise.voip.sdp;

import static net.hopwise.voip.sdp.SdpSamples.bytes;
import static net.hopwise.voip.sdp.SdpSamples.parse;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionDescriptionTest {
    private static SdpParseError error(String sdp) {
        SdpParseResult r = SessionDescription.parse(bytes(sdp));
        assertThat(r.isOk()).isFalse();
        return r.error();
    }

    @Test
    void readsWhatTheRelayNeeds() {
        SessionDescription sdp = parse(SdpSamples.BARESIP_ICE);
        assertThat(sdp.origin()).isEqualTo(new Origin("-", "1405938587", 3118924451L, Connection.ip4("192.168.1.20")));
        assertThat(sdp.media()).singleElement().satisfies(m -> {
            assertThat(m.media()).isEqualTo("audio");
            assertThat(m.port()).isEqualTo(44000);
            assertThat(m.proto()).isEqualTo("RTP/AVP");
            assertThat(m.formats()).containsExactly("8", "101");
            assertThat(m.rtcpPort()).isEqualTo(44001);
            assertThat(m.rtcpAddress()).isEqualTo(Connection.ip4("192.168.1.20"));
            assertThat(m.direction()).isEqualTo(MediaDirection.SENDRECV);
            assertThat(m.rtcpMux()).isFalse();
        });
        SessionDescription v6 = parse(SdpSamples.IPV6_VIDEO);
        assertThat(v6.connection()).isEqualTo(Connection.ip6("2001:db8::b"));
        assertThat(v6.media()).extracting(MediaDescription::portCount).containsExactly(1, 1, 2);
    }

    @Test
    void payloadTypesReadFromRtpmapsElseFromRfc3551sStaticTable() {
        SessionDescription sdp = parse(SdpSamples.SIPP_UAC.replace("RTP/AVP 0", "RTP/AVP 111 9 0 97 101")
                + "a=rtpmap:111 opus/48000/2\r\na=rtpmap:101 telephone-event/8000\r\na=rtpmap:97\r\n"
                + "a=rtpmap:200 x/8000\r\na=rtpmap:98 noclock\r\na=rtpmap:99 zero/0\r\n");
        MediaDescription m = sdp.media().get(0);
        assertThat(m.rtpMaps()).containsExactly(new RtpMap(0, "PCMU", 8000), new RtpMap(111, "opus", 48000),
                new RtpMap(101, "telephone-event", 8000));
        assertThat(m.rtpMap(111)).hasToString("opus/48000");
        // G.722 samples at 16 kHz but its RTP clock is 8 kHz (RFC 3551 section 4.5.2).
        assertThat(m.rtpMap(9)).isEqualTo(new RtpMap(9, "G722", 8000));
        assertThat(m.rtpMap(18)).isEqualTo(new RtpMap(18, "G729", 8000));
        assertThat(m.rtpMap(97)).as("a dynamic type no readable rtpmap names").isNull();
        assertThat(m.rtpMap(2)).as("unassigned").isNull();
        assertThat(RtpMap.ofStatic(8)).isEqualTo(new RtpMap(8, "PCMA", 8000));
        assertThat(RtpMap.ofStatic(128)).isNull();
        assertThat(RtpMap.ofStatic(-1)).isNull();
    }

    @Test
    void packetTimesAreReadPerSectionAndASessionLevelOneFillsTheSectionsWithoutTheirOwn() {
        assertThat(parse(SdpSamples.BARESIP_ICE).media().get(0).ptime()).isEqualTo(java.time.Duration.ofMillis(20));
        assertThat(parse(SdpSamples.SIPP_UAC).media().get(0).ptime()).isNull();
        SessionDescription two = parse(SdpSamples.SIPP_UAC.replace("t=0 0\r\n", "t=0 0\r\na=ptime:30\r\n")
                + "m=audio 6002 RTP/AVP 8\r\na=ptime:2.5\r\na=ptime:60\r\n");
        assertThat(two.media()).extracting(MediaDescription::ptime)
                .containsExactly(java.time.Duration.ofMillis(30), java.time.Duration.ofNanos(2_500_000));
    }

    @Test
    void anUnreadablePacketTimeIsLeftOutNotRefused() {
        for (String bad : new String[] {"", "0", "0.0", "-20", "20ms", "1e3", ".5", "20.", "10001", "99999999999999999",
                "20 30"}) {
            SessionDescription sdp = parse(SdpSamples.SIPP_UAC + "a=ptime:" + bad + "\r\n");
            assertThat(sdp.media().get(0).ptime()).as("a=ptime:%s", bad).isNull();
        }
        assertThat(parse(SdpSamples.SIPP_UAC + "a=ptime\r\n").media().get(0).ptime()).isNull();
        assertThat(parse(SdpSamples.SIPP_UAC + "a=ptime:0.125\r\n").media().get(0).ptime())
                .isEqualTo(java.time.Duration.ofNanos(125_000));
        assertThat(parse(SdpSamples.SIPP_UAC + "a=ptime:20.0001\r\n").media().get(0).ptime())
                .isEqualTo(java.time.Duration.ofMillis(20));
        assertThat(parse(SdpSamples.SIPP_UAC + "a=ptime:10000\r\n").media().get(0).ptime())
                .isEqualTo(java.time.Duration.ofSeconds(10));
    }

    @Test
    void holdIsSendonlyInactiveOrTheZeroAddress() {
        assertThat(parse(SdpSamples.SIPP_UAC).onHold()).isFalse();
        assertThat(parse(SdpSamples.SIPP_UAC + "a=sendonly\r\n").onHold()).isTrue();
        assertThat(parse(SdpSamples.SIPP_UAC + "a=inactive\r\n").onHold()).isTrue();
        assertThat(parse(SdpSamples.SIPP_UAC + "a=recvonly\r\n").onHold()).isFalse();
        assertThat(parse(SdpSamples.SIPP_UAC.replace("127.0.0.1\r\nt=", "0.0.0.0\r\nt=")).onHold()).isTrue();
        SessionDescription sessionLevel = parse(SdpSamples.SIPP_UAC.replace("t=0 0\r\n", "t=0 0\r\na=sendonly\r\n"));
        assertThat(sessionLevel.direction(0)).isEqualTo(MediaDirection.SENDONLY);
        assertThat(sessionLevel.isHeld(0)).isTrue();
        SessionDescription mixed = parse(SdpSamples.IPV6_VIDEO.replace("k=prompt", "a=inactive\nk=prompt"));
        assertThat(mixed.isHeld(0)).isFalse();
        assertThat(mixed.isHeld(1)).as("a rejected stream is not held").isFalse();
        assertThat(mixed.isHeld(2)).isTrue();
        assertThat(mixed.onHold()).isFalse();
        assertThat(MediaDirection.SENDONLY.reverse()).isEqualTo(MediaDirection.RECVONLY);
    }

    @Test
    void malformedBodiesGiveTypedErrors() {
        assertThat(error("")).isEqualTo(SdpParseError.EMPTY);
        assertThat(error("\r\n\r\n")).isEqualTo(SdpParseError.EMPTY);
        assertThat(error("o=- 1 1 IN IP4 1.2.3.4\r\nv=0\r\n")).isEqualTo(SdpParseError.MISSING_VERSION);
        assertThat(error(SdpSamples.SIPP_UAC.replace("a=rtpmap", "A=rtpmap"))).isEqualTo(SdpParseError.BAD_LINE);
        assertThat(error(SdpSamples.SIPP_UAC.replace("m=audio", "m =audio"))).isEqualTo(SdpParseError.BAD_LINE);
        assertThat(error(SdpSamples.SIPP_UAC.replace("s=-", "s=\0"))).isEqualTo(SdpParseError.BAD_LINE);
        assertThat(error(SdpSamples.SIPP_UAC.replace("o=user1 53655765 2353687637", "o=user1 53655765 x"))).isEqualTo(SdpParseError.BAD_ORIGIN);
        assertThat(error(SdpSamples.SIPP_UAC.replaceFirst("o=[^\r]*\r\n", ""))).isEqualTo(SdpParseError.BAD_ORIGIN);
        assertThat(error(SdpSamples.SIPP_UAC.replace("c=IN IP4 127.0.0.1", "c=IN IP4"))).isEqualTo(SdpParseError.BAD_CONNECTION);
        assertThat(error(SdpSamples.SIPP_UAC.replace("m=audio 6000", "m=audio 70000"))).isEqualTo(SdpParseError.BAD_MEDIA);
        assertThat(error(SdpSamples.SIPP_UAC.replace("RTP/AVP 0", "RTP/AVP"))).isEqualTo(SdpParseError.BAD_MEDIA);
        assertThat(error(SdpSamples.SIPP_UAC + "a=rtcp:x\r\n")).isEqualTo(SdpParseError.BAD_RTCP);
        assertThat(error("v=0\r\n" + "a=x\r\n".repeat(SessionDescription.MAX_LINES))).isEqualTo(SdpParseError.TOO_LARGE);
    }

    @Test
    void originVersionsStayMonotonicPerOwner() {
        SdpOriginVersions versions = new SdpOriginVersions();
        Origin first = new Origin("alice", "42", 7, Connection.ip4("192.0.2.1"));
        assertThat(versions.next(first)).isEqualTo(7);
        assertThat(versions.next(first)).as("a retransmission keeps its version").isEqualTo(7);
        assertThat(versions.bump(first)).as("the relay changed its own rewrite").isEqualTo(8);
        assertThat(versions.next(new Origin("alice", "42", 8, Connection.ip4("192.0.2.1")))).isEqualTo(9);
        assertThat(versions.next(new Origin("alice", "42", 3, Connection.ip4("192.0.2.1"))))
                .as("a phone that goes backwards does not move the relay backwards").isEqualTo(10);
        assertThat(versions.next(new Origin("bob", "1", 100, Connection.ip4("192.0.2.2")))).isEqualTo(100);
        versions.forget(first);
        assertThat(versions.size()).isEqualTo(1);
    }
}
