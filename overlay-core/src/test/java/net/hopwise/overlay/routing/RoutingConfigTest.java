package net.hopwise.overlay.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import net.hopwise.overlay.wire.WireHeader;
import org.junit.jupiter.api.Test;

class RoutingConfigTest {
    @Test
    void defaults() {
        RoutingConfig c = RoutingConfig.defaults();
        assertThat(c.floodRetransmitInterval()).isEqualTo(Duration.ofMillis(300));
        assertThat(c.floodPacingInterval()).isEqualTo(Duration.ofMillis(10));
        assertThat(c.refreshInterval()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.maxAge()).isEqualTo(Duration.ofSeconds(180));
        assertThat(c.minRecomputeInterval()).isEqualTo(Duration.ofMillis(20));
        assertThat(c.minReadvertiseInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.expectedLatencyDeadlineMillis()).isEqualTo(100.0);
        assertThat(c.expectedLatencyDeltaMillis()).isEqualTo(2.0);
        assertThat(c.maxUpdateBodyBytes()).isEqualTo(WireHeader.MAX_BODY);
        // 1172 - 2 - 22 - 64 = 1084 bytes of 16-byte link cells.
        assertThat(c.maxLinksPerAdvertisement()).isEqualTo(67);
        assertThat(c.maxSequenceLead()).isEqualTo(Duration.ofDays(1));
        assertThat(c.advertisementLimitInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.maxAdvertisementsPerNeighbour()).isEqualTo(512);
        assertThat(c.maxAdvertisementsPerOrigin()).isEqualTo(20);
        assertThat(c.maxExtensionBytes()).isEqualTo(1024);
        assertThat(c.maxExtensionsPerOrigin()).isEqualTo(16);
    }

    @Test
    void maxExtensionBytesFollowsTheUpdateBodyUnlessSet() {
        RoutingConfig small = RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES).build();
        int room = RoutingConfig.MIN_UPDATE_BODY_BYTES - ExtensionCodec.UPDATE_HEADER_BYTES - ExtensionCodec.RECORD_HEADER_BYTES;
        assertThat(small.maxExtensionBytes()).isEqualTo(room);
        assertThat(RoutingConfig.builder().maxExtensionBytes(0).build().maxExtensionBytes()).isZero();
        assertThatThrownBy(() -> RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES)
                .maxExtensionBytes(room + 1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxExtensionBytes");
        assertThatThrownBy(() -> RoutingConfig.builder().maxExtensionBytes(-1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxExtensionBytes");
        assertThatThrownBy(() -> RoutingConfig.builder().maxExtensionsPerOrigin(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxExtensionsPerOrigin");
        // Left unset, it keeps following the body size through toBuilder.
        assertThat(RoutingConfig.defaults().toBuilder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES).build()
                .maxExtensionBytes()).isEqualTo(room);
    }

    @Test
    void maxAgeFollowsTheRefreshIntervalUnlessSet() {
        assertThat(RoutingConfig.builder().refreshInterval(Duration.ofSeconds(10)).build().maxAge()).isEqualTo(Duration.ofSeconds(30));
        assertThat(RoutingConfig.builder().refreshInterval(Duration.ofSeconds(10)).maxAge(Duration.ofSeconds(15)).build().maxAge())
                .isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void rejectsSettingsThatCannotWork() {
        assertThatThrownBy(() -> RoutingConfig.builder().maxAge(Duration.ofSeconds(60)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAge");
        assertThatThrownBy(() -> RoutingConfig.builder().floodRetransmitInterval(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES - 1).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RoutingConfig.builder().maxOrigins(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RoutingConfig.builder().floodPacingInterval(Duration.ofMillis(300)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("floodPacingInterval");
        assertThatThrownBy(() -> RoutingConfig.builder().maxSequenceLead(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSequenceLead");
        assertThatThrownBy(() -> RoutingConfig.builder().maxSequenceLead(Duration.ofDays(3651)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSequenceLead");
        assertThatThrownBy(() -> RoutingConfig.builder().advertisementLimitInterval(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("advertisementLimitInterval");
        assertThatThrownBy(() -> RoutingConfig.builder().maxAdvertisementsPerNeighbour(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAdvertisementsPerNeighbour");
        assertThatThrownBy(() -> RoutingConfig.builder().maxAdvertisementsPerOrigin(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAdvertisementsPerOrigin");
    }

    @Test
    void toBuilderKeepsEverything() {
        RoutingConfig c = RoutingConfig.builder().minRecomputeInterval(Duration.ofMillis(7)).maxOrigins(9)
                .maxSequenceLead(Duration.ofHours(2)).advertisementLimitInterval(Duration.ofMillis(300))
                .maxAdvertisementsPerNeighbour(7).maxAdvertisementsPerOrigin(3).maxExtensionBytes(99).maxExtensionsPerOrigin(4).build();
        assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    }
}
