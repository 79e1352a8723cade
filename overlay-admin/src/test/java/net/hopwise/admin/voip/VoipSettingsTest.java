package net.hopwise.admin.voip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.config.InvalidSettingsException;
import net.hopwise.admin.config.VoipProperties;
import net.hopwise.voip.relay.RelayConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class VoipSettingsTest {

    @Test
    void overloadSettingsReachTheRelayAndUnsetOnesKeepItsDefaults() {
        VoipProperties p = settings();
        RelayConfig defaults = VoipRelay.toConfig(p);
        assertThat(defaults.maxCalls()).isEqualTo(RelayConfig.DEFAULT_MAX_CALLS);
        assertThat(defaults.retryAfter()).isEqualTo(RelayConfig.DEFAULT_RETRY_AFTER);
        p.setMaxCalls(250);
        p.setRetryAfter(Duration.ofSeconds(30));
        RelayConfig set = VoipRelay.toConfig(p);
        assertThat(set.maxCalls()).isEqualTo(250);
        assertThat(set.retryAfter()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void mediaThreadSettingReachesTheRelayBothWaysAndUnsetKeepsItsDefault() {
        VoipProperties p = settings();
        assertThat(VoipRelay.toConfig(p).mediaThread()).isEqualTo(RelayConfig.DEFAULT_MEDIA_THREAD);
        p.setMediaThread(false);
        assertThat(VoipRelay.toConfig(p).mediaThread()).isFalse();
        p.setMediaThread(true);
        assertThat(VoipRelay.toConfig(p).mediaThread()).isTrue();
    }

    @Test
    void mediaThreadPropertyIsBoundFromItsName() {
        for (String value : new String[] {"off", "on"}) {
            HopwiseProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                    "hopwise.voip.sip-address", "127.0.0.1:5060", "hopwise.voip.media-thread", value)))
                    .bind("hopwise", HopwiseProperties.class).get();
            assertThat(VoipRelay.toConfig(bound.getVoip()).mediaThread()).as(value).isEqualTo(value.equals("on"));
        }
    }

    @Test
    void badOverloadSettingsAreNamed() {
        VoipProperties p = settings();
        p.setMaxCalls(-1);
        assertThatThrownBy(() -> VoipRelay.toConfig(p)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("maxCalls must not be negative");
        VoipProperties q = settings();
        q.setRetryAfter(Duration.ofMillis(200));
        assertThatThrownBy(() -> VoipRelay.toConfig(q)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("retryAfter");
    }

    private static VoipProperties settings() {
        VoipProperties p = new VoipProperties();
        p.setSipAddress("127.0.0.1:5060");
        return p;
    }
}
