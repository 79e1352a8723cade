package net.hopwise.admin.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import net.hopwise.admin.config.HopwiseProperties;
import org.junit.jupiter.api.Test;

/**
 * The service's own node without keys says loudly, once, that its links are open to anyone, and a
 * node with keys never does: an open overlay must be a choice someone sees in the log.
 */
class InsecureNodeWarningTest {
    @Test
    void aNodeStartedInsecureLogsOneWarningNamingItsPortAndWhatAnyoneCanDo() {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Logger logger = Logger.getLogger(OverlayConfiguration.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(capture);
        HopwiseProperties properties = new HopwiseProperties();
        properties.getNode().setName("lonely");
        properties.getNode().setBind("127.0.0.1:0");
        properties.getLinkSecurity().setInsecure(true);
        try (LocalNodes nodes = new OverlayConfiguration().localNodes(properties, new SimpleMeterRegistry())) {
            int port = nodes.self().localAddress().getPort();
            List<LogRecord> warnings = records.stream().filter(r -> r.getLevel() == Level.WARNING).toList();
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0).getMessage()).contains("lonely", "NOT authenticated or encrypted",
                    "hopwise.link-security.insecure=true", "UDP port " + port, "read every payload");
        } finally {
            logger.removeHandler(capture);
        }
    }
}
