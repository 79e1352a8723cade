package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.testing.LeakDetection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phones on IPv6: SIPp's uac and uas on ::1, relays taking SIP and media on ::1 (the overlay between
 * the nodes stays on IPv4 loopback, which the phones never see): the call completes and its RTP
 * crosses both relays each way.
 */
class SippIpv6Test {
    private static final InetAddress IPV6_LOOPBACK = new InetSocketAddress("::1", 0).getAddress();

    @TempDir
    Path dir;

    @AfterEach
    void noLeaks() {
        LeakDetection.assertNoLeaks();
    }

    @Test
    void aCallBetweenIpv6PhonesCompletesWithItsMediaThroughBothRelays() throws IOException {
        Sipp.binary();
        byte[] alaw = new byte[8000];
        Arrays.fill(alaw, (byte) 0xD5);
        Files.write(dir.resolve("silence.al"), alaw);
        for (String scenario : List.of("uac_rtp.xml", "uas_echo.xml")) {
            try (InputStream in = getClass().getResourceAsStream("/sipp/" + scenario)) {
                Files.copy(in, dir.resolve(scenario), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        try (RelaySites sites = new RelaySites(List.of(new RelaySites.Link("a", "b", ImpairmentConfig.none())), 61,
                38800, b -> b.sipAddress(new InetSocketAddress("::1", 0)).mediaAddress("::1"))) {
            int uasPort = Sipp.freeUdpPort();
            String uasMedia = Integer.toString(Sipp.freeMediaPort(IPV6_LOOPBACK));
            Sipp uas = Sipp.start(dir, "uas6", "-sf", "uas_echo.xml", "-key", "sdp_port", uasMedia, "-i", "::1",
                    "-p", Integer.toString(uasPort), "-mi", "::1", "-mp", uasMedia, "-rtp_echo", "-m", "1", "-nostdin",
                    "-timeout", "30s", "-timeout_error");
            try {
                Sipp uac = Sipp.start(dir, "uac6", "[::1]:" + uasPort, "-rsa",
                        "[::1]:" + sites.relayA.sipAddress().getPort(), "-sf", "uac_rtp.xml", "-s", "bob", "-i", "::1",
                        "-p", Integer.toString(Sipp.freeUdpPort()), "-mi", "::1",
                        "-mp", Integer.toString(Sipp.freeMediaPort(IPV6_LOOPBACK)), "-d", "1500", "-m", "1", "-nostdin",
                        "-timeout", "30s", "-timeout_error");
                assertThat(uac.await()).as("sipp uac exit code; output:\n%s\nuas:\n%s", uac.output(), uas.output())
                        .isZero();
                assertThat(uas.await()).as("sipp uas exit code; output:\n%s", uas.output()).isZero();
            } finally {
                uas.kill();
            }
            sites.awaitCallsGone(1);
            StreamStatistics atA = sites.endedA.get(0).streams().get(0);
            StreamStatistics atB = sites.endedB.get(0).streams().get(0);
            assertThat(sites.endedA.get(0).endReason()).isEqualTo("bye");
            assertThat(atA.latched().getAddress().getHostAddress()).isEqualTo("0:0:0:0:0:0:0:1");
            assertThat(atB.deliveredToPhone()).as("caller's RTP delivered to the callee").isGreaterThanOrEqualTo(40);
            assertThat(atA.deliveredToPhone()).as("echo delivered to the caller").isPositive();
        }
    }
}
