package net.hopwise.admin.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.logging.LogRecord;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.overlay.testing.LogCapture;
import org.junit.jupiter.api.Test;

/**
 * The service's own node without keys says loudly, once, that its links are open to anyone, and a
 * node with keys never does: an open overlay must be a choice someone sees in the log.
 */
class InsecureNodeWarningTest {
    @Test
    void aNodeStartedInsecureLogsOneWarningNamingItsPortAndWhatAnyoneCanDo() {
        HopwiseProperties properties = new HopwiseProperties();
        properties.getNode().setName("lonely");
        properties.getNode().setBind("127.0.0.1:0");
        properties.getLinkSecurity().setInsecure(true);
        try (LogCapture log = LogCapture.of(OverlayConfiguration.class);
                LocalNodes nodes = new OverlayConfiguration().localNodes(properties, new SimpleMeterRegistry())) {
            int port = nodes.self().localAddress().getPort();
            List<LogRecord> warnings = log.warnings();
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0).getMessage()).contains("lonely", "NOT authenticated or encrypted",
                    "hopwise.link-security.insecure=true", "UDP port " + port, "read every payload");
        }
    }
}
