package net.hopwise.admin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TraceTimeoutSettingTest {
    @Test
    void theWaitForATraceIsPositiveAndWithinTomcatsAsyncTimeout() {
        AdminProperties admin = new HopwiseProperties().getAdmin();
        assertThat(admin.getTraceTimeout()).isEqualTo(AdminProperties.DEFAULT_TRACE_TIMEOUT);
        admin.setTraceTimeout(Duration.ofSeconds(30));
        assertThat(admin.getTraceTimeout()).hasSeconds(30);
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), Duration.ofSeconds(31), null}) {
            assertThatThrownBy(() -> admin.setTraceTimeout(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at most 30 s");
        }
        assertThat(admin.getTraceTimeout()).hasSeconds(30);
    }
}
