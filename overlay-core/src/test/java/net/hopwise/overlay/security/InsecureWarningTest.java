package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import net.hopwise.overlay.NodeDaemon;
import net.hopwise.overlay.daemon.Daemon;
import net.hopwise.overlay.daemon.DaemonLog;
import net.hopwise.overlay.daemon.DaemonOptions;
import net.hopwise.overlay.testing.LogCapture;
import org.junit.jupiter.api.Test;

/**
 * A node daemon started without keys (the operator chose {@code --insecure}) says in its log, as a
 * warning, that its links are unauthenticated and what anyone who reaches its port can do; one with
 * keys says how its links are secured, and never that warning.
 */
class InsecureWarningTest {
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final String WARNING = "links are NOT authenticated or encrypted (--insecure)";

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final DaemonLog log = (level, line) -> logged.add(level + " " + line);

    @Test
    void aDaemonWithoutKeysWarnsThatItsLinksAreOpenToAnyoneWhoReachesItsPort() throws Exception {
        try (Daemon d = Daemon.start(new DaemonOptions("a", ANY_LOOPBACK_PORT, List.of(), null, Duration.ZERO, 0, false),
                log)) {
            int port = d.node().localAddress().getPort();
            assertThat(logged).filteredOn(l -> l.contains(WARNING)).singleElement().asString()
                    .startsWith("WARNING node a: ")
                    .contains("any host that reaches UDP port " + port, "join the overlay", "inject traffic and link state",
                            "read every payload");
        }
    }

    @Test
    void aDaemonWithKeysSaysHowItsLinksAreSecuredAndDoesNotWarn() throws Exception {
        NodeKeys keys = NodeKeys.generate();
        SecurityConfig security = SecurityConfig.of("a", keys, null,
                new TrustedKeys(Map.of("a", List.of(keys.identityPublic()))));
        try (Daemon d = Daemon.start(new DaemonOptions("a", ANY_LOOPBACK_PORT, List.of(), null, Duration.ZERO, 0, false,
                null, security, null), log)) {
            assertThat(logged).anySatisfy(l -> assertThat(l).startsWith("INFO node a: links authenticated and encrypted (")
                    .contains("identity key " + keys.fingerprint(), "the trusted-keys list"));
            assertThat(logged).noneMatch(l -> l.contains("NOT authenticated"));
        }
    }

    /** The command line's path: the warning reaches the platform log (java.util.logging here) as a warning. */
    @Test
    void theCommandRunWithInsecureLogsTheWarningToThePlatformLog() {
        try (LogCapture log = LogCapture.of("net.hopwise.overlay.daemon")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = NodeDaemon.run(new String[] {"--name", "a", "--bind", "127.0.0.1:0", "--until-stdin-closes",
                "--stats-interval", "0", "--insecure"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
            assertThat(code).isZero();
            assertThat(log.records()).filteredOn(r -> r.getMessage().contains(WARNING)).singleElement()
                    .satisfies(r -> assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING));
        }
    }
}
