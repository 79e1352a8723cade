package net.hopwise.admin.voip;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.hopwise.admin.config.InvalidSettingsException;
import net.hopwise.admin.config.NodeSettings;
import net.hopwise.admin.config.VoipProperties;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.voip.relay.CallStatistics;
import net.hopwise.voip.relay.RelayConfig;
import net.hopwise.voip.relay.SipRelay;

/**
 * The SIP relay beside the service's node, when {@code hopwise.voip.enabled}; empty otherwise. The
 * relay meters itself in its node's registry, which is the service's ({@code hopwise.voip.*}).
 */
public final class VoipRelay implements AutoCloseable {
    private final SipRelay relay;

    private VoipRelay(SipRelay relay) {
        this.relay = relay;
    }

    /** Starts the relay on {@code node} if the settings enable it; every bad setting named at once. */
    public static VoipRelay start(VoipProperties settings, OverlayNode node, MeterRegistry registry) {
        if (!settings.isEnabled()) {
            return new VoipRelay(null);
        }
        // The relay meters itself in the node's registry, which is this service's (hopwise.voip.*).
        return new VoipRelay(SipRelay.start(node, toConfig(settings)));
    }

    static RelayConfig toConfig(VoipProperties s) {
        List<String> problems = new ArrayList<>();
        RelayConfig.Builder b = RelayConfig.builder();
        if (s.getSipAddress() != null) {
            try {
                b.sipAddress(NodeSettings.parseBind(s.getSipAddress()));
            } catch (IllegalArgumentException e) {
                problems.add("hopwise.voip.sip-address: " + e.getMessage());
            }
        }
        try {
            if (s.getAdvertisedHost() != null) {
                b.advertisedHost(s.getAdvertisedHost());
            }
            if (s.getMediaAddress() != null) {
                b.mediaAddress(s.getMediaAddress());
            }
            if (s.getTcp() != null) {
                b.tcp(s.getTcp());
            }
            if (s.getMediaPortMin() != null || s.getMediaPortMax() != null) {
                b.mediaPorts(s.getMediaPortMin() != null ? s.getMediaPortMin() : RelayConfig.DEFAULT_MEDIA_PORT_MIN,
                        s.getMediaPortMax() != null ? s.getMediaPortMax() : RelayConfig.DEFAULT_MEDIA_PORT_MAX);
            }
            if (s.getMediaTimeout() != null) {
                b.mediaTimeout(s.getMediaTimeout());
            }
            if (s.getLinger() != null) {
                b.linger(s.getLinger());
            }
            if (s.getMaxCalls() != null) {
                b.maxCalls(s.getMaxCalls());
            }
            if (s.getRetryAfter() != null) {
                b.retryAfter(s.getRetryAfter());
            }
            // pike's sampling unit of 2 s; an unset block is RelayConfig's.
            b.requestRateLimit(new RelayConfig.RequestRateLimit(s.getRequestRateLimit(),
                    RelayConfig.RequestRateLimit.OFF.window(),
                    s.getRequestRateBlock() != null ? s.getRequestRateBlock() : RelayConfig.RequestRateLimit.OFF.block()));
            if (s.getMediaThread() != null) {
                b.mediaThread(net.hopwise.voip.relay.MediaThread.parse(s.getMediaThread()));
            }
            if (s.getMediaThreadCalls() != null) {
                b.mediaThreadCalls(s.getMediaThreadCalls());
            }
            if (s.getMediaDeadline() != null) {
                b.mediaDeadline(s.getMediaDeadline());
            }
            if (s.getMediaDeadlinePackets() != null) {
                b.mediaDeadlinePackets(s.getMediaDeadlinePackets());
            }
        } catch (IllegalArgumentException e) {
            problems.add("hopwise.voip: " + e.getMessage());
        }
        for (String rule : s.getRoutes()) {
            try {
                b.route(rule);
            } catch (IllegalArgumentException e) {
                problems.add("hopwise.voip.routes: '" + rule + "': " + e.getMessage());
            }
        }
        if (s.getAccessDelay() == null || s.getAccessDelay().isNegative()) {
            problems.add("hopwise.voip.access-delay: must be 0 or more");
        } else {
            b.accessDelay(s.getAccessDelay());
        }
        if (s.getCallRecords() != null && !s.getCallRecords().isBlank()) {
            try {
                b.callRecords(java.nio.file.Path.of(s.getCallRecords().trim()));
            } catch (java.nio.file.InvalidPathException e) {
                problems.add("hopwise.voip.call-records: not a file name: " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(List.of("hopwise.voip: " + e.getMessage()));
        }
    }

    public boolean enabled() {
        return relay != null;
    }

    /** The relay, or empty when it is not enabled. */
    public Optional<SipRelay> relay() {
        return Optional.ofNullable(relay);
    }

    /** Every call the relay knows now; empty when it is not enabled. */
    public List<CallStatistics> calls() {
        return relay == null ? List.of() : relay.calls();
    }

    /** The relay's counters by name; empty when it is not enabled. */
    public Map<String, Long> counters() {
        return relay == null ? Map.of() : relay.counters();
    }

    /** The access networks' delay the R and MOS figures assume, in ms, as the relay's own meters and records. */
    public double accessDelayMs() {
        return relay == null ? 0 : relay.config().accessDelay().toNanos() / 1e6;
    }

    @Override
    public void close() {
        if (relay != null) {
            relay.close();
        }
    }
}
