package net.hopwise.admin.voip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.config.InvalidSettingsException;
import net.hopwise.admin.config.VoipProperties;
import net.hopwise.voip.relay.MediaThread;
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
    void theRequestRateLimitIsOffUnlessSetAndBoundFromItsNames() {
        assertThat(VoipRelay.toConfig(settings()).requestRateLimit()).isEqualTo(RelayConfig.RequestRateLimit.OFF);
        HopwiseProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                "hopwise.voip.sip-address", "127.0.0.1:5060", "hopwise.voip.request-rate-limit", "40",
                "hopwise.voip.request-rate-block", "5m")))
                .bind("hopwise", HopwiseProperties.class).get();
        assertThat(VoipRelay.toConfig(bound.getVoip()).requestRateLimit())
                .isEqualTo(new RelayConfig.RequestRateLimit(40, Duration.ofSeconds(2), Duration.ofMinutes(5)));
        VoipProperties bad = settings();
        bad.setRequestRateLimit(-3);
        assertThatThrownBy(() -> VoipRelay.toConfig(bad)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("requests per window must not be negative, got -3");
    }

    @Test
    void mediaThreadSettingReachesTheRelayEachWayAndUnsetKeepsItsDefault() {
        VoipProperties p = settings();
        RelayConfig defaults = VoipRelay.toConfig(p);
        assertThat(defaults.mediaThread()).isEqualTo(RelayConfig.DEFAULT_MEDIA_THREAD);
        assertThat(defaults.mediaThreadCalls()).isEqualTo(RelayConfig.DEFAULT_MEDIA_THREAD_CALLS);
        for (MediaThread mode : MediaThread.values()) {
            p.setMediaThread(mode.name().toLowerCase(java.util.Locale.ROOT));
            assertThat(VoipRelay.toConfig(p).mediaThread()).isEqualTo(mode);
        }
        p.setMediaThreadCalls(50);
        assertThat(VoipRelay.toConfig(p).mediaThreadCalls()).isEqualTo(50);
    }

    @Test
    void mediaThreadPropertiesAreBoundFromTheirNames() {
        // true and false as the setting was before auto: on and off.
        Map<String, MediaThread> values = Map.of("auto", MediaThread.AUTO, "on", MediaThread.ON, "off", MediaThread.OFF,
                "true", MediaThread.ON, "false", MediaThread.OFF);
        values.forEach((value, mode) -> {
            HopwiseProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                    "hopwise.voip.sip-address", "127.0.0.1:5060", "hopwise.voip.media-thread", value,
                    "hopwise.voip.media-thread-calls", "70")))
                    .bind("hopwise", HopwiseProperties.class).get();
            RelayConfig config = VoipRelay.toConfig(bound.getVoip());
            assertThat(config.mediaThread()).as(value).isEqualTo(mode);
            assertThat(config.mediaThreadCalls()).as(value).isEqualTo(70);
        });
    }

    @Test
    void badMediaThreadSettingsAreNamed() {
        VoipProperties p = settings();
        p.setMediaThread("sometimes");
        assertThatThrownBy(() -> VoipRelay.toConfig(p)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("auto, on or off");
        VoipProperties q = settings();
        q.setMediaThreadCalls(-1);
        assertThatThrownBy(() -> VoipRelay.toConfig(q)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("mediaThreadCalls");
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

    @Test
    void callsAreRecordedOnlyToAFileNamedAndTheAccessDelayReachesTheRelay() {
        RelayConfig defaults = VoipRelay.toConfig(settings());
        assertThat(defaults.callRecords()).isNull();
        assertThat(defaults.accessDelay()).isEqualTo(RelayConfig.DEFAULT_ACCESS_DELAY);
        HopwiseProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                "hopwise.voip.sip-address", "127.0.0.1:5060", "hopwise.voip.call-records",
                "/var/log/hopwise/calls.jsonl", "hopwise.voip.access-delay", "20ms")))
                .bind("hopwise", HopwiseProperties.class).get();
        RelayConfig config = VoipRelay.toConfig(bound.getVoip());
        assertThat(config.callRecords()).isEqualTo(java.nio.file.Path.of("/var/log/hopwise/calls.jsonl"));
        assertThat(config.accessDelay()).isEqualTo(Duration.ofMillis(20));
        VoipProperties blank = settings();
        blank.setCallRecords(" ");
        assertThat(VoipRelay.toConfig(blank).callRecords()).isNull();
        VoipProperties bad = settings();
        bad.setCallRecords("calls\u0000.jsonl");
        bad.setAccessDelay(Duration.ofMillis(-1));
        assertThatThrownBy(() -> VoipRelay.toConfig(bad)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("hopwise.voip.call-records").hasMessageContaining("hopwise.voip.access-delay");
    }

    @Test
    void theMediaDeadlineSettingsReachTheRelayAndBadOnesAreNamed() {
        RelayConfig defaults = VoipRelay.toConfig(settings());
        assertThat(defaults.mediaDeadline()).isEqualTo(RelayConfig.DEFAULT_MEDIA_DEADLINE);
        assertThat(defaults.mediaDeadlinePackets()).isEqualTo(RelayConfig.DEFAULT_MEDIA_DEADLINE_PACKETS);
        HopwiseProperties bound = new Binder(new MapConfigurationPropertySource(Map.of(
                "hopwise.voip.sip-address", "127.0.0.1:5060", "hopwise.voip.media-deadline", "150ms",
                "hopwise.voip.media-deadline-packets", "3")))
                .bind("hopwise", HopwiseProperties.class).get();
        RelayConfig config = VoipRelay.toConfig(bound.getVoip());
        assertThat(config.mediaDeadline()).isEqualTo(Duration.ofMillis(150));
        assertThat(config.mediaDeadline(Duration.ofMillis(30))).isEqualTo(Duration.ofMillis(90));
        assertThat(config.mediaDeadline(null)).isEqualTo(Duration.ofMillis(150));
        VoipProperties bad = settings();
        bad.setMediaDeadlinePackets(-1);
        assertThatThrownBy(() -> VoipRelay.toConfig(bad)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("mediaDeadlinePackets must be 0 to 100, got -1");
    }

    private static VoipProperties settings() {
        VoipProperties p = new VoipProperties();
        p.setSipAddress("127.0.0.1:5060");
        return p;
    }
}
