package net.hopwise.overlay.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HelloConfigTest {
    @Test
    void defaultsNoticeADeadNeighbourInAboutASecond() {
        HelloConfig c = HelloConfig.defaults();
        assertThat(c.interval()).isEqualTo(Duration.ofMillis(100));
        assertThat(c.deadCount()).isEqualTo(10);
        assertThat(c.upCount()).isEqualTo(1);
        assertThat(c.downInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.deadInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(HelloConfig.builder().build()).isEqualTo(c).hasSameHashCodeAs(c);
    }

    @Test
    void toBuilderKeepsEveryValue() {
        HelloConfig c = HelloConfig.builder().interval(Duration.ofMillis(50)).deadCount(4).upCount(6)
                .downInterval(Duration.ofSeconds(2)).build();
        assertThat(c.toBuilder().build()).isEqualTo(c);
        assertThat(c.deadInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(c.toString()).contains("PT0.05S", "deadCount=4", "upCount=6");
    }

    @Test
    void outOfRangeValuesAreRefusedWithTheirName() {
        assertThatThrownBy(() -> HelloConfig.builder().interval(Duration.ZERO).build())
                .hasMessageContaining("interval");
        assertThatThrownBy(() -> HelloConfig.builder().interval(Duration.ofMillis(-1)).build())
                .hasMessageContaining("interval");
        assertThatThrownBy(() -> HelloConfig.builder().deadCount(0).build()).hasMessageContaining("deadCount");
        assertThatThrownBy(() -> HelloConfig.builder().upCount(0).build()).hasMessageContaining("upCount");
        assertThatThrownBy(() -> HelloConfig.builder().downInterval(Duration.ofMillis(50)).build())
                .hasMessageContaining("downInterval");
        assertThatThrownBy(() -> HelloConfig.builder().interval(Duration.ofHours(3)).deadCount(10)
                .downInterval(Duration.ofDays(1)).build()).hasMessageContaining("deadCount");
        assertThatThrownBy(() -> HelloConfig.builder().interval(null)).isInstanceOf(NullPointerException.class);
    }
}
